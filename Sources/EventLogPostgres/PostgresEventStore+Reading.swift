public import EventLog
import Foundation

/// Reads by stream, category or the whole log, forward or backward, with the cursor semantics every store shares:
/// `next` is the first event not examined, whether or not it would pass the filters.
extension PostgresEventStore {
    static let columns = "position, stream_id, version, type, event_id, recorded_at, metadata, metadata_pairs, data"

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
            conditions.append("category = \(parameter(.text(c)))")
            cursor = "position"
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
        let sql = "SELECT \(Self.columns) FROM events \(filter) ORDER BY \(cursor) \(forward ? "ASC" : "DESC") LIMIT \(request.limit)"
        let source = request.source
        let limit = request.limit
        let values = parameters
        return try await run { c in
            let rows = try c.query(sql, values)
            var events: [RecordedEvent] = []
            events.reserveCapacity(rows.count)
            for i in 0..<rows.count { events.append(try Self.event(rows, i)) }
            guard events.count == limit, let last = events.last else { return ReadBatch(events: events, next: nil) }
            return ReadBatch(events: events, next: try Self.cursor(after: last, source: source, forward: forward, c))
        }
    }

    /// The cursor of the event after `last` in the source's order, examined or not; `nil` at the end.
    private static func cursor(after last: RecordedEvent, source: ReadSource, forward: Bool, _ c: PostgresConnection) throws -> UInt64? {
        switch source {
        case .stream(let id):
            // A stream's versions have no gaps.
            if !forward { return last.version == 0 ? nil : last.version - 1 }
            let version = try c.query("SELECT max(version) FROM events WHERE stream_id = $1", [.text(id.rawValue)]).int64(0, 0)
            return version.map { UInt64($0) > last.version ? last.version + 1 : nil } ?? nil
        case .all, .category:
            // Positions have no gaps, and a category's cursor runs over the whole log.
            if !forward { return last.position == 0 ? nil : last.position - 1 }
            let next = try c.query("SELECT next_position FROM head").int64(0, 0) ?? 0
            return UInt64(next) > last.position + 1 ? last.position + 1 : nil
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
