import EventLog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `pawtrail` command: parses the arguments, runs the subcommand, exits with its status.
public enum PawtrailCommand {
    /// The command tree.
    static let root = CommandSpec(
        name: "pawtrail",
        abstract: "Pawtrail: the event-sourced system of record of a pet-care business.",
        subcommands: [LogCommand.spec, EventsCommand.spec, CommandsCommand.spec, DemoCommand.spec, ExecCommand.spec]
            + DomainVerbs.groups + [ViewCommand.spec, ProjectionsCommand.spec])

    /// Runs the process's command line and exits.
    public static func main() async {
        let console = StandardConsole()
        let status = await run(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            console: console, storeOpener: FileStoreOpener())
        console.flush()
        if let code = console.standardOutputError, status == .success {
            // The output is incomplete (a full disk under `log read --all > backup.jsonl`): not a success.
            console.write("Error: cannot write to standard output: \(String(cString: strerror(code))) (errno \(code))\n", to: .standardError)
            exit(ExitCode.ioError.rawValue)
        }
        exit(status.rawValue)
    }

    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: The words after `pawtrail`.
    ///   - environment: The environment (`PAWTRAIL_STORE`).
    ///   - console: Where to print.
    ///   - storeOpener: How to open the store.
    /// - Returns: The exit status; errors are printed, never thrown.
    public static func run(
        arguments: [String], environment: [String: String], console: any Console, storeOpener: any StoreOpener
    ) async -> ExitCode {
        let wantsJSON = arguments.prefix { $0 != "--" }.contains("--json")
        let reporter = ErrorReporter(root: root, console: console, json: wantsJSON)
        do {
            switch try ArgumentParser(root: root).parse(arguments) {
            case .help(let path):
                console.write(HelpFormatter().help(for: path), to: .standardOutput)
                return .success
            case .run(let command, let parsed):
                guard let run = command.run else { return .success }
                let context = CommandContext(
                    arguments: parsed, console: console, environment: environment, storeOpener: storeOpener)
                // The command's output is complete; now let background work it started (compacting a segment
                // it sealed, training the dictionary) finish before the process ends.
                defer {
                    console.flush()
                    storeOpener.finish()
                }
                return try await run(context)
            }
        } catch {
            return reporter.report(error)
        }
    }
}
