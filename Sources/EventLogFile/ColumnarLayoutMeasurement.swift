import EventLog
import Foundation
import PawtrailIO

/// What laying compacted blocks out by columns (``ColumnarPayload``) gains and costs on a given list of events:
/// the measurement behind `pawtrail-bench layout`, public so that the benchmark tool can run it on the workload.
public struct ColumnarLayoutMeasurement: Sendable {
    /// The events measured.
    public var events: Int
    /// Blocks of about `blockSize` bytes of rows, as compaction makes them.
    public var blocks: Int
    /// Compressed bytes an event: blocks of rows, and blocks by columns (zstd at the level given, no dictionary).
    public var rowBytesPerEvent: Double
    public var columnarBytesPerEvent: Double
    /// Per column kind, the bytes an event when each column is compressed on its own (where the bytes go).
    public var columnBytesPerEvent: [(kind: String, bytes: Double)]
    /// Nanoseconds an event, the best of five passes over every block: zstd decompression of rows and of columns,
    /// rebuilding the rows from the columns, and laying them out by columns (the split and its check).
    public var decompressRowsNanoseconds: Double
    public var decompressColumnsNanoseconds: Double
    public var decodeColumnsNanoseconds: Double
    public var encodeColumnsNanoseconds: Double

    /// Measures the layout on events as commits of `commitSize`, grouped into blocks of whole commits.
    ///
    /// - Parameters:
    ///   - events: The events, each with its stream and version.
    ///   - commitSize: Events a commit.
    ///   - blockSize: Bytes of rows a block holds at least (compaction's default is 1 MiB).
    ///   - level: The zstd level (compaction's default is 6).
    /// - Returns: The measurement.
    /// - Throws: ``ZstdError``, or ``ByteReaderError`` if a block does not decode (a bug).
    public static func measure(
        _ events: [(stream: StreamID, version: UInt64, event: ProposedEvent)], commitSize: Int = 1000,
        blockSize: Int = 1 << 20, level: Int32 = 6
    ) throws -> ColumnarLayoutMeasurement {
        var blocks: [(rows: [UInt8], commits: Int)] = []
        var i = 0
        while i < events.count {
            var rows: [UInt8] = []
            var commits = 0
            while rows.count < blockSize, i < events.count {
                let end = min(i + commitSize, events.count)
                rows += CommitCodec.encodeCommit(events[i..<end].map { AppendPlanner.PlannedEvent(stream: $0.stream, version: $0.version, event: $0.event) })
                commits += 1
                i = end
            }
            blocks.append((rows, commits))
        }
        let compressor = ZstdCompressor()
        let decompressor = ZstdDecompressor()
        var rowFrames: [[UInt8]] = []
        var columnar: [[UInt8]] = []
        var columnarFrames: [[UInt8]] = []
        var kinds: [String: Int] = [:]
        for block in blocks {
            var z: [UInt8] = []
            try block.rows.withUnsafeBytes { try compressor.compress($0, level: level, dictionary: nil, appendingTo: &z) }
            rowFrames.append(z)
            guard let c = block.rows.withUnsafeBytes({ ColumnarPayload.encode($0, commitCount: block.commits) }) else {
                throw ByteReaderError(reason: "a block of the workload does not lay out by columns", offset: 0)
            }
            columnar.append(c)
            var cz: [UInt8] = []
            try c.withUnsafeBytes { try compressor.compress($0, level: level, dictionary: nil, appendingTo: &cz) }
            columnarFrames.append(cz)
            for (kind, bytes) in try c.withUnsafeBytes({ try ColumnarDecoder($0).columns() }) {
                var one: [UInt8] = []
                try compressor.compress(bytes, level: level, dictionary: nil, appendingTo: &one)
                kinds[kind, default: 0] += min(one.count, bytes.count)
            }
        }
        let n = Double(events.count)
        func best(_ body: () throws -> Void) rethrows -> Double {
            var fastest = Double.infinity
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                try body()
                fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start))
            }
            return fastest / n
        }
        var buffer: [UInt8] = []
        let decompressRows = try best {
            for (j, z) in rowFrames.enumerated() {
                try z.withUnsafeBytes { try decompressor.decompress($0, size: blocks[j].rows.count, dictionary: nil, into: &buffer) }
            }
        }
        let decompressColumns = try best {
            for (j, z) in columnarFrames.enumerated() {
                try z.withUnsafeBytes { try decompressor.decompress($0, size: columnar[j].count, dictionary: nil, into: &buffer) }
            }
        }
        let decode = try best {
            for (j, c) in columnar.enumerated() {
                try c.withUnsafeBytes {
                    try ColumnarPayload.decode($0, commitCount: blocks[j].commits, rawLength: blocks[j].rows.count, into: &buffer)
                }
            }
        }
        let encode = best {
            for block in blocks { _ = block.rows.withUnsafeBytes { ColumnarPayload.encode($0, commitCount: block.commits) } }
        }
        return ColumnarLayoutMeasurement(
            events: events.count, blocks: blocks.count,
            rowBytesPerEvent: Double(rowFrames.reduce(0) { $0 + $1.count }) / n,
            columnarBytesPerEvent: Double(columnarFrames.reduce(0) { $0 + $1.count }) / n,
            columnBytesPerEvent: kinds.map { ($0.key, Double($0.value) / n) }.sorted { $0.bytes > $1.bytes },
            decompressRowsNanoseconds: decompressRows, decompressColumnsNanoseconds: decompressColumns,
            decodeColumnsNanoseconds: decode, encodeColumnsNanoseconds: encode)
    }
}
