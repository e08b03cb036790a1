import PawtrailJSON
import EventLog
import EventLogFile
import EventLogPostgres

/// `pawtrail log verify`: checks every checksum, index entry and position of the store.
enum LogVerifyCommand {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check every checksum, index entry and position; exit 1 when a problem is found.",
        options: [.flag("json", help: "Print the report as JSON.")],
        run: run)

    /// The report as JSON: `{"ok":..,"segments":..,"events":..,"indexEntries":..,"problems":[..]}`.
    static func json(_ report: VerifyReport) -> JSONValue {
        .object([
            "ok": .bool(report.isOK),
            "segments": .int(Int64(report.segments)),
            "events": .uint(report.events),
            "indexEntries": .uint(report.indexEntries),
            "problems": .array(
                report.problems.map { p in
                    .object(["file": .string(p.file), "offset": .uint(p.offset), "message": .string(p.message)])
                }),
        ])
    }

    /// The report as lines of text.
    static func lines(_ report: VerifyReport) -> [String] {
        let checked = "\(report.segments) segment\(report.segments == 1 ? "" : "s"), \(report.events) events, "
            + "\(report.indexEntries) index entries"
        if report.isOK { return ["OK: \(checked) checked."] }
        let n = report.problems.count
        return ["Found \(n) problem\(n == 1 ? "" : "s") (\(checked) checked):"] + report.problems.map { "  \($0)" }
    }

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let report: VerifyReport
        do {
            let store = try context.openStore(.read)
            if let server = store.backend as? PostgresEventStore { return try await PostgresLogReports.verify(server, context) }
            report = try context.maintenance(of: store).verify()
        } catch let error as EventStoreError {
            // Damage that keeps the store from opening is a problem to report like any other.
            guard error.code == .corrupted, let offline = context.offlineMaintenance,
                let files = try? offline.verifyWithoutOpening(location: context.storePath),
                !files.isOK
            else { throw error }
            report = files
        }
        if context.wantsJSON {
            context.out(json(report))
        } else {
            lines(report).forEach(context.out)
        }
        return report.isOK ? .success : .failure
    }
}
