import EventLog
import Foundation
import PawtrailIO

/// One sequential scan's reusable buffers (a frame as read and its decompressed payload), the frame that payload
/// holds (so the next page resuming inside it does not decompress it again) and its read-ahead.
final class ScanCursor {
    var frame: [UInt8] = []
    var payload: [UInt8] = []
    var scanned: (key: FrameCache.Key, header: FrameHeader)?
    /// Reads and decompresses the next frame on another core while this one is decoded.
    let prefetcher = FramePrefetcher()
    /// The position the scan stopped at: a page starting there is its continuation.
    var resumeAt: UInt64?
    var lastUsed: UInt64 = 0

    func walk(_ header: FrameHeader, _ body: (EventView) throws -> Bool, _ corrupt: (String) -> EventStoreError) throws {
        do {
            try payload.withUnsafeBytes { raw in
                try CommitCodec.walkEvents(UnsafeRawBufferPointer(rebasing: raw[..<Int(header.rawLength)]), header: header, body)
            }
        } catch let e as ByteReaderError {
            throw corrupt("frame events do not decode: \(e)")
        }
    }
}
