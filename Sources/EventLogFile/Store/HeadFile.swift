import EventLog
import PawtrailIO

/// Where the durable log ends. The writer rewrites it after every flush; readers never read past it, so they
/// never see a commit that is not yet durable, nor a torn one.
///
/// 48 bytes: magic u32, reserved u32, active segment first position u64, end offset u64, next position u64,
/// last recorded-at i64, reserved u32, CRC32C of the preceding 44 bytes u32. Not itself flushed: after a crash
/// it may lag the segment (never lead it, since it is written after the data's flush), and the writer's
/// recovery recomputes it.
struct HeadFile: Hashable {
    var activeFirstPosition: UInt64
    var endOffset: UInt64
    var nextPosition: UInt64
    var lastRecordedAt: Timestamp

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 48)
        w.write(LogFormat.headMagic)
        w.write(UInt32(0))
        w.write(activeFirstPosition)
        w.write(endOffset)
        w.write(nextPosition)
        w.write(lastRecordedAt.microsecondsSinceEpoch)
        w.write(UInt32(0))
        w.write(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) -> HeadFile? {
        guard bytes.count == 48 else { return nil }
        return bytes.withUnsafeBytes { raw in
            guard raw.loadUnaligned(as: UInt32.self).littleEndian == LogFormat.headMagic,
                CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<44]))
                    == raw.loadUnaligned(fromByteOffset: 44, as: UInt32.self).littleEndian
            else { return nil }
            return HeadFile(
                activeFirstPosition: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian,
                endOffset: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian,
                nextPosition: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian,
                lastRecordedAt: Timestamp(microsecondsSinceEpoch: raw.loadUnaligned(fromByteOffset: 32, as: Int64.self).littleEndian))
        }
    }

    /// Reads the head, retrying a few times if a concurrent rewrite is caught half-way.
    static func read(fd: FileDescriptor) throws -> HeadFile? {
        for _ in 0..<5 {
            let bytes = try fd.read(at: 0, count: 48)
            if bytes.isEmpty { return nil }
            if let head = decode(bytes) { return head }
        }
        return nil
    }
}
