import EventLog
import Foundation
import PawtrailIO

/// Reads and decompresses one frame ahead of a sequential scan, on another thread, into buffers of its own:
/// the scan hands its used payload buffer back in exchange, so no buffer is ever shared and none is allocated
/// per frame. One frame in flight at most.
final class FramePrefetcher: @unchecked Sendable {
    let decompressor = ZstdDecompressor()
    var frame: [UInt8] = []
    var payload: [UInt8] = []
    var header: FrameHeader?
    var key: FrameCache.Key?
    var inFlight: DispatchGroup?
    /// A queue of its own rather than the global pool: the scan blocks on the fetch, and the global pool holds as many
    /// threads as cores, all of which a rebuild's scans may be holding; a fetch queued there then waits until the
    /// pool notices its threads are blocked (about a second). A serial queue always gets a thread of its own.
    private let queue = DispatchQueue(label: "pawtrail.read-ahead")

    /// Starts fetching a frame, after any fetch in flight has finished.
    func start(_ segment: any SegmentFile, _ ref: FrameRef, key: FrameCache.Key, dictionaries: DictionarySet) {
        inFlight?.wait()
        self.key = key
        header = nil
        let group = DispatchGroup()
        inFlight = group
        let target = UncheckedSegment(segment)
        queue.async(group: group) { [self] in
            header = try? LogState.load(target.segment, ref, frame: &frame, payload: &payload, decompressor: decompressor, dictionaries: dictionaries)
        }
    }

    /// The fetched frame's header, with its payload swapped into `payload`, if this frame was fetched and read
    /// cleanly; `nil` otherwise (the caller then reads it itself, and reports any damage).
    func take(_ key: FrameCache.Key, swappingPayloadWith other: inout [UInt8]) -> FrameHeader? {
        guard self.key == key else { return nil }
        inFlight?.wait()
        inFlight = nil
        self.key = nil
        guard let header else { return nil }
        swap(&payload, &other)
        return header
    }
}

/// A segment handed to the prefetch thread, which only reads its immutable file descriptor and layout.
private struct UncheckedSegment: @unchecked Sendable {
    let segment: any SegmentFile

    init(_ segment: any SegmentFile) {
        self.segment = segment
    }
}
