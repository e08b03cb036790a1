import EventLog
import Foundation

/// Appends committed together in one transaction: planned in order under the append lock, each seeing the versions
/// and ids of those before it, then written with one insert and one COMMIT. Each append keeps its own outcome; one
/// refused on a version or an id is run again alone after the group, with the committed events looked up (it may be
/// the retry of an append committed before), and any failure of the group's own write sends every append of it
/// down that path.
struct PostgresAppendGroup {
    let requests: [AppendRequest]
    let schema: String

    /// The head row, locked: the next position, the last time, and the server's clock.
    struct Head {
        var next: Int64
        var last: Int64
        var now: Int64
    }

    /// Commits the group and returns each append's outcome.
    ///
    /// - Parameters:
    ///   - c: The session's connection.
    ///   - connect: The session's connection again, after a failure (a new one when it broke).
    func commit(_ c: PostgresConnection, connect: () throws -> PostgresConnection) -> [Result<AppendResult, any Error>] {
        let planned: [Result<AppendResult, any Error>?]
        do {
            planned = try transaction(c)
        } catch {
            // A lost connection, or an id the insert's unique index refused: each append alone, retried by its ids.
            return requests.map { r in Result { try PostgresEventStore.appendAlone(r, schema: schema, connect: connect) } }
        }
        return zip(requests, planned).map { r, outcome in
            outcome ?? Result { try PostgresEventStore.appendAlone(r, schema: schema, connect: connect) }
        }
    }

    /// The group's transaction: each append's outcome, `nil` for one to run again alone.
    private func transaction(_ c: PostgresConnection) throws -> [Result<AppendResult, any Error>?] {
        do {
            let (head, stored) = try Self.lockHead(versionsOf: requests, c)
            var versions: [String: UInt64] = [:]
            var written: [UUID: (index: Int, position: UInt64)] = [:]
            var events: [AppendPlanner.PlannedEvent] = []
            var outcomes: [Result<AppendResult, any Error>?] = []
            let at = Timestamp(microsecondsSinceEpoch: max(head.now, head.last))
            for request in requests {
                do {
                    let outcome = try AppendPlanner.plan(
                        request,
                        currentVersion: { s in versions[s.rawValue] ?? stored[s.rawValue] },
                        committedEvent: { id in
                            guard let w = written[id] else { return nil }
                            let e = events[w.index]
                            return RecordedEvent(
                                position: w.position, stream: e.stream, version: e.version, type: e.event.type, id: e.event.id,
                                recordedAt: at, metadata: e.event.metadata, data: e.event.data)
                        })
                    switch outcome {
                    case .alreadyCommitted(let result):
                        outcomes.append(.success(result))
                    case .write(let planned, let streams):
                        guard !planned.isEmpty else {
                            outcomes.append(.success(AppendResult(firstPosition: nil, lastPosition: nil, streams: streams)))
                            continue
                        }
                        let first = UInt64(head.next) + UInt64(events.count)
                        for (i, e) in planned.enumerated() {
                            versions[e.stream.rawValue] = e.version
                            written[e.event.id] = (events.count + i, first + UInt64(i))
                        }
                        events.append(contentsOf: planned)
                        outcomes.append(.success(AppendResult(firstPosition: first, lastPosition: first + UInt64(planned.count) - 1, streams: streams)))
                    }
                } catch let e as EventStoreError where e.code == .wrongExpectedVersion || e.code == .idempotencyConflict {
                    outcomes.append(nil)
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            if events.isEmpty {
                try c.execute("ROLLBACK")
            } else {
                try Self.write(events, head: head, schema: schema, c)
            }
            return outcomes
        } catch {
            if c.isUsable { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    /// Begins a transaction, takes the append lock in a statement of its own (sent with BEGIN: every statement after
    /// it sees every commit before it), and reads the current version of every stream the appends name (written or
    /// expected), by name: one round trip where the wire client serves the connection.
    static func lockHead(versionsOf requests: [AppendRequest], _ c: PostgresConnection) throws -> (Head, [String: UInt64]) {
        var names = Set<String>()
        for r in requests {
            for e in r.entries { names.insert(e.stream.rawValue) }
            for x in r.expectations { names.insert(x.stream.rawValue) }
        }
        let results = try c.pipeline([
            .simple("BEGIN; SELECT next_position, last_recorded_at, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint FROM head FOR UPDATE"),
            .query(versionsQuery, [.textArray(Array(names))]),
        ])
        let (head, rows) = (results[0], results[1])
        guard let next = head.textInt64(0, 0), let last = head.textInt64(0, 1), let now = head.textInt64(0, 2) else {
            throw EventStoreError.corrupted(location: "table head", offset: nil, reason: "the head row is missing")
        }
        var versions: [String: UInt64] = [:]
        for i in 0..<rows.count { versions[rows.string(i, 0)] = rows.int64(i, 1).map(UInt64.init) }
        return (Head(next: next, last: last, now: now), versions)
    }

    /// Each named stream's version (`NULL` for none): one backward probe of the (stream, version) index a stream. A
    /// `max(version) ... WHERE stream_id = ANY(...) GROUP BY` reads every version of the streams instead, a cost that
    /// grows with their history (6.4 ms against 0.1 ms for an inventory stream of 18,000 events).
    static let versionsQuery = """
        SELECT s.stream_id, (SELECT e.version FROM events e WHERE e.stream_id = s.stream_id ORDER BY e.version DESC LIMIT 1)
          FROM unnest($1::text[]) AS s(stream_id)
        """

    /// The fewest events written through COPY rather than one INSERT of arrays.
    static let copyThreshold = 256

    /// Writes planned events at the head's next positions, moves the head, and commits with a wake-up for followers
    /// (delivered at COMMIT, and only then), the statements sent together.
    static func write(_ planned: [AppendPlanner.PlannedEvent], head: Head, schema: String, _ c: PostgresConnection) throws {
        // Times never decrease along the log, whatever the server's clock does.
        let at = max(head.now, head.last)
        let runs = PostgresEventRuns(count: planned.count, stream: { planned[$0].stream }, recordedAt: { _ in at })
        let notifyAndCommit = "SELECT pg_notify(\(PostgresConnection.literal(PostgresConnection.channel(schema))), ''); COMMIT"
        if planned.count >= copyThreshold {
            var rows = PostgresCopyRows(capacity: planned.reduce(0) { $0 + $1.event.data.count + $1.event.metadata.encoded.count + 120 })
            for (i, e) in planned.enumerated() {
                rows.event(
                    position: head.next + Int64(i), stream: e.stream, version: e.version, id: e.event.id, type: e.event.type,
                    recordedAt: at, metadata: e.event.metadata, data: e.event.data, run: runs.starts[i])
            }
            _ = try c.pipeline([
                .copy(PostgresCopyRows.copyEvents, rows),
                .simple("UPDATE head SET next_position = \(head.next + Int64(planned.count)), last_recorded_at = \(at); " + notifyAndCommit),
            ])
        } else {
            _ = try c.pipeline([
                .query(
                    """
                    WITH written AS (
                      INSERT INTO events (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data, run_category, run_length)
                      SELECT $1 + e.ord - 1, e.stream, e.version, e.id, e.type, $2, e.metadata, e.pairs, e.data,
                             CASE WHEN e.run_length > 0 THEN e.run_category END, NULLIF(e.run_length, 0)
                        FROM unnest($3::text[], $4::bigint[], $5::uuid[], $6::text[], $7::bytea[], $8::bigint[], $9::bytea[], $11::text[], $12::bigint[])
                             WITH ORDINALITY AS e(stream, version, id, type, metadata, pairs, data, run_category, run_length, ord)
                      RETURNING 1)
                    UPDATE head SET next_position = $1 + $10, last_recorded_at = $2
                    """,
                    [
                        .int8(head.next), .int8(at), .textArray(planned.map(\.stream.rawValue)), .int8Array(planned.map { Int64($0.version) }),
                        .uuidArray(planned.map(\.event.id)), .textArray(planned.map(\.event.type)),
                        .byteaArray(planned.map(\.event.metadata.encoded)), .int8Array(planned.map { Int64($0.event.metadata.count) }),
                        .byteaArray(planned.map(\.event.data)), .int8(Int64(planned.count)), .textArray(runs.categories), .int8Array(runs.lengths),
                    ]),
                .simple(notifyAndCommit),
            ])
        }
    }
}
