import CPawtrailSupport
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
        subcommands: [LogCommand.spec, EventsCommand.spec, CommandsCommand.spec, DemoCommand.spec, ExecCommand.spec, SnapshotsCommand.spec, StoreCommand.spec]
            + DomainVerbs.groups + [ViewCommand.spec, ProjectionsCommand.spec])

    /// Runs the process's command line and exits.
    public static func main() async {
        tuneMemoryAllocator()
        let console = StandardConsole()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let status: ExitCode
        // Options end at `--`, as `run` parses them.
        let options = arguments.prefix { $0 != "--" }
        let reporter = ErrorReporter(root: root, console: console, json: options.contains("--json"))
        if let n = firstArgumentNotUTF8() {
            status = reporter.report(CommandFailure.invalidInput(
                "argument \(n) ('\(arguments[n - 1])') is not valid UTF-8; ids, data and paths must be UTF-8 text"))
        } else if !options.contains(where: { $0 == "--store" || $0.hasPrefix("--store=") }),
            let raw = getenv(GlobalOptions.storeEnvironmentVariable), String(validatingCString: raw) == nil
        {
            // Decoded like the arguments, it would name another directory than the one set.
            status = reporter.report(CommandFailure.invalidInput(
                "$\(GlobalOptions.storeEnvironmentVariable) ('\(String(cString: raw))') is not valid UTF-8; a store path must be UTF-8 text"))
        } else {
            status = await run(
                arguments: arguments, environment: ProcessInfo.processInfo.environment, console: console,
                storeOpener: StoreOpeners.standard())
        }
        console.flush()
        if let code = console.standardOutputError, status == .success {
            // The output is incomplete (a full disk under `log read --all > backup.jsonl`): not a success.
            console.write("Error: cannot write to standard output: \(String(cString: strerror(code))) (errno \(code))\n", to: .standardError)
            exit(ExitCode.ioError.rawValue)
        }
        exit(status.rawValue)
    }

    /// Asks glibc's allocator to grow its heaps 64 MiB at a time and to serve blocks up to 32 MiB from them: a
    /// process lives for one command, and a bulk append's arrays of several megabytes were otherwise each mapped,
    /// faulted in page by page and unmapped again, and the threads' heaps grown a page range at a time (mprotect).
    /// Memory is only resident once touched. The whole import of `tools/scale-bench.sh`: 3,505 -> 3,207 ms.
    static func tuneMemoryAllocator() {
        CPawtrailSupport_tune_malloc(64 << 20, 32 << 20)
    }

    /// The 1-based number of the first command-line argument that is not valid UTF-8, if any. `CommandLine.arguments`
    /// puts U+FFFD in place of such bytes, which would change `--data` that is stored byte for byte, make another
    /// stream of a stream id, and another directory of a store path; the batch file's bytes are
    /// refused alike.
    static func firstArgumentNotUTF8() -> Int? {
        for i in 1..<Int(CommandLine.argc) {
            if let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil { return i }
        }
        return nil
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
                    if parsed.flag(GlobalOptions.stats.name) { console.write(context.stats.line + "\n", to: .standardError) }
                }
                return try await run(context)
            }
        } catch {
            return reporter.report(error)
        }
    }
}
