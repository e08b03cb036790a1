public import EventLog
import Foundation

/// Appends under the store's one lock, decided by ``AppendPlanner`` like every store's.
extension PostgresEventStore {
    public func append(_ request: AppendRequest) async throws -> AppendResult {
        let request = try AppendPlanner.validated(request)
        do {
            return try await session.run { [schema] c in try Self.append(request, schema: schema, c) }
        } catch PostgresFailure.connectionLost(let message) {
            // Committed or not, nobody can say: run it again with the same ids. The events are found committed
            // (the original result) or written once now.
            do {
                return try await session.run { [schema] c in try Self.append(request, schema: schema, c) }
            } catch let failure as PostgresFailure {
                throw EventStoreError.outcomeUnknown(
                    "the connection to PostgreSQL was lost while an append committed (\(message)), and retrying it failed: \(failure)")
            }
        } catch let failure as PostgresFailure {
            throw failure.storeError
        }
    }

    /// One append. It is first tried on the guess that none of its ids was committed before (nearly always so):
    /// the insert's unique index on event ids checks that guess, which saves looking every id up. When the guess
    /// fails (the index refuses an id), or the decision on it is a refusal, the append runs again with the
    /// committed events looked up, and that decision stands: an identical retry is then found already committed.
    private static func append(_ request: AppendRequest, schema: String, _ c: PostgresConnection) throws -> AppendResult {
        guard !request.entries.isEmpty else { return try transaction(request, schema: schema, lookUpIDs: true, c) }
        do {
            return try transaction(request, schema: schema, lookUpIDs: false, c)
        } catch let e as EventStoreError where e.code == .wrongExpectedVersion || e.code == .idempotencyConflict {
            return try transaction(request, schema: schema, lookUpIDs: true, c)
        } catch PostgresFailure.statement(let state, _) where state == "23505" {
            return try transaction(request, schema: schema, lookUpIDs: true, c)
        }
    }

    /// One append in one transaction.
    private static func transaction(_ request: AppendRequest, schema: String, lookUpIDs: Bool, _ c: PostgresConnection) throws -> AppendResult {
        do {
            return try appendLocked(request, schema: schema, lookUpIDs: lookUpIDs, c)
        } catch {
            if c.isUsable { try? c.execute("ROLLBACK") }
            throw error
        }
    }

    private static func appendLocked(_ request: AppendRequest, schema: String, lookUpIDs: Bool, _ c: PostgresConnection) throws -> AppendResult {
        // The lock first, in a statement of its own (sent with BEGIN in one round trip): every statement after it
        // sees every commit before it.
        let head = try c.simpleQuery(
            "BEGIN; SELECT next_position, last_recorded_at, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint FROM head FOR UPDATE")
        guard let next = head.textInt64(0, 0), let last = head.textInt64(0, 1), let now = head.textInt64(0, 2) else {
            throw EventStoreError.corrupted(location: "table head", offset: nil, reason: "the head row is missing")
        }
        var names = Set<String>()
        for e in request.entries { names.insert(e.stream.rawValue) }
        for x in request.expectations { names.insert(x.stream.rawValue) }
        var versions: [String: UInt64] = [:]
        let rows = try c.query(
            "SELECT stream_id, max(version) FROM events WHERE stream_id = ANY($1) GROUP BY stream_id", [.textArray(Array(names))])
        for i in 0..<rows.count { versions[rows.string(i, 0)] = rows.int64(i, 1).map(UInt64.init) }
        var committed: [UUID: RecordedEvent] = [:]
        if lookUpIDs, !request.entries.isEmpty {
            let found = try c.query(
                "SELECT \(columns) FROM events WHERE event_id = ANY($1)", [.uuidArray(request.entries.map(\.event.id))])
            for i in 0..<found.count {
                let e = try event(found, i)
                committed[e.id] = e
            }
        }
        let outcome = try AppendPlanner.plan(
            request, currentVersion: { versions[$0.rawValue] }, committedEvent: { committed[$0] })
        switch outcome {
        case .alreadyCommitted(let result):
            try c.execute("ROLLBACK")
            return result
        case .write(let planned, let streams):
            guard !planned.isEmpty else {
                try c.execute("ROLLBACK")
                return AppendResult(firstPosition: nil, lastPosition: nil, streams: streams)
            }
            // Times never decrease along the log, whatever the server's clock does.
            let at = max(now, last)
            let first = next
            _ = try c.query(
                """
                WITH written AS (
                  INSERT INTO events (position, stream_id, version, event_id, type, recorded_at, metadata, metadata_pairs, data)
                  SELECT $1 + e.ord - 1, e.stream, e.version, e.id, e.type, $2, e.metadata, e.pairs, e.data
                    FROM unnest($3::text[], $4::bigint[], $5::uuid[], $6::text[], $7::bytea[], $8::bigint[], $9::bytea[])
                         WITH ORDINALITY AS e(stream, version, id, type, metadata, pairs, data, ord)
                  RETURNING 1)
                UPDATE head SET next_position = $1 + $10, last_recorded_at = $2
                """,
                [
                    .int8(first), .int8(at), .textArray(planned.map(\.stream.rawValue)), .int8Array(planned.map { Int64($0.version) }),
                    .uuidArray(planned.map(\.event.id)), .textArray(planned.map(\.event.type)), .byteaArray(planned.map(\.event.metadata.encoded)),
                    .int8Array(planned.map { Int64($0.event.metadata.count) }), .byteaArray(planned.map(\.event.data)), .int8(Int64(planned.count)),
                ])
            // A wake-up hint for followers, delivered at COMMIT (and only then), sent with it.
            try c.execute("SELECT pg_notify(\(PostgresConnection.literal(PostgresConnection.channel(schema))), ''); COMMIT")
            return AppendResult(firstPosition: UInt64(first), lastPosition: UInt64(first) + UInt64(planned.count) - 1, streams: streams)
        }
    }
}
