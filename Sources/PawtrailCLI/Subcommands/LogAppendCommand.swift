import EventLog
import Foundation

/// `pawtrail log append`: one event from options, or a JSON Lines batch committed as one atomic append.
enum LogAppendCommand {
    /// What the command line asks to append.
    struct Invocation: Sendable {
        /// The append to run.
        var request: AppendRequest
        /// Whether it came from `--batch` (the batch sentence is printed).
        var isBatch: Bool
        /// `false` with `--no-sync`.
        var sync: Bool
    }

    static let spec = CommandSpec(
        name: "append",
        abstract: "Append an event to a stream, or a batch of events atomically.",
        discussion: """
            A batch file (--batch FILE, '-' for stdin) holds JSON Lines, one object per event:
              {"stream":"order-42","type":"OrderPlaced","data":{...},"eventId":"...","metadata":{...},"expectedVersion":0}
            or a check-only condition on a stream the batch does not write:
              {"stream":"inventory-litter","expectedVersion":7,"check":true}
            The whole file commits atomically, or nothing does. Appending creates the store if it is missing.
            """,
        usage: "[--store <path>] (--stream <id> --type <type> (--data <json> | --data-file <path>) | --batch <file>) "
            + "[--expected-version <version>] [--event-id <uuid>] [--meta <key=value> ...] [--json] [--no-sync]",
        options: [
            .value("stream", "id", help: "The stream to append to."),
            .value("type", "type", help: "The event type, e.g. PetAdded."),
            .value("data", "json", help: "The event data: any JSON value, stored byte for byte."),
            .value("data-file", "path", help: "Read the event data from a file ('-' for stdin)."),
            .value("batch", "file", help: "Append the events of a JSON Lines file atomically ('-' for stdin)."),
            .value(
                "expected-version", "version", help: "any, no-stream, stream-exists or the stream's current version.",
                default: "any"),
            .value("event-id", "uuid", help: "The event id; repeating an append with the same id is idempotent.", default: "a random UUID"),
            .repeated("meta", "key=value", help: "A metadata pair (repeatable)."),
            .flag("json", help: "Print the result as JSON."),
            .flag("no-sync", help: "Do not flush to disk before returning (bulk import; a crash may lose the append)."),
        ],
        run: run)

    /// Turns the command line into an append, reading the data or batch file.
    ///
    /// - Parameter arguments: The parsed command line.
    /// - Returns: The append to run.
    /// - Throws: ``UsageError`` for missing or conflicting options (64); ``CommandFailure`` for bad data (65)
    ///   or an unreadable file (74); `EventStoreError.invalidRequest` for an invalid stream id or type (65).
    static func invocation(_ arguments: ParsedArguments) throws -> Invocation {
        let sync = !arguments.flag("no-sync")
        if let batch = arguments.value("batch") {
            for name in ["stream", "type", "data", "data-file", "expected-version", "event-id", "meta"] where arguments.flag(name) {
                throw arguments.usageError(
                    "'--\(name)' cannot be used with '--batch'; put it on the batch file's lines instead")
            }
            // A batch is at most 64 MiB of events; their JSON envelopes may triple that.
            let request = try BatchParser.parse(try FileReader.readAll(batch, limit: 3 * EventLimits.maxAppendBytes, what: "--batch"))
            return Invocation(request: request, isBatch: true, sync: sync)
        }

        let rawStream = try arguments.required("stream", "id")
        let type = try arguments.required("type", "type")
        let expected =
            try arguments.converted("expected-version", expecting: "any, no-stream, stream-exists or a version number") {
                ExpectedVersion(parsing: $0)
            } ?? .any
        let id = try arguments.converted("event-id", expecting: "a UUID") { UUID(uuidString: $0) } ?? .random()
        var metadata = EventMetadata()
        for pair in arguments.allValues("meta") {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else {
                throw arguments.usageError("the value '\(pair)' is invalid for '--meta': expected KEY=VALUE")
            }
            let key = String(pair[..<eq])
            guard metadata[key] == nil else { throw arguments.usageError("metadata key '\(key)' is given more than once") }
            metadata[key] = String(pair[pair.index(after: eq)...])
        }
        let data: [UInt8]
        switch (arguments.value("data"), arguments.value("data-file")) {
        case (.some, .some):
            throw arguments.usageError("give the event data with '--data' or '--data-file', not both")
        case (nil, nil):
            throw arguments.usageError("missing expected argument '--data <json>' (or '--data-file <path>')")
        case (.some(let text), nil):
            data = try EventData.validated(Array(text.utf8), source: "--data")
        case (nil, .some(let path)):
            data = try EventData.validated(
                try FileReader.readAll(path, limit: EventLimits.maxEventBytes, what: "--data-file"), source: "--data-file \(path)")
        }

        let stream = try StreamID(rawStream)
        let stored = try EventData.stored(data, type: type, source: arguments.value("data") != nil ? "--data" : "--data-file")
        let request = AppendRequest(
            stream: stream, expected: expected, events: [ProposedEvent(id: id, type: type, data: stored, metadata: metadata)])
        try AppendPlanner.validate(request)
        return Invocation(request: request, isBatch: false, sync: sync)
    }

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        // Everything about the input is checked before the store is opened, so bad input never creates a store.
        let invocation = try invocation(context.arguments)
        let store = try context.openStore(.write(sync: invocation.sync))
        let result = try await store.events.append(invocation.request)
        if context.wantsJSON {
            context.out(AppendReport.json(result))
        } else {
            context.out(AppendReport.sentence(result, single: !invocation.isBatch))
        }
        return .success
    }
}
