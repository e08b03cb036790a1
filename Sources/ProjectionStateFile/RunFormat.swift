import Glibc
import PawtrailIO
import Projections

/// The layout of a run file (`<sequence>.run` of a projection's stored state): row versions sorted by
/// ``RunFormat/precedes(_:_:)`` (table, then key, then newest first), in two sections of compressed blocks. The head
/// holds each row's newest version in the run, so that a read of the present (a group, a whole table) reads the rows
/// as they are and nothing of their past; the history holds the older versions, which only reads of a past position
/// visit. An absent row's newest version whose key no older run of the state may hold (by their Bloom filters)
/// shadows nothing and goes to the history alone, so a head holds present rows and the absences that hide an older
/// run's row, never the trail of every row ever removed. Every multi-byte integer is little-endian.
///
/// - header: magic `PTRUNS01` (8), format version u16, reserved u16, reserved u32 = 16 bytes;
/// - blocks of both sections, in the order they filled, each a zstd frame of entries: key length (varint), key
///   bytes, position (varint), flags (u8: 1 kept, 2 absent), and for a present row its value's length (varint) and
///   bytes;
/// - the head's block index, then the history's: count u32, then per block its offset u64, compressed length u32,
///   raw length u32, CRC-32C of the compressed bytes u32, and its first entry's key (length u16 and bytes) and
///   position u64;
/// - the Bloom filter of the distinct keys: bit count u64 (a multiple of 64), probes u32, then the bits;
/// - the footer: the head index's offset and length, the history index's, the filter's, version count, key count,
///   lowest and highest position (u64 each), CRC-32C of the head index, of the history index and of the filter
///   (u32 each), CRC-32C of the footer before it (u32), then the magic `PTRUNEND` (8) = 104 bytes.
enum RunFormat {
    static let magic: [UInt8] = Array("PTRUNS01".utf8)
    static let endMagic: [UInt8] = Array("PTRUNEND".utf8)
    static let version: UInt16 = 2
    static let headerSize = 16
    static let footerSize = 104
    /// Blocks hold about this many bytes before compression: a lookup decompresses one.
    static let blockSize = 32 << 10
    static let keptFlag: UInt8 = 1
    static let absentFlag: UInt8 = 2

    /// The stored order of versions: by table, then key (``RowKey``), then newest first, so that the first version
    /// of a row at or after a target (key, position) is its newest at or before that position.
    @inline(__always)
    static func precedes(_ a: RowVersion, _ b: RowVersion) -> Bool {
        precedes(a.key, a.position, b.key, b.position)
    }

    @inline(__always)
    static func precedes(_ ak: RowKey, _ ap: UInt64, _ bk: RowKey, _ bp: UInt64) -> Bool {
        if ak.table != bk.table { return ak.table < bk.table }
        if ak.groupHash != bk.groupHash { return ak.groupHash < bk.groupHash }
        let c = RowKey.compareBytes(ak, bk)
        return c != 0 ? c < 0 : ap > bp
    }

    /// Appends one entry to a block's bytes.
    static func append(_ v: RowVersion, to w: inout ByteWriter) {
        w.writeVarint(UInt64(v.key.bytes.count))
        w.write(bytes: v.key.bytes)
        w.writeVarint(v.position)
        w.write(UInt8((v.keep ? keptFlag : 0) | (v.value == nil ? absentFlag : 0)))
        if let value = v.value {
            w.writeVarint(UInt64(value.count))
            w.write(bytes: value)
        }
    }

    /// Whether a key read in place from a block is the one given: a comparison of bytes (memcmp), which the generic
    /// `elementsEqual` of a buffer and an array is not (it was a fifth of a past read of the catalog).
    @inline(__always)
    static func sameBytes(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard let base = a.baseAddress, !b.isEmpty else { return true }
        return b.withUnsafeBytes { memcmp(base, $0.baseAddress!, a.count) == 0 }
    }

    /// Reads one entry of a block.
    static func entry(_ r: inout ByteReader) throws(ByteReaderError) -> RowVersion {
        let keyLength = Int(try r.readVarint())
        let key = Array(try r.readView(keyLength))
        let position = try r.readVarint()
        let flags: UInt8 = try r.read()
        var value: [UInt8]?
        if flags & absentFlag == 0 {
            let n = Int(try r.readVarint())
            value = Array(try r.readView(n))
        }
        return RowVersion(key: RowKey(bytes: key), position: position, value: value, keep: flags & keptFlag != 0)
    }
}

/// A Bloom filter of row keys, about 10 bits a key and 7 probes (about 1% false positives): a lookup of a key a run
/// does not hold, which every new row of a catch-up is, then skips the run without decompressing a block.
struct RunBloom {
    static let probes = 7

    /// The two hashes the probes are made from.
    @inline(__always)
    static func hashes(_ key: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let h = RowKey.hash(key)
        return (h, (h >> 32 | h << 32) | 1)
    }

    /// The filter's bytes for keys (bit count, probes, bits).
    static func encode(_ keys: [(UInt64, UInt64)]) -> [UInt8] {
        let bits = max(64, (keys.count * 10 + 63) / 64 * 64)
        var words = [UInt64](repeating: 0, count: bits / 64)
        for (a, b) in keys {
            for i in 0..<probes {
                let bit = Int((a &+ UInt64(i) &* b) % UInt64(bits))
                words[bit / 64] |= 1 << UInt64(bit % 64)
            }
        }
        var w = ByteWriter(capacity: 12 + bits / 8)
        w.write(UInt64(bits))
        w.write(UInt32(probes))
        for word in words { w.write(word) }
        return w.bytes
    }

    /// Whether the filter may hold a key (`true` for an empty or unreadable filter).
    @inline(__always)
    static func mayContain(_ filter: UnsafeRawBufferPointer, _ key: RowKey) -> Bool {
        mayContain(filter, key.bytes.withUnsafeBytes { hashes($0) })
    }

    /// Whether the filter may hold a key, given the key's ``hashes(_:)`` (`true` for an empty or unreadable filter).
    @inline(__always)
    static func mayContain(_ filter: UnsafeRawBufferPointer, _ hashes: (UInt64, UInt64)) -> Bool {
        guard filter.count >= 12 else { return true }
        let bits = Int(filter.loadUnaligned(as: UInt64.self).littleEndian)
        let probes = Int(filter.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        guard bits > 0, 12 + bits / 8 <= filter.count else { return true }
        let (a, b) = hashes
        for i in 0..<probes {
            let bit = Int((a &+ UInt64(i) &* b) % UInt64(bits))
            let word = filter.loadUnaligned(fromByteOffset: 12 + (bit / 64) * 8, as: UInt64.self).littleEndian
            if word & (1 << UInt64(bit % 64)) == 0 { return false }
        }
        return true
    }
}
