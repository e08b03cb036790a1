import EventLog
import Projections

/// One section's block index, read in place from the mapped run file: opening a run checks every entry and notes
/// where each starts, and a block's first key becomes a ``RowKey`` only when a lookup asks for it. A large state's
/// runs hold thousands of blocks, and a read of one row visits a dozen of them.
struct RunBlockIndex {
    /// The index's entries (after its count), in the mapped file: valid while its reader lives.
    private let bytes: UnsafeRawBufferPointer
    /// Where each entry starts in `bytes`.
    private let starts: [Int32]
    /// The first keys made so far: a binary search asks the same few blocks at every lookup.
    private let firstKeys = FirstKeys()

    /// Keys made once, by block (a reader is used under its store's lock).
    private final class FirstKeys {
        var keys: [RowKey?] = []
    }

    /// How many blocks the section has.
    var count: Int { starts.count }

    /// Checks an index's entries (see ``RunFormat``): each block lies after the header and before `end`, has bytes, and
    /// a raw length within bounds.
    ///
    /// - Parameters:
    ///   - index: The index's bytes, count first.
    ///   - end: Where the blocks end (the first index's offset).
    ///   - damaged: Makes the error for a damaged index.
    /// - Throws: What `damaged` makes.
    init(_ index: UnsafeRawBufferPointer, end: Int, _ damaged: (String) -> EventStoreError) throws {
        guard index.count >= 4 else { throw damaged("a block index does not decode: it is cut short") }
        let count = Int(index.loadUnaligned(as: UInt32.self).littleEndian)
        let entries = UnsafeRawBufferPointer(rebasing: index[4...])
        var starts: [Int32] = []
        starts.reserveCapacity(Swift.min(count, entries.count / Self.fixedSize))
        var at = 0
        for _ in 0..<count {
            guard at + Self.fixedSize <= entries.count else { throw damaged("a block index does not decode: it is cut short") }
            let keyLength = Int(entries.loadUnaligned(fromByteOffset: at + 20, as: UInt16.self).littleEndian)
            guard at + Self.fixedSize + keyLength <= entries.count else { throw damaged("a block index does not decode: it is cut short") }
            let offset = Int(truncatingIfNeeded: entries.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian)
            let compressed = Int(entries.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self).littleEndian)
            let raw = Int(entries.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self).littleEndian)
            guard offset >= RunFormat.headerSize, compressed > 0, offset <= end - compressed, raw > 0, raw <= 64 << 20 else {
                throw damaged("a block index entry is out of place")
            }
            starts.append(Int32(at))
            at += Self.fixedSize + keyLength
        }
        guard at == entries.count else { throw damaged("a block index has bytes after its entries") }
        bytes = entries
        self.starts = starts
    }

    /// An entry's bytes but its key: offset u64, compressed and raw length u32, CRC u32, key length u16, position u64.
    private static let fixedSize = 30

    /// Where block `i` starts in the file.
    func offset(_ i: Int) -> Int { Int(truncatingIfNeeded: load(UInt64.self, i, 0)) }

    /// Its length in the file.
    func compressedLength(_ i: Int) -> Int { Int(load(UInt32.self, i, 8)) }

    /// Its length decompressed.
    func rawLength(_ i: Int) -> Int { Int(load(UInt32.self, i, 12)) }

    /// The CRC-32C of its bytes in the file.
    func crc(_ i: Int) -> UInt32 { load(UInt32.self, i, 16) }

    /// The position of its first entry.
    func firstPosition(_ i: Int) -> UInt64 { load(UInt64.self, i, 22 + keyLength(i)) }

    /// The key of its first entry, made when first asked for.
    func firstKey(_ i: Int) -> RowKey {
        if firstKeys.keys.isEmpty { firstKeys.keys = Array(repeating: nil, count: starts.count) }
        if let key = firstKeys.keys[i] { return key }
        let at = Int(starts[i]) + 22
        let key = RowKey(bytes: Array(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + keyLength(i))])))
        firstKeys.keys[i] = key
        return key
    }

    /// Whether block `i`'s first entry is of the row with these key bytes, compared in place (no key is made).
    func startsWithRow(_ i: Int, _ key: [UInt8]) -> Bool {
        let at = Int(starts[i]) + 22
        return RunFormat.sameBytes(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + keyLength(i))]), key)
    }

    private func keyLength(_ i: Int) -> Int { Int(load(UInt16.self, i, 20)) }

    private func load<T: FixedWidthInteger>(_: T.Type, _ i: Int, _ field: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: Int(starts[i]) + field, as: T.self))
    }
}
