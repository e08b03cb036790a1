import PawtrailJSON
import EventLog
import Events
import PawtrailDomain
import ProjectionExport
import ProjectionRuntime

/// Prints an error the way scripts rely on: `Error: <sentence>` on stderr (with the usage line for usage
/// errors), and with `--json` also `{"error":"<kind>",...}` on stdout; returns the exit status.
struct ErrorReporter: Sendable {
    /// The command tree, for usage lines.
    var root: CommandSpec
    /// Where to print.
    var console: any Console
    /// Whether the command line asked for JSON.
    var json: Bool

    /// Reports an error.
    ///
    /// - Parameter error: Whatever a command threw.
    /// - Returns: The exit status for it.
    func report(_ error: any Error) -> ExitCode {
        switch error {
        case let usage as UsageError:
            let path = resolve(usage.commandPath)
            let name = usage.commandPath.joined(separator: " ")
            emit(.usage, usage.message, extra: [])
            console.write("\nUsage: \(HelpFormatter().usage(for: path))\nSee '\(name) --help'.\n", to: .standardError)
            return .usage
        case let failure as CommandFailure:
            emit(failure.kind, failure.message, extra: [])
            return failure.kind.exitCode
        case let domain as DomainError:
            let kind = ErrorKind(domain)
            emit(kind, domain.description, extra: DomainReport.details(domain))
            return kind.exitCode
        case let refusal as LocalizedRefusal:
            let kind = ErrorKind(refusal.error)
            console.write("Error: \(refusal.sentence)\n", to: .standardError)
            if json {
                var pairs: [JSONValue.Pair] = [
                    .init(key: "error", value: .string(kind.rawValue)), .init(key: "message", value: .string(refusal.error.description)),
                    .init(key: "userMessage", value: .string(refusal.sentence)),
                ]
                pairs += DomainReport.details(refusal.error)
                console.write(JSONValue.object(pairs).serialized + "\n", to: .standardOutput)
            }
            return kind.exitCode
        case let failure as ProjectionFailure:
            emit(.failure, failure.description, extra: [
                .init(key: "projection", value: .string(failure.projection)), .init(key: "position", value: .uint(failure.position)),
                .init(key: "stream", value: .string(failure.stream)), .init(key: "type", value: .string(failure.type)),
            ])
            return .failure
        case let export as SQLiteExportError:
            emit(.io, export.message, extra: [])
            return .ioError
        case let field as FieldError:
            emit(.invalidCommand, field.description, extra: [])
            return ErrorKind.invalidCommand.exitCode
        case let store as EventStoreError:
            let kind = ErrorKind(store)
            if let (stream, expected, actual) = store.conflict {
                console.write("Error: \(store.description)\n", to: .standardError)
                if json {
                    let line = JSONValue.object([
                        "error": .string(kind.rawValue),
                        "stream": .string(stream.rawValue),
                        "expected": Self.json(expected),
                        "actual": actual.map { .uint($0) } ?? .string("no-stream"),
                    ])
                    console.write(line.serialized + "\n", to: .standardOutput)
                }
                return kind.exitCode
            }
            var extra: [JSONValue.Pair] = []
            if let id = store.eventID {
                extra.append(.init(key: "eventId", value: .string(id.uuidString.lowercased())))
            }
            emit(kind, Self.message(store), extra: extra)
            return kind.exitCode
        default:
            emit(.failure, String(describing: error), extra: [])
            return .failure
        }
    }

    /// An expected version as JSON: a number, or `"any"`, `"no-stream"`, `"stream-exists"`.
    /// A store error's message with what the CLI adds: how to name a store, what to do about an unknown outcome.
    static func message(_ error: EventStoreError) -> String {
        switch error.code {
        case .storeNotFound: "\(error) (pass --store PATH or set PAWTRAIL_STORE; appending creates a store)"
        case .outcomeUnknown: "\(error) (run the same command again: its event ids make a retry safe)"
        default: error.description
        }
    }

    static func json(_ expected: ExpectedVersion) -> JSONValue {
        if case .exact(let v) = expected { return .uint(v) }
        return .string(expected.description)
    }

    private func emit(_ kind: ErrorKind, _ message: String, extra: [JSONValue.Pair]) {
        console.write("Error: \(message)\n", to: .standardError)
        if json {
            let line = JSONValue.object(
                [.init(key: "error", value: .string(kind.rawValue)), .init(key: "message", value: .string(message))] + extra)
            console.write(line.serialized + "\n", to: .standardOutput)
        }
    }

    private func resolve(_ names: [String]) -> [CommandSpec] {
        var path = [root]
        for name in names.dropFirst() {
            guard let sub = path[path.count - 1].subcommand(named: name) else { break }
            path.append(sub)
        }
        return path
    }
}
