import EventLog
import Foundation
import Synchronization

/// A minimal in-memory ``EventStore`` for in-process command tests. It runs the shared ``AppendPlanner``, so
/// append semantics (expected versions, idempotency) are the real ones; reads are simple filters.
/// (The test target does not depend on EventLogMemory; this keeps it that way.)
final class TestEventStore: EventStore {
    private let events = Mutex<[RecordedEvent]>([])

    func append(_ request: AppendRequest) async throws -> AppendResult {
        try AppendPlanner.validate(request)
        return try events.withLock { log in
            let current = log
            let outcome = try AppendPlanner.plan(
                request,
                currentVersion: { s in current.last { $0.stream == s }?.version },
                committedEvent: { id in current.first { $0.id == id } })
            switch outcome {
            case .alreadyCommitted(let result):
                return result
            case .write(let planned, let streams):
                guard !planned.isEmpty else { return AppendResult(firstPosition: nil, lastPosition: nil, streams: streams) }
                let first = UInt64(log.count)
                for p in planned {
                    log.append(
                        RecordedEvent(
                            position: UInt64(log.count), stream: p.stream, version: p.version, type: p.event.type,
                            id: p.event.id, recordedAt: Timestamp(microsecondsSinceEpoch: 1_796_000_000_000_000 + Int64(log.count)),
                            metadata: p.event.metadata, data: p.event.data))
                }
                return AppendResult(firstPosition: first, lastPosition: UInt64(log.count - 1), streams: streams)
            }
        }
    }

    func read(_ request: ReadRequest) async throws -> ReadBatch {
        let log = events.withLock { $0 }
        var candidates: [(cursor: UInt64, event: RecordedEvent)]
        switch request.source {
        case .all: candidates = log.map { ($0.position, $0) }
        case .category(let c): candidates = log.filter { $0.stream.category == c }.map { ($0.position, $0) }
        case .stream(let s): candidates = log.filter { $0.stream == s }.map { ($0.version, $0) }
        }
        if request.direction == .backward { candidates.reverse() }
        if let from = request.from {
            candidates = candidates.filter { request.direction == .forward ? $0.cursor >= from : $0.cursor <= from }
        }
        if let types = request.eventTypes { candidates = candidates.filter { types.contains($0.event.type) } }
        let page = candidates.prefix(request.limit)
        let next = candidates.count > request.limit ? candidates[request.limit].cursor : nil
        return ReadBatch(events: page.map(\.event), next: next)
    }

    func streamVersion(of stream: StreamID) async throws -> UInt64? {
        events.withLock { $0.last { $0.stream == stream }?.version }
    }

    func lastPosition() async throws -> UInt64? {
        events.withLock { $0.isEmpty ? nil : UInt64($0.count - 1) }
    }

    func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        let last = try await lastPosition()
        return last.map { l in position.map { l > $0 } ?? true } ?? false
    }
}
