import EventLog
import PawtrailIO

/// The 64-byte header at the start of every segment file.
///
/// Layout: magic "PAWTSEG1" (8), format version u16, minimum reader version u16, layout u8, 3 reserved zero
/// bytes, first position u64, created-at µs i64, 28 reserved zero bytes, CRC32C of the previous 60 bytes u32.
struct SegmentHeader: Hashable {
    var formatVersion: UInt16
    var minimumReaderVersion: UInt16
    var layout: SegmentLayout
    var firstPosition: UInt64
    var createdAt: Timestamp

    init(layout: SegmentLayout, firstPosition: UInt64, createdAt: Timestamp) {
        formatVersion = LogFormat.formatVersion
        minimumReaderVersion = LogFormat.minimumReaderVersion
        self.layout = layout
        self.firstPosition = firstPosition
        self.createdAt = createdAt
    }

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: LogFormat.segmentHeaderSize)
        w.write(bytes: LogFormat.segmentMagic)
        w.write(formatVersion)
        w.write(minimumReaderVersion)
        w.write(layout.rawValue)
        w.write(bytes: [0, 0, 0])
        w.write(firstPosition)
        w.write(createdAt.microsecondsSinceEpoch)
        w.write(bytes: [UInt8](repeating: 0, count: 28))
        w.write(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    /// Decodes and checks a header.
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` or ``EventStoreError/incompatibleFormat(location:found:supported:)``.
    static func decode(_ bytes: [UInt8], file: String) throws -> SegmentHeader {
        guard bytes.count >= LogFormat.segmentHeaderSize else {
            throw EventStoreError.corrupted(location: file, offset: 0, reason: "segment header is cut short (\(bytes.count) bytes)")
        }
        guard Array(bytes[0..<8]) == LogFormat.segmentMagic else {
            throw EventStoreError.corrupted(location: file, offset: 0, reason: "not a Pawtrail segment (bad magic)")
        }
        return try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, offset: 8)
            let version = try r.read(UInt16.self)
            let minimum = try r.read(UInt16.self)
            let stored = raw.loadUnaligned(fromByteOffset: 60, as: UInt32.self).littleEndian
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<60])) == stored else {
                throw EventStoreError.corrupted(location: file, offset: 0, reason: "segment header checksum mismatch")
            }
            guard minimum <= LogFormat.readableVersion else {
                throw EventStoreError.incompatibleFormat(location: file, found: Int(version), supported: Int(LogFormat.readableVersion))
            }
            guard let layout = SegmentLayout(rawValue: try r.read(UInt8.self)) else {
                throw EventStoreError.corrupted(location: file, offset: 12, reason: "unknown segment layout")
            }
            r.offset = 16
            let first = try r.read(UInt64.self)
            let created = try r.read(Int64.self)
            var h = SegmentHeader(layout: layout, firstPosition: first, createdAt: Timestamp(microsecondsSinceEpoch: created))
            h.formatVersion = version
            h.minimumReaderVersion = minimum
            return h
        }
    }
}
