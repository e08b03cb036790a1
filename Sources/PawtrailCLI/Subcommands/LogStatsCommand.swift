import PawtrailJSON
import EventLog
import EventLogFile
import EventLogPostgres
import Foundation

/// `pawtrail log stats`: size and content figures of the store.
enum LogStatsCommand {
    static let spec = CommandSpec(
        name: "stats",
        abstract: "Print the store's size and content figures.",
        options: [.flag("json", help: "Print the figures as JSON.")],
        run: run)

    /// `rawBytes` per byte on disk (preallocated space left out) rounded to 2 decimals, as JSON number text;
    /// `nil` for an empty store.
    static func compressionRatio(_ stats: LogStats) -> String? {
        stats.compressionRatio.map { String(format: "%.2f", $0) }
    }

    /// The figures, in the order both outputs show them: (JSON key, human label, JSON value).
    static func fields(_ s: LogStats) -> [(key: String, label: String, value: JSONValue)] {
        [
            ("segments", "segments", .int(Int64(s.segments))),
            ("compactedSegments", "compacted segments", .int(Int64(s.compactedSegments))),
            ("events", "events", .uint(s.events)),
            ("streams", "streams", .uint(s.streams)),
            ("firstPosition", "first position", .uint(s.firstPosition)),
            ("lastPosition", "last position", .uint(s.lastPosition)),
            ("firstRecordedAt", "first recorded at", .string(s.firstRecordedAt?.iso8601)),
            ("lastRecordedAt", "last recorded at", .string(s.lastRecordedAt?.iso8601)),
            ("rawBytes", "raw bytes", .uint(s.rawBytes)),
            ("diskBytes", "disk bytes", .uint(s.diskBytes)),
            ("segmentBytes", "segment bytes", .uint(s.segmentBytes)),
            ("indexBytes", "index bytes", .uint(s.indexBytes)),
            ("indexRuns", "index runs", .int(Int64(s.indexRuns))),
            ("indexedSegments", "indexed segments", .int(Int64(s.indexedSegments))),
            ("preallocatedBytes", "preallocated bytes", .uint(s.preallocatedBytes)),
            ("dictionaries", "dictionaries", .int(Int64(s.dictionaries))),
            ("compressionRatio", "compression ratio", compressionRatio(s).map { .raw(Array($0.utf8)) } ?? .null),
        ]
    }

    /// The figures as one JSON object.
    static func json(_ stats: LogStats) -> JSONValue {
        .object(fields(stats).map { JSONValue.Pair(key: $0.key, value: $0.value) })
    }

    /// The figures as aligned `label: value` lines.
    static func lines(_ stats: LogStats) -> [String] {
        let rows = fields(stats)
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { row in
            let value: String
            switch row.value {
            case .null: value = "-"
            case .string(let s): value = s
            default: value = row.value.serialized
            }
            return row.label + ":" + String(repeating: " ", count: width - row.label.count + 1) + value
        }
    }

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let store = try context.openStore(.read)
        if let server = store.backend as? PostgresEventStore { return try await PostgresLogReports.stats(server, context) }
        let stats = try context.maintenance(of: store).stats()
        if context.wantsJSON {
            context.out(json(stats))
        } else {
            lines(stats).forEach(context.out)
        }
        return .success
    }
}
