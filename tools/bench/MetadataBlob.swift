import BenchSupport
import EventLog

/// The SQLite peer's stored form of event metadata: `u8 pair count`, then per pair `u16 key length, key,
/// u32 value length, value` (little-endian, UTF-8).
///
/// A length-prefixed blob rather than JSON text so that the peer's read-all is not dominated by a JSON parser
/// (Foundation's `JSONSerialization` would cost it more than SQLite itself): the comparison is of stores, not
/// of JSON libraries. The report says so.
enum MetadataBlob {
    /// Encodes metadata (at most 255 pairs; the store limit is 64).
    static func encode(_ metadata: EventMetadata) -> [UInt8] {
        var out: [UInt8] = [UInt8(metadata.count)]
        for pair in metadata {
            let key = Array(pair.key.utf8)
            let value = Array(pair.value.utf8)
            out.append(UInt8(truncatingIfNeeded: key.count))
            out.append(UInt8(truncatingIfNeeded: key.count >> 8))
            out.append(contentsOf: key)
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value.count >> shift)) }
            out.append(contentsOf: value)
        }
        return out
    }

    /// Decodes what ``encode(_:)`` wrote.
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` when the blob is malformed.
    static func decode(_ blob: UnsafeRawBufferPointer) throws -> EventMetadata {
        guard blob.count >= 1 else { throw malformed(0) }
        let count = Int(blob[0])
        var pairs: [(key: String, value: String)] = []
        pairs.reserveCapacity(count)
        var i = 1
        for _ in 0..<count {
            guard i + 2 <= blob.count else { throw malformed(i) }
            let keyLength = Int(blob[i]) | Int(blob[i + 1]) << 8
            i += 2
            guard i + keyLength + 4 <= blob.count else { throw malformed(i) }
            let key = String(decoding: UnsafeRawBufferPointer(rebasing: blob[i..<(i + keyLength)]), as: UTF8.self)
            i += keyLength
            let valueLength = Int(blob.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian)
            i += 4
            guard i + valueLength <= blob.count else { throw malformed(i) }
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: blob[i..<(i + valueLength)]), as: UTF8.self)
            i += valueLength
            pairs.append((key: key, value: value))
        }
        return EventMetadata(sortedUniquePairs: pairs)
    }

    private static func malformed(_ offset: Int) -> EventStoreError {
        .corrupted(location: "sqlite events.metadata", offset: UInt64(offset), reason: "malformed metadata blob")
    }
}
