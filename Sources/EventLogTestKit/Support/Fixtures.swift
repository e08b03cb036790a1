import EventLog
import Foundation
import Testing

// Stream ids written as literals in tests. Every literal used is valid; an invalid one traps at once.
extension StreamID: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { fatalError("invalid stream id literal '\(value)': \(error)") }
    }
}

/// A UUID derived from a number (`00000000-0000-0000-0000-00000000002a` for 42), for cases that speak of
/// "event 7".
func uuid(_ n: Int) -> UUID {
    let hex = String(n, radix: 16)
    return UUID(uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
}

/// A proposed event with a small JSON payload.
func event(
    _ type: String = "Tested", _ text: String = "{}", id: UUID = UUID(), metadata: EventMetadata = EventMetadata()
) -> ProposedEvent {
    ProposedEvent(id: id, type: type, data: Array(text.utf8), metadata: metadata)
}

/// `n` proposed events `{"n":0}` … of one type.
func events(_ n: Int, type: String = "Tested", prefix: String = "") -> [ProposedEvent] {
    (0..<n).map { i in event(type, "{\"n\":\(i)\(prefix.isEmpty ? "" : ",\"p\":\"\(prefix)\"")}") }
}

extension EventStore {
    /// Appends to one stream.
    @discardableResult
    func append(
        to stream: StreamID, expected: ExpectedVersion = .any, _ events: [ProposedEvent]
    ) async throws -> AppendResult {
        try await append(AppendRequest(stream: stream, expected: expected, events: events))
    }

    /// Every event of a source, following `next` page by page (asserting each page respects the limit).
    func readAll(
        _ source: ReadSource = .all, direction: ReadDirection = .forward, from: UInt64? = nil, pageSize: Int = 1000,
        eventTypes: Set<String>? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [RecordedEvent] {
        var out: [RecordedEvent] = []
        var cursor = from
        var pages = 0
        while true {
            let batch = try await read(
                ReadRequest(source: source, direction: direction, from: cursor, limit: pageSize, eventTypes: eventTypes))
            #expect(batch.events.count <= pageSize, "a page holds more events than its limit", sourceLocation: sourceLocation)
            out.append(contentsOf: batch.events)
            guard let next = batch.next else { break }
            if let cursor {
                // `next` must make progress, or paging never ends.
                let progresses = direction == .forward ? next > cursor : next < cursor
                try #require(progresses || !batch.events.isEmpty, "read did not progress: next \(next) from \(cursor)",
                    sourceLocation: sourceLocation)
            }
            cursor = next
            pages += 1
            try #require(pages < 1_000_000, "paging does not end", sourceLocation: sourceLocation)
        }
        return out
    }

    /// The events of one stream, forward.
    func events(of stream: StreamID) async throws -> [RecordedEvent] {
        try await readAll(.stream(stream))
    }
}

// MARK: - Error expectations

/// Expects `body` to throw ``EventStoreError/invalidRequest(_:)`` and returns its message.
@discardableResult
func expectInvalidRequest<R>(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R
) async -> String? {
    let error = await #expect(throws: EventStoreError.self, comment, sourceLocation: sourceLocation) {
        _ = try await body()
    }
    guard let error else { return nil }
    guard error.code == .invalidRequest else {
        Issue.record("expected invalidRequest, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    return error.reason
}

/// Expects `body` to throw ``EventStoreError/idempotencyConflict(eventID:reason:)`` and returns the event id it
/// names.
@discardableResult
func expectIdempotencyConflict<R>(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R
) async -> UUID? {
    let error = await #expect(throws: EventStoreError.self, comment, sourceLocation: sourceLocation) {
        _ = try await body()
    }
    guard let error else { return nil }
    guard error.code == .idempotencyConflict, let id = error.eventID else {
        Issue.record("expected idempotencyConflict, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
    return id
}

/// Expects `body` to throw exactly this error.
func expectError<R>(
    _ expected: EventStoreError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> R
) async {
    let error = await #expect(throws: EventStoreError.self, sourceLocation: sourceLocation) { _ = try await body() }
    if let error { #expect(error == expected, sourceLocation: sourceLocation) }
}

/// A snapshot of what a store holds, to prove a failed operation left no trace.
struct StoreSnapshot: Equatable {
    var lastPosition: UInt64?
    var versions: [StreamID: UInt64?]
    var events: [RecordedEvent]

    init(_ store: any EventStore, streams: [StreamID]) async throws {
        lastPosition = try await store.lastPosition()
        versions = [:]
        for s in streams { versions[s] = try await store.streamVersion(of: s) }
        events = try await store.readAll()
    }
}

struct WatchdogTimeout: Error, CustomStringConvertible {
    let seconds: Int
    var description: String { "watchdog: the case did not finish within \(seconds) s" }
}

/// Races `body` against a watchdog so a hung case fails instead of hanging the suite. The default is generous: the
/// suite runs its cases in parallel on a pool of two threads (this machine's cores), and a follower's appending task
/// may wait for a thread while long computing cases (the checkpoint fuzz campaign) hold both; 30 s was seen to run
/// out that way, with nothing hung.
///
/// The case ends at the time-out whatever `body` does: `body` runs as a task of its own, which is cancelled and
/// then left to end when it can. Waiting for it, as a task group would, hangs the run with the case when `body`
/// never notices its cancellation.
func withWatchdog<R: Sendable>(
    seconds: Int = 120, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> R
) async throws -> R {
    // The first of the two answers is the case's: a stream rather than a task group, which would wait for both.
    let (answers, answer) = AsyncStream.makeStream(of: Result<R, any Error>.self)
    let work = Task {
        do { answer.yield(.success(try await body())) } catch { answer.yield(.failure(error)) }
    }
    let watchdog = Task {
        try await Task.sleep(for: .seconds(seconds))
        answer.yield(.failure(WatchdogTimeout(seconds: seconds)))
    }
    var first = answers.makeAsyncIterator()
    let result = await first.next() ?? .failure(CancellationError())
    answer.finish()
    work.cancel()
    watchdog.cancel()
    if case .failure(let e as WatchdogTimeout) = result { Issue.record(e, sourceLocation: sourceLocation) }
    return try result.get()
}

/// Validates a stream id through `StreamID.init(_:)` (a literal `StreamID("…")` would take the literal initializer).
func sid(_ raw: String) throws(EventStoreError) -> StreamID {
    try StreamID(raw)
}

/// `count` characters of random hex: padding that zstd cannot squeeze away (about 4 bits of entropy per
/// character), so that small segments really fill up and roll over.
func noise(_ count: Int) -> String {
    var out = ""
    out.reserveCapacity(count + 32)
    while out.utf8.count < count { out += UUID().uuidString.replacingOccurrences(of: "-", with: "") }
    return String(out.prefix(count))
}
