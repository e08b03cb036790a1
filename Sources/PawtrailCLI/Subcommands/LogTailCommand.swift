import EventLog

/// `pawtrail log tail`: the last events of the log, and with `--follow` every event appended after them.
enum LogTailCommand {
    /// How many events `tail` shows without `--from`.
    static let defaultCount = 10

    static let spec = CommandSpec(
        name: "tail",
        abstract: "Print the last events of the log; with --follow, keep printing new ones.",
        options: [
            .value("from", "n", help: "Start at this position instead of the last \(defaultCount) events."),
            .flag("follow", help: "Keep printing events appended by any process until interrupted (Ctrl-C)."),
            .flag("json", help: "Print JSON Lines, one event per line."),
        ],
        run: run)

    /// The position tail starts at: `--from`, else the position of the tenth-last event.
    static func startPosition(from: UInt64?, store: any EventStore) async throws -> UInt64 {
        if let from { return from }
        let last = try await store.read(ReadRequest(source: .all, direction: .backward, limit: defaultCount))
        if let oldest = last.events.last { return oldest.position }
        return try await store.lastPosition().map { $0 + 1 } ?? 0
    }

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let from = try context.arguments.converted("from", expecting: "a non-negative integer") { UInt64(decimal: $0) }
        let store = try await context.openForReading().events
        let start = try await startPosition(from: from, store: store)
        let print: @Sendable (RecordedEvent) -> Void = { e in
            context.out(context.wantsJSON ? EventFormatter.json(e).serialized : EventFormatter.line(e))
        }
        guard context.arguments.flag("follow") else {
            try await store.forEachPage(.all, from: start) { events in
                events.forEach(print)
                return true
            }
            return .success
        }
        let task = Task {
            for try await event in store.follow(.all, from: start) {
                print(event)
                context.console.flush()
            }
        }
        let interrupts = InterruptHandler { task.cancel() }
        defer { interrupts.cancel() }
        do {
            try await task.value
        } catch is CancellationError {
            // Interrupted: a normal end of following.
        }
        context.console.flush()
        return .success
    }
}
