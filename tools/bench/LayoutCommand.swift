import EventLog
import EventLogFile
import Foundation

/// `pawtrail-bench layout`: compacted blocks laid out by columns against blocks of rows, on the workload.
enum LayoutCommand {
    static func run(_ options: BenchOptions) -> Int32 {
        var workload = Workload(seed: options.seed)
        let events = workload.commits(events: options.events, perCommit: options.perCommit).flatMap(\.events)
            .map { (stream: $0.stream, version: $0.version, event: $0.event) }
        do {
            let m = try ColumnarLayoutMeasurement.measure(events, commitSize: options.perCommit)
            func f(_ x: Double) -> String { String(format: "%.1f", x) }
            print("\(m.events) events in \(m.blocks) blocks of 1 MiB of rows, commits of \(options.perCommit), zstd level 6:\n")
            print("| layout | bytes an event | zstd decompression, ns an event | rows rebuilt, ns an event | laid out (split and check), ns an event |")
            print("|---|---|---|---|---|")
            print("| rows | \(f(m.rowBytesPerEvent)) | \(f(m.decompressRowsNanoseconds)) | — | — |")
            print("| columns | \(f(m.columnarBytesPerEvent)) | \(f(m.decompressColumnsNanoseconds)) | \(f(m.decodeColumnsNanoseconds)) | \(f(m.encodeColumnsNanoseconds)) |")
            print("\nWhere the columns' bytes go (each column compressed on its own, bytes an event):\n")
            print("| column | bytes an event |")
            print("|---|---|")
            for (kind, bytes) in m.columnBytesPerEvent where bytes >= 0.005 { print("| \(kind) | \(String(format: "%.2f", bytes)) |") }
            return 0
        } catch {
            FileHandle.standardError.write(Data("pawtrail-bench layout: \(error)\n".utf8))
            return 1
        }
    }
}
