public import EventLog
import Foundation

/// Events taken as another store recorded them: each run of events with one time becomes one commit at that time,
/// at the positions and versions given, with the ids given.
extension FileEventStore: EventImporting {
    /// The most events of one imported commit: a longer run of one time is split, which keeps each frame the size
    /// of a bulk append's.
    static let importedCommitLimit = 10_000

    public func importEvents(_ events: [RecordedEvent]) async throws {
        guard let first = events.first else { return }
        guard zip(events, events.dropFirst()).allSatisfy({ $0.position + 1 == $1.position && $0.recordedAt <= $1.recordedAt }) else {
            throw EventStoreError.invalidRequest("imported events must have consecutive positions and times that never decrease")
        }
        var requests: [AppendRequest] = []
        var start = 0
        while start < events.count {
            var end = start + 1
            while end < events.count, end - start < Self.importedCommitLimit, events[end].recordedAt == events[start].recordedAt { end += 1 }
            requests.append(try Self.commit(of: events[start..<end]))
            start = end
        }
        let results = try await appendAll(requests)
        var position = first.position
        for (request, result) in zip(requests, results) {
            let written: AppendResult
            do {
                written = try result.get()
            } catch let e as EventStoreError where e.code == .wrongExpectedVersion {
                let (stream, _, actual) = e.conflict!
                let here = actual.map { "at version \($0)" } ?? "missing"
                throw EventStoreError.invalidRequest("stream '\(stream)' is \(here) here; the import does not follow on from it at position \(position)")
            }
            // An id the store holds already makes the planner answer with that earlier append instead of writing.
            guard written.firstPosition == position else {
                let event = events[Int(position - first.position)]
                throw EventStoreError.invalidRequest(
                    "the store holds event \(event.id) already, at position \(written.firstPosition.map(String.init) ?? "none"), not \(position)")
            }
            position += UInt64(request.entries.count)
        }
    }

    /// One commit of events recorded together: each stream expected at the version before its first event here.
    private static func commit(of events: ArraySlice<RecordedEvent>) throws -> AppendRequest {
        var next: [StreamID: UInt64] = [:]
        var expectations: [AppendRequest.Expectation] = []
        for e in events {
            if let want = next[e.stream] {
                guard e.version == want else {
                    throw EventStoreError.invalidRequest("stream '\(e.stream)' goes from version \(want - 1) to \(e.version) at position \(e.position)")
                }
            } else {
                expectations.append(.init(stream: e.stream, expected: e.version == 0 ? .noStream : .exact(e.version - 1)))
            }
            next[e.stream] = e.version + 1
        }
        var request = AppendRequest(
            entries: events.map { .init(stream: $0.stream, event: ProposedEvent(id: $0.id, type: $0.type, data: $0.data, metadata: $0.metadata)) },
            expectations: expectations)
        request.imported = ImportedCommit(position: events.first!.position, recordedAt: events.first!.recordedAt)
        return request
    }
}
