import EventLog
import EventLogFile
import Foundation

/// `pawtrail-bench layout`: compacted blocks laid out by columns against blocks of rows, on the workload.
enum LayoutCommand {
    static func run(_ options: BenchOptions) -> Int32 {
        var workload = Workload(seed: options.seed, skew: options.skew)
        let events = workload.commits(events: options.events, perCommit: options.perCommit).flatMap(\.events)
            .map { (stream: $0.stream, version: $0.version, event: $0.event) }
        do {
            let m = try ColumnarLayoutMeasurement.measure(
                events, commitSize: options.perCommit, blockSize: options.blockSize, level: options.level)
            func f(_ x: Double) -> String { String(format: "%.1f", x) }
            print("\(m.events) events in \(m.blocks) blocks of \(options.blockSize) bytes of rows, commits of \(options.perCommit), zstd level \(options.level):\n")
            print("| layout | bytes an event | stored (ns an event) | read back | laid out (split and check) | rows rebuilt |")
            print("|---|---|---|---|---|---|")
            print("| rows, one zstd frame | \(f(m.rowBytesPerEvent)) | \(f(m.compressRowsNanoseconds)) | \(f(m.decompressRowsNanoseconds)) | — | — |")
            print("| columns in group order, one zstd frame | \(f(m.oneFrameColumnarBytesPerEvent)) | | | | |")
            print("| columns, groups compressed apart (format 3) | \(f(m.columnarBytesPerEvent)) | \(f(m.storeColumnsNanoseconds)) | \(f(m.loadColumnsNanoseconds)) | \(f(m.encodeColumnsNanoseconds)) | \(f(m.decodeColumnsNanoseconds)) |")
            print("\nA commit of \(options.perCommit) events stored as the committer stores it (zstd level 1, two threads), median wall time: rows \(f(m.commitRowsMicroseconds)) µs, by columns \(f(m.commitColumnsMicroseconds)) µs; read back (one thread): rows \(f(m.commitRowsReadMicroseconds)) µs, by columns \(f(m.commitColumnsReadMicroseconds)) µs.")
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
