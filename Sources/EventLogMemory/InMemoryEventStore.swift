public import EventLog
import Foundation
import Synchronization

/// An event store held in memory: the reference implementation of ``EventStore`` semantics, for tests and
/// for trying things out. Nothing survives the process.
public final class InMemoryEventStore: EventStore {
    private struct State {
        var events: [RecordedEvent] = []
        var streams: [StreamID: [Int]] = [:]
        var byID: [UUID: Int] = [:]
        var lastRecordedAt = Timestamp(microsecondsSinceEpoch: 0)
    }

    private let state = Mutex(State())
    private let clock: @Sendable () -> Timestamp

    /// Creates an empty store.
    ///
    /// - Parameter clock: The source of `recordedAt` times; the wall clock by default.
    public init(clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }) {
        self.clock = clock
    }

    public func append(_ request: AppendRequest) async throws -> AppendResult {
        try AppendPlanner.validate(request)
        return try state.withLock { s in
            let outcome = try AppendPlanner.plan(
                request,
                currentVersion: { stream in s.streams[stream].map { UInt64($0.count - 1) } },
                committedEvent: { id in s.byID[id].map { s.events[$0] } })
            switch outcome {
            case .alreadyCommitted(let result):
                return result
            case .write(let planned, let streams):
                guard !planned.isEmpty else {
                    return AppendResult(firstPosition: nil, lastPosition: nil, streams: streams)
                }
                let now = max(clock(), s.lastRecordedAt)
                s.lastRecordedAt = now
                let first = UInt64(s.events.count)
                for p in planned {
                    let index = s.events.count
                    s.events.append(
                        RecordedEvent(
                            position: UInt64(index), stream: p.stream, version: p.version, type: p.event.type,
                            id: p.event.id, recordedAt: now, metadata: p.event.metadata, data: p.event.data))
                    s.streams[p.stream, default: []].append(index)
                    s.byID[p.event.id] = index
                }
                return AppendResult(
                    firstPosition: first, lastPosition: UInt64(s.events.count - 1), streams: streams)
            }
        }
    }

    public func read(_ request: ReadRequest) async throws -> ReadBatch {
        guard request.limit > 0 else { throw EventStoreError.invalidRequest("read limit must be at least 1") }
        return state.withLock { s0 in
            let s = s0
            // Candidate indexes into `events`, in ascending order, and the cursor value of each.
            let indexes: [Int]
            let cursorOf: (Int) -> UInt64
            switch request.source {
            case .stream(let id):
                indexes = s.streams[id] ?? []
                cursorOf = { s.events[$0].version }
            case .all, .category:
                indexes = Array(s.events.indices)
                cursorOf = { s.events[$0].position }
            }
            // Types and categories match by their bytes, as stream ids do (see `StreamID`), not by `String` equality.
            let types = request.eventTypes.map { Set($0.map { Array($0.utf8) }) }
            var out: [RecordedEvent] = []
            var next: UInt64?
            let ordered: [Int]
            switch request.direction {
            case .forward:
                ordered = indexes.filter { i in request.from.map { f in cursorOf(i) >= f } ?? true }
            case .backward:
                ordered = indexes.reversed().filter { i in request.from.map { f in cursorOf(i) <= f } ?? true }
            }
            for i in ordered {
                // The cursor is the first event not examined, whether or not it would pass the filters.
                if out.count == request.limit {
                    next = cursorOf(i)
                    break
                }
                let e = s.events[i]
                if case .category(let c) = request.source, !e.stream.isInCategory(c) { continue }
                if let types, !types.contains(Array(e.type.utf8)) { continue }
                out.append(e)
            }
            return ReadBatch(events: out, next: next)
        }
    }

    public func streamVersion(of stream: StreamID) async throws -> UInt64? {
        state.withLock { s in s.streams[stream].map { UInt64($0.count - 1) } }
    }

    public func event(withID id: UUID) async throws -> RecordedEvent? {
        state.withLock { s in s.byID[id].map { s.events[$0] } }
    }

    public func position(of stream: StreamID, version: UInt64) async throws -> UInt64? {
        state.withLock { s in
            guard let indices = s.streams[stream], version < UInt64(indices.count) else { return nil }
            return UInt64(indices[Int(version)])
        }
    }

    public func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? {
        state.withLock { s in
            var lo = 0
            var hi = s.events.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if s.events[mid].recordedAt <= time { lo = mid + 1 } else { hi = mid }
            }
            return lo == 0 ? nil : s.events[lo - 1].position
        }
    }

    public func lastPosition() async throws -> UInt64? {
        state.withLock { s in s.events.isEmpty ? nil : UInt64(s.events.count - 1) }
    }

    public func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            let last = try await lastPosition()
            if let last, position.map({ last > $0 }) ?? true { return true }
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
