import EventLogPostgres
import PawtrailJSON

/// `log stats` and `log verify` on a PostgreSQL store: the server's figures and checks, printed like the file
/// store's.
enum PostgresLogReports {
    /// Prints the store's figures.
    static func stats(_ store: PostgresEventStore, _ context: CommandContext) async throws -> ExitCode {
        let s = try await store.stats()
        let rows: [(key: String, label: String, value: JSONValue)] = [
            ("store", "store", .string(store.location)),
            ("schemaVersion", "schema version", .int(Int64(s.schemaVersion))),
            ("events", "events", .uint(s.events)),
            ("streams", "streams", .uint(s.streams)),
            ("firstPosition", "first position", s.events > 0 ? .uint(0) : .null),
            ("lastPosition", "last position", s.events > 0 ? .uint(s.events - 1) : .null),
            ("firstRecordedAt", "first recorded at", .string(s.firstRecordedAt?.iso8601)),
            ("lastRecordedAt", "last recorded at", .string(s.lastRecordedAt?.iso8601)),
            ("tableBytes", "table bytes", .uint(s.tableBytes)),
            ("indexBytes", "index bytes", .uint(s.indexBytes)),
            ("snapshotBytes", "snapshot bytes", .uint(s.snapshotBytes)),
        ]
        if context.wantsJSON {
            context.out(.object(rows.map { JSONValue.Pair(key: $0.key, value: $0.value) }))
        } else {
            let width = rows.map(\.label.count).max() ?? 0
            for row in rows {
                let value: String
                switch row.value {
                case .null: value = "-"
                case .string(let text): value = text
                default: value = row.value.serialized
                }
                context.out(row.label + ":" + String(repeating: " ", count: width - row.label.count + 1) + value)
            }
        }
        return .success
    }

    /// Checks the store and prints what was found; exit 1 on a problem.
    static func verify(_ store: PostgresEventStore, _ context: CommandContext) async throws -> ExitCode {
        let check = try await store.verify()
        if context.wantsJSON {
            context.out(
                .object([
                    "ok": .bool(check.isOK), "events": .uint(check.events), "streams": .uint(check.streams),
                    "problems": .array(check.problems.map { .object(["message": .string($0)]) }),
                ]))
        } else {
            let checked = "\(check.events) events in \(check.streams) streams: positions, stream versions, times and the head"
            if check.isOK {
                context.out("OK: \(checked) checked.")
            } else {
                context.out("Found \(check.problems.count) problem\(check.problems.count == 1 ? "" : "s") (\(checked) checked):")
                check.problems.forEach { context.out("  \($0)") }
            }
        }
        return check.isOK ? .success : .failure
    }
}
