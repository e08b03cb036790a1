@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// Frames written in place against the layout readers expect: `u32 body length | header | stored payload |
/// u32 CRC32C(header + stored payload)`, appended after whatever the group's buffer already held.
@Suite struct FrameIOTests {
    /// The frame built in a writer of its own, then appended: the layout, spelled out.
    private func reference(_ header: FrameHeader, _ body: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        w.write(UInt32(LogFormat.frameHeaderSize + body.count))
        header.write(to: &w)
        w.write(bytes: body)
        let crc = w.bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[4...])) }
        w.write(crc)
        return w.bytes
    }

    @Test func `frames appended in place are byte for byte the layout, and read back`() throws {
        let compressor = ZstdCompressor()
        var output: [UInt8] = []
        var expected: [UInt8] = []
        var rng = SystemRandomNumberGenerator()
        var headers: [FrameHeader] = []
        for i in 0..<40 {
            let size = [22, 100, 4000, 70_000, 300_000][i % 5] / (i % 5 == 4 ? 1 : 1)
            var payload = [UInt8](repeating: 0, count: size)
            // Half compressible, half random, so every codec turns up.
            if i % 2 == 0 {
                for j in 0..<size { payload[j] = UInt8(j % 7) }
            } else {
                payload.withUnsafeMutableBytes { raw in
                    for k in stride(from: 0, to: size - 7, by: 8) { raw.storeBytes(of: rng.next() as UInt64, toByteOffset: k, as: UInt64.self) }
                }
            }
            let stored: FrameIO.StoredPayload
            if i % 3 == 0 {
                stored = FrameIO.StoredPayload(codec: .none, dictionaryID: 0, bytes: payload, rawLength: payload.count)
            } else {
                stored = try payload.withUnsafeBytes { try FrameIO.store($0, compressor: compressor, level: 1, dictionary: nil, helper: ZstdCompressor()) }
            }
            let at = Timestamp(microsecondsSinceEpoch: Int64(1000 + i))
            let before = output.count
            let header = FrameIO.encode(
                type: .commit, firstPosition: UInt64(i * 10), eventCount: 1, commitCount: 1, firstRecordedAt: at,
                lastRecordedAt: at, stored: stored, groupIndex: UInt16(i), into: &output)
            headers.append(header)
            let frame = reference(header, stored.bytes)
            expected += frame
            #expect(Array(output[before...]) == frame)
            #expect(header.codec == stored.codec && header.rawLength == UInt32(size) && header.groupIndex == UInt16(i))
            // The header returned is the one a reader decodes.
            let decoded = try output.withUnsafeBytes { try FrameHeader.decode(UnsafeRawBufferPointer(rebasing: $0[(before + 4)...])) }
            #expect(decoded == header)
        }
        #expect(output == expected, "earlier frames untouched")
        // And the scanner reads them all back, payloads included.
        let path = NSTemporaryDirectory() + "frames-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = try FileDescriptor.open(path, .readWriteCreate)
        try fd.write(output, at: 0)
        var scanner = FrameScanner(fd: fd, from: 0, to: UInt64(output.count))
        var n = 0
        let decompressor = ZstdDecompressor()
        let dictionaries = DictionarySet(directory: NSTemporaryDirectory() + "nodict-\(UUID().uuidString)", commitLevel: 3, blockLevel: 6)
        while true {
            var payloadCount = 0
            let (found, stop) = try scanner.next { body, h in
                payloadCount = try FrameIO.payload(of: body, header: h, decompressor: decompressor, dictionaries: dictionaries).count
            }
            #expect(stop == nil)
            guard let f = found else { break }
            #expect(f.header == headers[n])
            #expect(payloadCount == Int(f.header.rawLength))
            n += 1
        }
        #expect(n == 40)
    }

    /// A group's frames share one buffer: writing a frame must not reserve exactly what it needs, or each frame
    /// copies all the frames before it (quadratic at 4096 appends a group).
    @Test func `a group's buffer grows geometrically, not frame by frame`() {
        let payload = [UInt8](repeating: 7, count: 300)
        let stored = FrameIO.StoredPayload(codec: .none, dictionaryID: 0, bytes: payload, rawLength: payload.count)
        let at = Timestamp(microsecondsSinceEpoch: 1)
        var output: [UInt8] = []
        var growths = 0
        for i in 0..<4096 {
            let capacity = output.capacity
            FrameIO.encode(
                type: .commit, firstPosition: UInt64(i), eventCount: 1, commitCount: 1, firstRecordedAt: at, lastRecordedAt: at,
                stored: stored, into: &output)
            if output.capacity != capacity { growths += 1 }
        }
        #expect(output.count == 4096 * (payload.count + 52))
        #expect(growths < 100, "the buffer grew \(growths) times for 4096 frames")
    }
}
