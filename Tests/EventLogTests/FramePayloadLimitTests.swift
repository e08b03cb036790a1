@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// A frame whose header claims a payload larger than any writer makes is refused before anything is allocated for
/// it, whatever its codec: its checksum can be valid (a crafted file), so the claim itself is checked.
@Suite struct FramePayloadLimitTests {
    @Test(arguments: [FrameCodec.none, .zstd, .columnarZstd, .columnarParts])
    func `a frame claiming more than the largest payload is refused`(codec: FrameCodec) throws {
        for claimed in [LogFormat.maxPayloadLength + 1, Int(UInt32.max)] {
            var frame: [UInt8] = []
            let header = FrameIO.encode(
                type: .commit, firstPosition: 0, eventCount: 1, commitCount: 1, firstRecordedAt: Timestamp(microsecondsSinceEpoch: 0),
                lastRecordedAt: Timestamp(microsecondsSinceEpoch: 0),
                stored: FrameIO.StoredPayload(codec: codec, dictionaryID: 0, bytes: [1, 0, 0, 0, 0], rawLength: claimed), into: &frame)
            let dictionaries = DictionarySet(directory: "/nonexistent", commitLevel: 1, blockLevel: 6)
            var buffer: [UInt8] = []
            #expect(throws: ZstdError.self) {
                try frame.withUnsafeBytes { raw in
                    let body = UnsafeRawBufferPointer(rebasing: raw[4..<(raw.count - 4)])
                    #expect(FrameIO.openBody(body, storedCRC: raw.loadUnaligned(fromByteOffset: raw.count - 4, as: UInt32.self).littleEndian) != nil)
                    try FrameIO.payload(of: body, header: header, decompressor: ZstdDecompressor(), dictionaries: dictionaries, into: &buffer)
                }
            }
            #expect(buffer.count < 1 << 20)
        }
    }

    @Test func `the largest append's payload is within the limit`() {
        // 64 MiB of events, and 10,000 envelopes of the longest stream id and type, an id and varints each.
        let envelope = EventLimits.maxStreamIDBytes + EventLimits.maxEventTypeBytes + 16 + 4 * 10
        #expect(EventLimits.maxAppendBytes + EventLimits.maxEventsPerAppend * envelope + (2 << 20) < LogFormat.maxPayloadLength)
    }
}
