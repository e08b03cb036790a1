public import EventLog
import Foundation

/// Reads by stream, category or the whole log, forward or backward, with the cursor semantics every store shares:
/// `next` is the first event not examined, whether or not it would pass the filters.
extension PostgresEventStore {
    static let columns = "position, stream_id, version, type, event_id, recorded_at, metadata, metadata_pairs, data"
    /// ``columns`` of a subquery named `e`.
    static let columnsOfE = columns.split(separator: ", ").map { "e." + $0 }.joined(separator: ", ")
    /// How many ``columns`` there are: the index of a column after them.
    static let columnCount = 9

    public func read(_ request: ReadRequest) async throws -> ReadBatch {
        guard request.limit > 0 else { throw EventStoreError.invalidRequest("read limit must be at least 1") }
        let forward = request.direction == .forward
        var conditions: [String] = []
        var parameters: [PostgresValue] = []
        func parameter(_ v: PostgresValue) -> String {
            parameters.append(v)
            return "$\(parameters.count)"
        }
        let cursor: String
        switch request.source {
        case .stream(let id):
            conditions.append("stream_id = \(parameter(.text(id.rawValue)))")
            cursor = "version"
        case .category(let c):
            return try await readCategory(c, request)
        case .all:
            cursor = "position"
        }
        if let from = request.from {
            // A cursor past the largest bigint reads nothing forward and everything backward.
            if from > UInt64(Int64.max) {
                if forward { return ReadBatch(events: [], next: nil) }
            } else {
                conditions.append("\(cursor) \(forward ? ">=" : "<=") \(parameter(.int8(Int64(from))))")
            }
        }
        if let types = request.eventTypes {
            conditions.append("type = ANY(\(parameter(.textArray(types.sorted()))))")
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        // The last cursor the source has (a stream's last version, the log's next position) comes with the rows, as a
        // subquery the server runs once: `next` needs no second round trip.
        let top = if case .stream = request.source { "(SELECT max(version) FROM events WHERE stream_id = $1)" } else { "(SELECT next_position - 1 FROM head)" }
        let sql = "SELECT \(Self.columns), \(top) FROM events \(filter) ORDER BY \(cursor) \(forward ? "ASC" : "DESC") LIMIT \(request.limit)"
        let isStream = if case .stream = request.source { true } else { false }
        let limit = request.limit
        let values = parameters
        return try await run { c in try Self.batch(c.query(sql, values), limit: limit, cursorIsVersion: isStream, forward: forward) }
    }

    /// A read of a category: its runs in order, from the index of their first rows, and the events of each run in
    /// order, by position. The run that holds a forward read's cursor starts before it.
    private func readCategory(_ category: String, _ request: ReadRequest) async throws -> ReadBatch {
        let forward = request.direction == .forward
        // A cursor past the largest bigint reads nothing forward and everything backward.
        if forward, let f = request.from, f > UInt64(Int64.max) { return ReadBatch(events: [], next: nil) }
        let from = request.from.map { Int64(clamping: $0) } ?? (forward ? 0 : Int64.max)
        var parameters: [PostgresValue] = [.text(category), .int8(from)]
        var typeFilter = ""
        if let types = request.eventTypes {
            parameters.append(.textArray(types.sorted()))
            typeFilter = " AND x.type = ANY($3)"
        }
        let runs: String
        let inRun: String
        let order: String
        if forward {
            runs = """
                SELECT position, run_length FROM events WHERE run_category = $1 AND position >= coalesce(
                  (SELECT position FROM events WHERE run_category = $1 AND position <= $2 ORDER BY position DESC LIMIT 1), $2)
                 ORDER BY position
                """
            inRun = "x.position >= greatest(r.position, $2) AND x.position < r.position + r.run_length"
            order = "ASC"
        } else {
            runs = "SELECT position, run_length FROM events WHERE run_category = $1 AND position <= $2 ORDER BY position DESC"
            inRun = "x.position >= r.position AND x.position < r.position + r.run_length AND x.position <= $2"
            order = "DESC"
        }
        let sql = """
            SELECT \(Self.columnsOfE), (SELECT next_position - 1 FROM head) FROM (\(runs)) r
             CROSS JOIN LATERAL (SELECT \(Self.columns) FROM events x WHERE \(inRun)\(typeFilter) ORDER BY x.position \(order)) e
             ORDER BY r.position \(order), e.position \(order) LIMIT \(request.limit)
            """
        let limit = request.limit
        let values = parameters
        return try await run { c in try Self.batch(c.query(sql, values), limit: limit, cursorIsVersion: false, forward: forward) }
    }

    /// The batch of a read's rows: its events, and the cursor after them. Versions and positions have no gaps, and a
    /// category's cursor runs over the whole log: the next cursor is the one after the last event's, while the
    /// source has it (the last cursor it has comes with each row, in the column after ``columns``).
    private static func batch(_ rows: PostgresResult, limit: Int, cursorIsVersion: Bool, forward: Bool) throws -> ReadBatch {
        var events: [RecordedEvent] = []
        events.reserveCapacity(rows.count)
        for i in 0..<rows.count { events.append(try event(rows, i)) }
        guard events.count == limit, let last = events.last else { return ReadBatch(events: events, next: nil) }
        let at = cursorIsVersion ? last.version : last.position
        let next: UInt64?
        if forward {
            next = rows.int64(0, columnCount).map { $0 >= 0 && UInt64($0) > at ? at + 1 : nil } ?? nil
        } else {
            next = at == 0 ? nil : at - 1
        }
        return ReadBatch(events: events, next: next)
    }

    public func event(at position: UInt64) async throws -> RecordedEvent? {
        guard position <= UInt64(Int64.max) else { return nil }
        return try await run { c in
            let rows = try c.query("SELECT \(Self.columns) FROM events WHERE position = $1", [.int8(Int64(position))])
            return rows.count == 0 ? nil : try Self.event(rows, 0)
        }
    }

    public func event(withID id: UUID) async throws -> RecordedEvent? {
        try await run { c in
            let rows = try c.query("SELECT \(Self.columns) FROM events WHERE event_id = $1", [.uuid(id)])
            return rows.count == 0 ? nil : try Self.event(rows, 0)
        }
    }

    /// The event of a row of ``columns``.
    static func event(_ rows: PostgresResult, _ i: Int) throws -> RecordedEvent {
        guard let position = rows.int64(i, 0), let version = rows.int64(i, 2), let id = rows.uuid(i, 4), let at = rows.int64(i, 5),
            let pairs = rows.int32(i, 7)
        else { throw EventStoreError.corrupted(location: "table events", offset: nil, reason: "row \(i) of a read lacks a field") }
        return RecordedEvent(
            position: UInt64(position), stream: StreamID(unchecked: rows.string(i, 1)), version: UInt64(version), type: rows.string(i, 3),
            id: id, recordedAt: Timestamp(microsecondsSinceEpoch: at), metadata: EventMetadata(encoded: rows.array(i, 6), count: Int(pairs)),
            data: rows.array(i, 8))
    }
}
