import BenchSupport
import EventLog
import EventLogFile

/// The end-of-scenario check that both stores hold the same log: the same number of events, and for a sample
/// of streams the same last event — and the one the workload wrote last.
enum ConsistencyCheck {
    /// A mismatch between the stores.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How many streams to compare (spread over the stream indexes, plus the hottest stream).
    static let sampleSize = 64

    /// Compares the stores after a scenario.
    ///
    /// - Parameters:
    ///   - oursPath: Our store's directory; `nil` when our store failed the scenario (only SQLite is checked).
    ///   - sqlitePath: The SQLite database.
    ///   - commits: What was written (any order across writers; per stream in order).
    ///   - comparePositions: Whether positions must agree (not with concurrent writers, which interleave freely).
    /// - Returns: A one-line summary.
    /// - Throws: ``Failure`` naming the first difference, or a store error.
    static func run(oursPath: String?, sqlitePath: String, commits: [[WorkloadCommit]], comparePositions: Bool)
        async throws -> String
    {
        var expectedCount = 0
        var last: [Int: WorkloadEvent] = [:]
        var eventsPerStream: [Int: Int] = [:]
        for writer in commits {
            for commit in writer {
                expectedCount += commit.events.count
                for e in commit.events {
                    last[e.streamIndex] = e
                    eventsPerStream[e.streamIndex, default: 0] += 1
                }
            }
        }
        let indexes = last.keys.sorted()
        var sample: [Int] = []
        let step = max(1, indexes.count / sampleSize)
        for i in stride(from: 0, to: indexes.count, by: step) { sample.append(indexes[i]) }
        if let hottest = eventsPerStream.max(by: { $0.value < $1.value })?.key, !sample.contains(hottest) {
            sample.append(hottest)
        }

        let table = try SQLiteEventTable(path: sqlitePath, create: false)
        let sqliteCount = try table.count()
        guard sqliteCount == expectedCount else {
            throw Failure(description: "SQLite holds \(sqliteCount) events, the workload wrote \(expectedCount)")
        }
        let store = try oursPath.map { try FileEventStore.open(path: $0) }
        if let store {
            let oursCount = try await store.lastPosition().map { Int($0) + 1 } ?? 0
            guard oursCount == expectedCount else {
                throw Failure(description: "our store holds \(oursCount) events (by last position), the workload wrote \(expectedCount)")
            }
        }
        for index in sample {
            guard let expected = last[index] else { continue }
            guard let theirs = try table.lastEvent(of: expected.stream) else {
                throw Failure(description: "SQLite has no event in stream \(expected.stream)")
            }
            try compare(theirs, expected, store: "SQLite")
            guard let store else { continue }
            let page = try await store.read(ReadRequest(source: .stream(expected.stream), direction: .backward, limit: 1))
            guard let ours = page.events.first else {
                throw Failure(description: "our store has no event in stream \(expected.stream)")
            }
            try compare(ours, expected, store: "our store")
            if comparePositions && ours.position != theirs.position {
                throw Failure(
                    description: "last event of \(expected.stream) is at position \(ours.position) in our store, \(theirs.position) in SQLite")
            }
        }
        let scope = store == nil ? "SQLite only: our store failed" : "both stores"
        return "ok (\(scope): \(expectedCount) events, last event of \(sample.count) streams identical)"
    }

    private static func compare(_ recorded: RecordedEvent, _ expected: WorkloadEvent, store: String) throws {
        guard recorded.stream == expected.stream, recorded.version == expected.version,
            recorded.hasSameContent(as: expected.event)
        else {
            throw Failure(
                description: "\(store): last event of \(expected.stream) is \(recorded.type) \(recorded.id) at version \(recorded.version) "
                    + "(\(recorded.data.count) data bytes, metadata \(recorded.metadata.dictionary)); the workload wrote "
                    + "\(expected.event.type) \(expected.event.id) at version \(expected.version) (\(expected.event.data.count) bytes)")
        }
    }
}
