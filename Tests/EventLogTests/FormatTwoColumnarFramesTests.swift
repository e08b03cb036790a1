@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// The frames a format 2 build wrote by columns (``FrameCodec/columnarZstd`` and ``FrameCodec/columnarZstdDictionary``:
/// layout version 1 in one zstd frame) still read back: this build no longer writes them, so nothing else reaches that
/// path, yet every block a format 2 build compacted is one.
@Suite struct FormatTwoColumnarFramesTests {
    /// A block of three commits of pet-care-like events, as compaction lays them out.
    private func block() -> [UInt8] {
        var w = ByteWriter()
        for (commit, (count, delta)) in [(40, Int64(0)), (1, 7), (25, 12)].enumerated() {
            CommitCodec.encodeCommitHeader(recordedAtDelta: delta, eventCount: count, into: &w)
            for i in 0..<count {
                let data = #"{"petId":"\#(UUID().uuidString.lowercased())","grams":\#(900 + i),"at":"2026-06-01T10:00:\#(String(format: "%02d", i % 60)).000001Z"}"#
                CommitCodec.encodeEvent(
                    stream: stream("pet-\(commit)"), version: UInt64(i),
                    event: ProposedEvent(id: UUID(), type: "Weighed", data: Array(data.utf8), metadata: ["correlationId": UUID().uuidString.lowercased()]),
                    into: &w)
            }
        }
        return w.bytes
    }

    /// The stored form a format 2 build wrote: the layout's length (a varint), then one zstd frame of it.
    private func formatTwoStored(_ rows: [UInt8], dictionary: ZstdDictionary?) throws -> [UInt8] {
        let columnar = try #require(rows.withUnsafeBytes { ColumnarPayload.encode($0, commitCount: 3, version: 1) })
        #expect(columnar.first == 1)
        var w = ByteWriter()
        w.writeVarint(UInt64(columnar.count))
        try columnar.withUnsafeBytes { try ZstdCompressor().compress($0, level: 6, dictionary: dictionary, appendingTo: &w.bytes) }
        return w.bytes
    }

    private func read(_ stored: [UInt8], codec: FrameCodec, dictionaryID: UInt32, rawLength: Int, dictionaries: DictionarySet) throws -> [UInt8] {
        var frame: [UInt8] = []
        let header = FrameIO.encode(
            type: .block, firstPosition: 0, eventCount: 66, commitCount: 3, firstRecordedAt: Timestamp(microsecondsSinceEpoch: 1),
            lastRecordedAt: Timestamp(microsecondsSinceEpoch: 13),
            stored: .init(codec: codec, dictionaryID: dictionaryID, bytes: stored, rawLength: rawLength), into: &frame)
        var out: [UInt8] = [7]
        try frame.withUnsafeBytes { raw in
            try FrameIO.payload(
                of: UnsafeRawBufferPointer(rebasing: raw[4..<(raw.count - 4)]), header: header, decompressor: ZstdDecompressor(),
                dictionaries: dictionaries, into: &out)
        }
        return Array(out.prefix(rawLength))
    }

    @Test func `a columnar block without a dictionary reads back`() throws {
        let dir = TemporaryDirectory()
        let dictionaries = DictionarySet(directory: dir.path + "/dictionaries", commitLevel: 1, blockLevel: 6)
        let rows = block()
        let stored = try formatTwoStored(rows, dictionary: nil)
        #expect(try read(stored, codec: .columnarZstd, dictionaryID: 0, rawLength: rows.count, dictionaries: dictionaries) == rows)
        // The same bytes under the wrong length, or cut short, are damage.
        #expect(throws: (any Error).self) { try read(stored, codec: .columnarZstd, dictionaryID: 0, rawLength: rows.count + 1, dictionaries: dictionaries) }
        #expect(throws: (any Error).self) { try read(Array(stored.dropLast()), codec: .columnarZstd, dictionaryID: 0, rawLength: rows.count, dictionaries: dictionaries) }
    }

    @Test func `a columnar block compressed with the store's dictionary reads back`() throws {
        let dir = TemporaryDirectory()
        let dictionaries = DictionarySet(directory: dir.path + "/dictionaries", commitLevel: 1, blockLevel: 6)
        var samples: [UInt8] = []
        var sizes: [Int] = []
        for _ in 0..<60 {
            let b = block()
            samples += b
            sizes.append(b.count)
        }
        let trained = try ZstdDictionary.train(samples: samples, sizes: sizes, capacity: 16 << 10)
        let entry = try #require(try dictionaries.addFirst(trained))
        let rows = block()
        let stored = try formatTwoStored(rows, dictionary: entry.block)
        #expect(try read(stored, codec: .columnarZstdDictionary, dictionaryID: entry.id, rawLength: rows.count, dictionaries: dictionaries) == rows)
        // Without its dictionary the frame does not decode.
        #expect(throws: (any Error).self) { try read(stored, codec: .columnarZstd, dictionaryID: 0, rawLength: rows.count, dictionaries: dictionaries) }
    }
}
