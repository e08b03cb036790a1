@testable import PawtrailCLI
import Testing

@Suite struct HelpFormatterTests {
    @Test func layoutFollowsArgumentParser() {
        let log = PawtrailCommand.root.subcommand(named: "log")!
        let append = log.subcommand(named: "append")!
        let text = HelpFormatter().help(for: [PawtrailCommand.root, log, append])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "OVERVIEW: \(append.abstract)")
        #expect(lines[1] == "")
        #expect(lines.contains { $0.hasPrefix("USAGE: pawtrail log append ") })
        #expect(lines.contains("OPTIONS:"))
        #expect(lines.contains("  --stream <id>           The stream to append to."))
        #expect(lines.contains { $0.hasPrefix("  --expected-version <version>") })
        #expect(lines.contains { $0.contains("(default: any)") })
        #expect(lines.contains("  -h, --help              Show help information."))
        #expect(!lines.contains("SUBCOMMANDS:"))
    }

    @Test func groupsListSubcommands() {
        let text = HelpFormatter().help(for: [PawtrailCommand.root])
        #expect(text.contains("\nSUBCOMMANDS:\n  log                     "))
        #expect(text.contains("  See 'pawtrail help <subcommand>' for detailed help."))
    }
}
