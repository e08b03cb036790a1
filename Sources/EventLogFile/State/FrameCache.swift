import EventLog
import Foundation
import PawtrailIO

/// A bounded cache of decompressed frames, least recently used out first.
struct FrameCache {
    struct Key: Hashable {
        var segment: UInt64
        var layout: SegmentLayout
        var offset: UInt64
        /// 0 for the whole frame; n for the n-th part (from 1) of a commit stored in parts, cached on its own.
        var part: Int = 0
    }

    /// Where an event starts in a frame's payload, and its commit's time.
    struct EventStart {
        var offset: Int
        var recordedAt: Timestamp
    }

    let capacityBytes: Int
    var entries: [Key: (header: FrameHeader, payload: [UInt8], tick: UInt64)] = [:]
    var eventStarts: [Key: [EventStart]] = [:]
    /// For frames read by parts: the index of each part's first event, so a cached part is found without reading
    /// the frame again. Bounded by ``maxPartDirectories`` (cleared when full: it costs a read to refill).
    var partStarts: [Key: [Int]] = [:]
    static let maxPartDirectories = 4096

    func starts(_ key: Key) -> [EventStart]? { entries[key] == nil ? nil : eventStarts[key] }

    mutating func setStarts(_ key: Key, _ starts: [EventStart]) {
        guard entries[key] != nil else { return }
        eventStarts[key] = starts
        bytes += starts.count * MemoryLayout<EventStart>.stride
    }
    var bytes = 0
    var tick: UInt64 = 0

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    mutating func setPartStarts(_ key: Key, _ starts: [Int]) {
        if partStarts.count >= Self.maxPartDirectories { partStarts.removeAll(keepingCapacity: true) }
        partStarts[key] = starts
    }

    func contains(_ key: Key) -> Bool { entries[key] != nil }

    mutating func get(_ key: Key) -> (FrameHeader, [UInt8])? {
        guard let e = entries[key] else { return nil }
        tick += 1
        entries[key]!.tick = tick
        return (e.header, e.payload)
    }

    mutating func insert(_ key: Key, header: FrameHeader, payload: [UInt8]) {
        guard payload.count <= capacityBytes / 4 else { return }
        tick += 1
        if let old = entries.updateValue((header, payload, tick), forKey: key) {
            bytes -= old.payload.count
            if let starts = eventStarts.removeValue(forKey: key) { bytes -= starts.count * MemoryLayout<EventStart>.stride }
        }
        bytes += payload.count
        if bytes > capacityBytes {
            // Evict the older half in one pass rather than one entry at a time.
            let sorted = entries.sorted { $0.value.tick < $1.value.tick }
            for (k, v) in sorted.prefix(sorted.count / 2) {
                entries[k] = nil
                bytes -= v.payload.count
                if let starts = eventStarts.removeValue(forKey: k) { bytes -= starts.count * MemoryLayout<EventStart>.stride }
            }
        }
    }
}
