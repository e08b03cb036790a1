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
    /// Compressed bytes an event: blocks of rows (zstd at the level given, no dictionary), and blocks by columns as
    /// compaction stores them (``ColumnarParts``: each group of columns compressed on its own at that level).
    public var rowBytesPerEvent: Double
    public var columnarBytesPerEvent: Double
    /// Blocks by columns compressed as one zstd frame (format 2's way), for comparison.
    public var oneFrameColumnarBytesPerEvent: Double
    /// Per column kind, the bytes an event when each column is compressed on its own (where the bytes go).
    public var columnBytesPerEvent: [(kind: String, bytes: Double)]
    /// Nanoseconds an event, the best of several passes over every block: zstd compression and decompression of rows;
    /// laying them out by columns (the split and its check) and rebuilding the rows from the columns; and the whole of
    /// storing by columns (split, check, compression by groups) and of reading it back (decompression, rebuild).
    public var compressRowsNanoseconds: Double
    public var decompressRowsNanoseconds: Double
    public var encodeColumnsNanoseconds: Double
    public var decodeColumnsNanoseconds: Double
    public var storeColumnsNanoseconds: Double
    public var loadColumnsNanoseconds: Double
    /// Microseconds to store one commit of `commitSize` events as the committer does (zstd level 1, a helper context
    /// on a second thread): as rows, and by columns (``ColumnarParts``, in two parts from 256 KiB). Wall time, the
    /// median over the workload's commits.
    public var commitRowsMicroseconds: Double
    public var commitColumnsMicroseconds: Double
    /// Microseconds to read such a commit back into its rows (one thread), rows and by columns; the median.
    public var commitRowsReadMicroseconds: Double
    public var commitColumnsReadMicroseconds: Double

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
        var blocks: [(rows: [UInt8], commits: Int, events: Int)] = []
        var i = 0
        while i < events.count {
            var rows: [UInt8] = []
            var commits = 0
            let first = i
            while rows.count < blockSize, i < events.count {
                let end = min(i + commitSize, events.count)
                rows += CommitCodec.encodeCommit(events[i..<end].map { AppendPlanner.PlannedEvent(stream: $0.stream, version: $0.version, event: $0.event) })
                commits += 1
                i = end
            }
            blocks.append((rows, commits, i - first))
        }
        let compressor = ZstdCompressor()
        let decompressor = ZstdDecompressor()
        var rowFrames: [[UInt8]] = []
        var columnar: [[UInt8]] = []
        var columnarFrames: [[UInt8]] = []
        var oneFrameBytes = 0
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
            oneFrameBytes += cz.count
            guard let stored = try block.rows.withUnsafeBytes({
                try ColumnarParts.store($0, commitCount: block.commits, parts: 1, compressor: compressor, helper: nil, level: level)
            }) else {
                throw ByteReaderError(reason: "a block of the workload does not lay out by columns", offset: 0)
            }
            columnarFrames.append(stored)
            for (kind, bytes) in try c.withUnsafeBytes({ try ColumnarDecoder($0).columns() }) {
                var one: [UInt8] = []
                try compressor.compress(bytes, level: level, dictionary: nil, appendingTo: &one)
                kinds[kind, default: 0] += min(one.count, bytes.count)
            }
        }
        let n = Double(events.count)
        func best(_ passes: Int = 5, _ body: () throws -> Void) rethrows -> Double {
            var fastest = Double.infinity
            for _ in 0..<passes {
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
        let load = try best {
            for (j, stored) in columnarFrames.enumerated() {
                try stored.withUnsafeBytes {
                    try ColumnarParts.decode(
                        $0, commitCount: blocks[j].commits, eventCount: blocks[j].events, rawLength: blocks[j].rows.count, decompressor: decompressor,
                        into: &buffer)
                }
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
        var scratch: [UInt8] = []
        let compressRows = try best(3) {
            for block in blocks {
                scratch.removeAll(keepingCapacity: true)
                try block.rows.withUnsafeBytes { try compressor.compress($0, level: level, dictionary: nil, appendingTo: &scratch) }
            }
        }
        let store = try best(3) {
            for block in blocks {
                _ = try block.rows.withUnsafeBytes {
                    try ColumnarParts.store($0, commitCount: block.commits, parts: 1, compressor: compressor, helper: nil, level: level)
                }
            }
        }
        let helper = ZstdCompressor()
        let noDictionaries = DictionarySet(directory: "/nonexistent", commitLevel: 1, blockLevel: 6)
        var rowsTimes: [Double] = []
        var columnsTimes: [Double] = []
        var rowsReads: [Double] = []
        var columnsReads: [Double] = []
        var c = 0
        while c < events.count {
            let c0 = c
            let end = min(c + commitSize, events.count)
            let payload = CommitCodec.encodeCommit(events[c..<end].map { AppendPlanner.PlannedEvent(stream: $0.stream, version: $0.version, event: $0.event) })
            c = end
            for columnar in [false, true] {
                let start = DispatchTime.now().uptimeNanoseconds
                let stored = try FrameIO.storeCommit(payload, underLoad: false, compressor: compressor, level: 1, dictionary: { nil }, helper: helper, columnar: columnar)
                let t = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
                if columnar { columnsTimes.append(t) } else { rowsTimes.append(t) }
                var frame: [UInt8] = []
                let header = FrameIO.encode(
                    type: .commit, firstPosition: 0, eventCount: end - c0, commitCount: 1, firstRecordedAt: Timestamp(microsecondsSinceEpoch: 0),
                    lastRecordedAt: Timestamp(microsecondsSinceEpoch: 0), stored: stored, into: &frame)
                let read = try frame.withUnsafeBytes { raw in
                    let body = UnsafeRawBufferPointer(rebasing: raw[4..<(raw.count - 4)])
                    let start = DispatchTime.now().uptimeNanoseconds
                    try FrameIO.payload(of: body, header: header, decompressor: decompressor, dictionaries: noDictionaries, into: &buffer)
                    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
                }
                if columnar { columnsReads.append(read) } else { rowsReads.append(read) }
            }
        }
        func median(_ x: [Double]) -> Double { x.isEmpty ? 0 : x.sorted()[x.count / 2] }
        return ColumnarLayoutMeasurement(
            events: events.count, blocks: blocks.count,
            rowBytesPerEvent: Double(rowFrames.reduce(0) { $0 + $1.count }) / n,
            columnarBytesPerEvent: Double(columnarFrames.reduce(0) { $0 + $1.count }) / n,
            oneFrameColumnarBytesPerEvent: Double(oneFrameBytes) / n,
            columnBytesPerEvent: kinds.map { ($0.key, Double($0.value) / n) }.sorted { $0.bytes > $1.bytes },
            compressRowsNanoseconds: compressRows, decompressRowsNanoseconds: decompressRows, encodeColumnsNanoseconds: encode,
            decodeColumnsNanoseconds: decode, storeColumnsNanoseconds: store, loadColumnsNanoseconds: load,
            commitRowsMicroseconds: median(rowsTimes), commitColumnsMicroseconds: median(columnsTimes),
            commitRowsReadMicroseconds: median(rowsReads), commitColumnsReadMicroseconds: median(columnsReads))
    }
}
