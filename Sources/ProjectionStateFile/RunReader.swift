import EventLog
import PawtrailIO
import Projections

/// A run file mapped for reading (see ``RunFormat``): its footer and block index are checked when it is opened, its
/// blocks as lookups decompress them.
final class RunReader: @unchecked Sendable {
    struct Block {
        var offset: Int
        var compressedLength: Int
        var rawLength: Int
        var crc: UInt32
        var firstKey: RowKey
        var firstPosition: UInt64
    }

    let path: String
    private let file: MappedFile
    let blocks: [Block]
    private let bloom: UnsafeRawBufferPointer
    let versionCount: Int
    let keyCount: Int
    let minPosition: UInt64
    let maxPosition: UInt64
    var size: Int { file.bytes.count }

    /// Decompressed blocks recently read, newest last (a reader is used under its store's lock).
    private var cache: [(index: Int, bytes: [UInt8])] = []
    private static let cachedBlocks = 8
    private let decompressor = ZstdDecompressor()

    /// Maps and checks a run file.
    ///
    /// - Throws: ``SystemError`` when it cannot be mapped, ``EventStoreError/corrupted(file:offset:reason:)`` when its
    ///   footer or index is damaged.
    init(path: String) throws {
        self.path = path
        file = try MappedFile(path: path)
        let b = file.bytes
        func damaged(_ reason: String) -> EventStoreError { .corrupted(file: path, offset: 0, reason: reason) }
        guard b.count >= RunFormat.headerSize + RunFormat.footerSize,
            Array(UnsafeRawBufferPointer(rebasing: b[0..<8])) == RunFormat.magic,
            b.loadUnaligned(fromByteOffset: 8, as: UInt16.self).littleEndian == RunFormat.version,
            Array(UnsafeRawBufferPointer(rebasing: b[(b.count - 8)...])) == RunFormat.endMagic
        else { throw damaged("not a run file of this version") }
        let f = b.count - RunFormat.footerSize
        func u64(_ at: Int) -> UInt64 { b.loadUnaligned(fromByteOffset: f + at, as: UInt64.self).littleEndian }
        func u32(_ at: Int) -> UInt32 { b.loadUnaligned(fromByteOffset: f + at, as: UInt32.self).littleEndian }
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[f..<(f + 72)])) == u32(72) else { throw damaged("the footer fails its checksum") }
        let indexOffset = Int(u64(0))
        let indexLength = Int(u64(8))
        let bloomOffset = Int(u64(16))
        let bloomLength = Int(u64(24))
        guard indexOffset >= RunFormat.headerSize, indexLength >= 4, indexOffset + indexLength == bloomOffset, bloomOffset + bloomLength == f
        else { throw damaged("the footer's sections do not fit the file") }
        let index = UnsafeRawBufferPointer(rebasing: b[indexOffset..<(indexOffset + indexLength)])
        guard CRC32C.checksum(index) == u32(64) else { throw damaged("the block index fails its checksum") }
        let filter = UnsafeRawBufferPointer(rebasing: b[bloomOffset..<f])
        guard CRC32C.checksum(filter) == u32(68) else { throw damaged("the key filter fails its checksum") }
        bloom = filter
        versionCount = Int(u64(32))
        keyCount = Int(u64(40))
        minPosition = u64(48)
        maxPosition = u64(56)
        var r = ByteReader(index)
        var blocks: [Block] = []
        do {
            let count = Int(try r.read(UInt32.self))
            blocks.reserveCapacity(count)
            var expected = RunFormat.headerSize
            for _ in 0..<count {
                let offset = Int(try r.read(UInt64.self))
                let compressed = Int(try r.read(UInt32.self))
                let raw = Int(try r.read(UInt32.self))
                let crc = try r.read(UInt32.self)
                let keyLength = Int(try r.read(UInt16.self))
                let key = RowKey(bytes: Array(try r.readView(keyLength)))
                let position = try r.read(UInt64.self)
                guard offset == expected, compressed > 0, offset + compressed <= indexOffset, raw > 0, raw <= 64 << 20 else {
                    throw damaged("block index entry out of place")
                }
                expected = offset + compressed
                blocks.append(Block(offset: offset, compressedLength: compressed, rawLength: raw, crc: crc, firstKey: key, firstPosition: position))
            }
            guard expected == indexOffset, r.isAtEnd else { throw damaged("the blocks do not fill the file before the index") }
        } catch let e as EventStoreError {
            throw e
        } catch {
            throw damaged("the block index does not decode: \(error)")
        }
        self.blocks = blocks
    }

    /// A block's entries, decompressed (kept for the next lookups).
    ///
    /// - Throws: ``EventStoreError/corrupted(file:offset:reason:)``.
    func entries(ofBlock i: Int) throws -> [RowVersion] {
        let raw = try blockBytes(i)
        var out: [RowVersion] = []
        try raw.withUnsafeBytes { buffer in
            var r = ByteReader(buffer)
            do {
                while !r.isAtEnd { out.append(try RunFormat.entry(&r)) }
            } catch {
                throw EventStoreError.corrupted(file: path, offset: UInt64(blocks[i].offset), reason: "a block's entries do not decode: \(error)")
            }
        }
        return out
    }

    private func blockBytes(_ i: Int) throws -> [UInt8] {
        if let hit = cache.firstIndex(where: { $0.index == i }) {
            let entry = cache.remove(at: hit)
            cache.append(entry)
            return entry.bytes
        }
        let block = blocks[i]
        let compressed = UnsafeRawBufferPointer(rebasing: file.bytes[block.offset..<(block.offset + block.compressedLength)])
        guard CRC32C.checksum(compressed) == block.crc else {
            throw EventStoreError.corrupted(file: path, offset: UInt64(block.offset), reason: "a block fails its checksum")
        }
        let bytes: [UInt8]
        do {
            bytes = try decompressor.decompress(compressed, size: block.rawLength, dictionary: nil)
        } catch {
            throw EventStoreError.corrupted(file: path, offset: UInt64(block.offset), reason: "a block does not decompress: \(error)")
        }
        cache.append((i, bytes))
        if cache.count > Self.cachedBlocks { cache.removeFirst() }
        return bytes
    }

    /// The index of the block holding the first version at or after (key, position) in stored order, or of the
    /// last block whose first entry comes before it.
    private func startBlock(_ key: RowKey, _ position: UInt64) -> Int? {
        var lo = 0
        var hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            // Blocks whose first entry comes at or before the target.
            if !RunFormat.precedes(key, position, blocks[mid].firstKey, blocks[mid].firstPosition) { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? (blocks.isEmpty ? nil : 0) : lo - 1
    }

    /// The first version in stored order at or after (key, position), visiting blocks from where it would be.
    private func firstVersion(atOrAfter key: RowKey, _ position: UInt64) throws -> (block: Int, entry: Int, entries: [RowVersion])? {
        guard var b = startBlock(key, position) else { return nil }
        while b < blocks.count {
            let entries = try self.entries(ofBlock: b)
            if let i = entries.firstIndex(where: { !RunFormat.precedes($0.key, $0.position, key, position) }) { return (b, i, entries) }
            b += 1
        }
        return nil
    }

    /// A row's newest version at or before a position (`nil`: its newest), `nil` when this run has none.
    func version(of key: RowKey, asOf position: UInt64?) throws -> RowVersion? {
        if let position, position < minPosition { return nil }
        guard RunBloom.mayContain(bloom, key), let found = try firstVersion(atOrAfter: key, position ?? .max) else { return nil }
        let v = found.entries[found.entry]
        return v.key == key ? v : nil
    }

    /// For every row whose key starts with a prefix and lies in one table, its newest version at or before a
    /// position, in stored order (absent rows included, so that a newer run's absence shadows an older run's row).
    func versions(prefix: [UInt8], asOf position: UInt64?) throws -> [RowVersion] {
        guard let table = prefix.first else { return [] }
        let tableOnly = prefix.count == 1
        let target = RowKey(bytes: prefix)
        var out: [RowVersion] = []
        guard var b = tableOnly ? firstBlock(ofTable: table) : startBlock(target, .max) else { return [] }
        var last: RowKey?
        outer: while b < blocks.count {
            for v in try entries(ofBlock: b) {
                if v.key.table < table { continue }
                guard v.key.table == table else { break outer }
                if !tableOnly {
                    if RunFormat.precedes(v.key, v.position, target, .max) { continue }
                    guard v.key.groupHash == target.groupHash else { break outer }
                    guard v.key.bytes.starts(with: prefix) else {
                        if v.key.bytes.lexicographicallyPrecedes(prefix) { continue }
                        break outer
                    }
                }
                if v.key == last { continue }
                if let position, v.position > position { continue }
                out.append(v)
                last = v.key
            }
            b += 1
        }
        return out
    }

    /// The block where a table's rows start: the one before the first block whose first row is of the table or a
    /// later one (the table's first rows may end that block).
    private func firstBlock(ofTable table: UInt8) -> Int? {
        guard !blocks.isEmpty else { return nil }
        var lo = 0
        var hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if blocks[mid].firstKey.table < table { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    /// The position of a row's newest version marked kept in this run, `nil` when none is.
    func newestKept(_ key: RowKey) throws -> UInt64? {
        guard RunBloom.mayContain(bloom, key), var found = try firstVersion(atOrAfter: key, .max) else { return nil }
        while true {
            while found.entry < found.entries.count {
                let v = found.entries[found.entry]
                guard v.key == key else { return nil }
                if v.keep { return v.position }
                found.entry += 1
            }
            guard found.block + 1 < blocks.count else { return nil }
            found = (found.block + 1, 0, try entries(ofBlock: found.block + 1))
        }
    }

    /// Visits every version in stored order (a merge's input).
    func forEachVersion(_ body: (RowVersion) throws -> Void) throws {
        for b in blocks.indices {
            for v in try entries(ofBlock: b) { try body(v) }
        }
    }
}
