import EventLog
@testable import PawtrailCLI

/// The outcome of one in-process command line.
struct CommandOutcome {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output split into lines, without the empty last one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// Runs command lines in this process against one in-memory store.
struct InProcessCLI {
    let opener = TestStoreOpener()

    /// Runs `pawtrail <arguments>`.
    func run(_ arguments: String...) async -> CommandOutcome {
        await run(arguments)
    }

    /// Runs `pawtrail <arguments>`.
    func run(_ arguments: [String]) async -> CommandOutcome {
        let console = CapturingConsole()
        let status = await PawtrailCommand.run(
            arguments: arguments, environment: [:], console: console, storeOpener: opener)
        return CommandOutcome(status: status.rawValue, stdout: console.standardOutput, stderr: console.standardError)
    }
}
