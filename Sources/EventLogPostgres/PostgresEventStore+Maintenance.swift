public import EventLog
import Foundation

/// What `log stats` and `log verify` mean on a server: the log's figures and sizes, and the checks of what the
/// store promises (gapless positions, gapless versions per stream, times that never decrease, the head in step, the
/// runs that reads by category and time use).
extension PostgresEventStore {
    /// The store's figures.
    public struct Stats: Sendable, Hashable {
        public var events: UInt64
        public var streams: UInt64
        public var firstRecordedAt: Timestamp?
        public var lastRecordedAt: Timestamp?
        /// The bytes of the events table, with its TOAST data.
        public var tableBytes: UInt64
        /// The bytes of its indexes.
        public var indexBytes: UInt64
        /// The bytes of the snapshots table and its indexes.
        public var snapshotBytes: UInt64
        public var schemaVersion: Int
    }

    /// What a check of the store found.
    public struct Check: Sendable, Hashable {
        /// The events checked.
        public var events: UInt64
        /// The streams checked.
        public var streams: UInt64
        /// Each problem, in words.
        public var problems: [String]

        public var isOK: Bool { problems.isEmpty }
    }

    /// The store's figures, from the server.
    ///
    /// - Returns: The figures.
    /// - Throws: ``EventStoreError``.
    public func stats() async throws -> Stats {
        try await run { c in
            let r = try c.query(
                """
                SELECT (SELECT next_position FROM head), (SELECT count(DISTINCT stream_id) FROM events),
                  (SELECT recorded_at FROM events ORDER BY position LIMIT 1), (SELECT recorded_at FROM events ORDER BY position DESC LIMIT 1),
                  pg_table_size('events'), pg_indexes_size('events'), pg_total_relation_size('snapshots'),
                  (SELECT max(version)::bigint FROM schema_version)
                """)
            return Stats(
                events: UInt64(r.int64(0, 0) ?? 0), streams: UInt64(r.int64(0, 1) ?? 0),
                firstRecordedAt: r.int64(0, 2).map(Timestamp.init(microsecondsSinceEpoch:)),
                lastRecordedAt: r.int64(0, 3).map(Timestamp.init(microsecondsSinceEpoch:)), tableBytes: UInt64(r.int64(0, 4) ?? 0),
                indexBytes: UInt64(r.int64(0, 5) ?? 0), snapshotBytes: UInt64(r.int64(0, 6) ?? 0), schemaVersion: Int(r.int64(0, 7) ?? 0))
        }
    }

    /// Checks what the store promises, in one snapshot of the database.
    ///
    /// - Returns: The events and streams checked, and each problem found.
    /// - Throws: ``EventStoreError`` when the checks cannot run.
    public func verify() async throws -> Check {
        try await run { c in
            try c.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { try? c.execute("ROLLBACK") }
            var problems: [String] = []
            let head = try c.query(
                "SELECT h.next_position, h.last_recorded_at, (SELECT count(*) FROM events), (SELECT min(position) FROM events), (SELECT max(position) FROM events), (SELECT max(recorded_at) FROM events) FROM head h"
            )
            let next = head.int64(0, 0) ?? -1
            let count = head.int64(0, 2) ?? 0
            if count != next { problems.append("the head says \(next) events, the events table holds \(count)") }
            if count > 0 {
                let (lo, hi) = (head.int64(0, 3) ?? -1, head.int64(0, 4) ?? -1)
                // Positions are unique (the primary key): count events from 0 to count - 1 have none missing.
                if lo != 0 || hi != count - 1 { problems.append("positions run from \(lo) to \(hi) for \(count) events: some are missing") }
                if let last = head.int64(0, 1), let newest = head.int64(0, 5), newest > last {
                    problems.append("an event is recorded at \(newest) µs, after the head's last commit time \(last)")
                }
            }
            let streams = try c.query(
                "SELECT stream_id, min(version), max(version), count(*) FROM events GROUP BY stream_id HAVING min(version) <> 0 OR max(version) <> count(*) - 1 LIMIT 20"
            )
            for i in 0..<streams.count {
                problems.append(
                    "stream '\(streams.string(i, 0))' holds \(streams.int64(i, 3) ?? 0) events at versions \(streams.int64(i, 1) ?? -1) to \(streams.int64(i, 2) ?? -1)")
            }
            let backwards = try c.query(
                "SELECT position, recorded_at, previous FROM (SELECT position, recorded_at, lag(recorded_at) OVER (ORDER BY position) AS previous FROM events) t WHERE recorded_at < previous LIMIT 20"
            )
            for i in 0..<backwards.count {
                problems.append("position \(backwards.int64(i, 0) ?? -1) is recorded before the event ahead of it")
            }
            problems += try Self.runProblems(c, count: count)
            let streamCount = try c.query("SELECT count(DISTINCT stream_id) FROM events").int64(0, 0) ?? 0
            return Check(events: UInt64(max(count, 0)), streams: UInt64(streamCount), problems: problems)
        }
    }

    /// The runs' problems: runs must tile the log (each ends where the next starts, the last at the end), and each
    /// event must have its run's time and a stream id in its run's category (the category, then `-` or the end).
    private static func runProblems(_ c: PostgresConnection, count: Int64) throws -> [String] {
        var problems: [String] = []
        let tiles = try c.query(
            """
            SELECT position, run_length, next FROM (
              SELECT position, run_length, coalesce(lead(position) OVER (ORDER BY position), $1) AS next FROM events WHERE run_length IS NOT NULL) r
             WHERE position + run_length <> next LIMIT 20
            """, [.int8(count)])
        for i in 0..<tiles.count {
            problems.append(
                "the run at position \(tiles.int64(i, 0) ?? -1) claims \(tiles.int64(i, 1) ?? -1) events, the next run starts at \(tiles.int64(i, 2) ?? -1)")
        }
        let members = try c.query(
            """
            WITH numbered AS (
              SELECT position, stream_id, recorded_at, run_category, run_length, count(run_length) OVER (ORDER BY position) AS run FROM events),
            placed AS (
              SELECT position, stream_id, recorded_at, run, first_value(run_category) OVER w AS category, first_value(recorded_at) OVER w AS at
                FROM numbered WINDOW w AS (PARTITION BY run ORDER BY position))
            SELECT position FROM placed
             WHERE run = 0 OR recorded_at <> at OR NOT (starts_with(stream_id, category)
               AND (length(stream_id) = length(category) OR substr(stream_id, length(category) + 1, 1) = '-'))
             LIMIT 20
            """)
        for i in 0..<members.count {
            problems.append("position \(members.int64(i, 0) ?? -1) is outside its run's category or time, or in no run")
        }
        return problems
    }
}
