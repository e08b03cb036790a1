import EventLog

/// `pawtrail log read`: the events of a stream, a category or the whole log.
enum LogReadCommand {
    /// What to read.
    struct Invocation: Sendable, Hashable {
        var source: ReadSource
        var direction: ReadDirection
        var from: UInt64?
        var limit: Int?
        var eventTypes: Set<String>?
    }

    static let spec = CommandSpec(
        name: "read",
        abstract: "Read the events of a stream, a category or the whole log.",
        usage: "[--store <path>] (--stream <id> [--at <time> | --at-position <n>] | --all | --category <name>) [--from <n>] "
            + "[--backward] [--limit <n>] [--type <type> ...] [--json]",
        options: [
            .value("stream", "id", help: "Read one stream, by version."),
            .flag("all", help: "Read the whole log, by position."),
            .value("category", "name", help: "Read every stream of a category (order reads order-*), by position."),
            .value("from", "n", help: "Start at this version (--stream) or position (inclusive).", default: "the start, or the end with --backward"),
            .flag("backward", help: "Read from the end towards the start."),
            .value("limit", "n", help: "Read at most this many events.", default: "all"),
            .repeated("type", "type", help: "Only events of this type (repeatable)."),
            .value("at", "time", help: "With --stream: the stream's story up to this UTC time, each event with what it changed."),
            .value("at-position", "n", help: "With --stream: the stream's story up to this position."),
            .flag("json", help: "Print JSON Lines, one event per line."),
        ],
        run: run)

    /// Turns the command line into a read.
    ///
    /// - Throws: ``UsageError`` unless exactly one source is given, or for a bad number;
    ///   `EventStoreError.invalidRequest` for an invalid stream id.
    static func invocation(_ arguments: ParsedArguments) throws -> Invocation {
        let given = ["stream", "all", "category"].filter { arguments.flag($0) }
        guard given.count == 1 else {
            throw arguments.usageError(
                given.isEmpty
                    ? "say what to read: '--stream <id>', '--all' or '--category <name>'"
                    : "give only one of '--stream', '--all' and '--category'")
        }
        let source: ReadSource
        if let s = arguments.value("stream") {
            source = .stream(try StreamID(s))
        } else if let c = arguments.value("category") {
            guard !c.isEmpty, !c.contains("-") else {
                throw arguments.usageError("the value '\(c)' is invalid for '--category': a category is the part of a stream id before its first '-'")
            }
            source = .category(c)
        } else {
            source = .all
        }
        let from = try arguments.converted("from", expecting: "a non-negative integer") { UInt64(decimal: $0) }
        let limit = try arguments.converted("limit", expecting: "a positive integer") { UInt64(decimal: $0).flatMap { $0 > 0 && $0 <= UInt64(Int.max) ? Int($0) : nil } }
        let types = arguments.allValues("type")
        return Invocation(
            source: source, direction: arguments.flag("backward") ? .backward : .forward, from: from, limit: limit,
            eventTypes: types.isEmpty ? nil : Set(types))
    }

    /// Reads the events a read asks for, page by page, calling `body` with each page.
    static func read(
        _ invocation: Invocation, from store: any EventStore, _ body: ([RecordedEvent]) async throws -> Void
    ) async throws {
        var remaining = invocation.limit ?? Int.max
        try await store.forEachPage(
            invocation.source, direction: invocation.direction, from: invocation.from, eventTypes: invocation.eventTypes,
            pageSize: min(remaining, 1000)
        ) { events in
            let page = events.prefix(remaining)
            try await body(Array(page))
            remaining -= page.count
            return remaining > 0
        }
    }

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let invocation = try invocation(context.arguments)
        if context.arguments.flag("at") || context.arguments.flag("at-position") {
            guard case .stream(let stream) = invocation.source else {
                throw context.arguments.usageError("'--at' and '--at-position' tell one stream's story: give '--stream <id>'")
            }
            for name in ["from", "backward", "limit", "type"] where context.arguments.flag(name) {
                throw context.arguments.usageError("'--\(name)' cannot be used with '--at' or '--at-position'")
            }
            return try await StoryCommand.tell(stream, title: "Stream \(stream)", context)
        }
        let store = try await context.openForReading()
        try await read(invocation, from: store.events) { events in
            for e in events {
                context.out(context.wantsJSON ? EventFormatter.json(e).serialized : EventFormatter.line(e))
            }
        }
        return .success
    }
}
