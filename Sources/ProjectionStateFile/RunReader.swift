import EventLog
import PawtrailIO
import Projections

/// A run file mapped for reading (see ``RunFormat``): its footer and block indexes are checked when it is opened,
/// its blocks as lookups decompress them. A read of the present visits the head only; a read of a past position
/// visits the history too.
final class RunReader: @unchecked Sendable {
    /// The two sections of blocks.
    enum Section: Int {
        case head = 0, history = 1
    }

    let path: String
    private let file: MappedFile
    /// The blocks of each section, by ``Section``'s raw value.
    let sections: [RunBlockIndex]
    private let bloom: UnsafeRawBufferPointer
    let versionCount: Int
    let keyCount: Int
    let minPosition: UInt64
    let maxPosition: UInt64
    var size: Int { file.bytes.count }

    /// Decompressed blocks recently read (a reader is used under its store's lock).
    private var cache = RecentBlocks<[RowVersion]>(capacity: 8)
    /// Decompressed blocks' bytes recently scanned in place.
    private var byteCache = RecentBlocks<[UInt8]>(capacity: 8)
    /// Where the last row found in the head starts in its block: lookups in stored order (``FileStoredState``'s
    /// reads of several rows) resume there instead of scanning the block from its start.
    var headHint: (block: Int, offset: Int, key: RowKey)?
    private let decompressor = ZstdDecompressor()

    /// Maps and checks a run file.
    ///
    /// - Throws: ``SystemError`` when it cannot be mapped, ``EventStoreError/corrupted(location:offset:reason:)`` when its
    ///   footer or indexes are damaged.
    init(path: String) throws {
        self.path = path
        file = try MappedFile(path: path)
        let b = file.bytes
        func damaged(_ reason: String) -> EventStoreError { .corrupted(location: path, offset: 0, reason: reason) }
        guard b.count >= RunFormat.headerSize, Array(UnsafeRawBufferPointer(rebasing: b[0..<8])) == RunFormat.magic else {
            throw damaged("not a run file")
        }
        let version = b.loadUnaligned(fromByteOffset: 8, as: UInt16.self).littleEndian
        guard version == RunFormat.version else {
            throw EventStoreError.incompatibleFormat(location: path, found: Int(version), supported: Int(RunFormat.version))
        }
        guard b.count >= RunFormat.headerSize + RunFormat.footerSize,
            Array(UnsafeRawBufferPointer(rebasing: b[(b.count - 8)...])) == RunFormat.endMagic
        else { throw damaged("the run file is cut short") }
        let f = b.count - RunFormat.footerSize
        func u64(_ at: Int) -> Int { Int(truncatingIfNeeded: b.loadUnaligned(fromByteOffset: f + at, as: UInt64.self).littleEndian) }
        func u32(_ at: Int) -> UInt32 { b.loadUnaligned(fromByteOffset: f + at, as: UInt32.self).littleEndian }
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[f..<(f + 92)])) == u32(92) else { throw damaged("the footer fails its checksum") }
        let ranges = [(u64(0), u64(8)), (u64(16), u64(24))]
        let bloomRange = (u64(32), u64(40))
        guard ranges[0].0 >= RunFormat.headerSize, ranges.allSatisfy({ $0.1 >= 4 }), ranges[0].0 + ranges[0].1 == ranges[1].0,
            ranges[1].0 + ranges[1].1 == bloomRange.0, bloomRange.0 + bloomRange.1 == f
        else { throw damaged("the footer's sections do not fit the file") }
        let filter = UnsafeRawBufferPointer(rebasing: b[bloomRange.0..<f])
        guard CRC32C.checksum(filter) == u32(88) else { throw damaged("the key filter fails its checksum") }
        bloom = filter
        versionCount = u64(48)
        keyCount = u64(56)
        minPosition = UInt64(u64(64))
        maxPosition = UInt64(u64(72))
        var sections: [RunBlockIndex] = []
        for (i, (offset, length)) in ranges.enumerated() {
            let index = UnsafeRawBufferPointer(rebasing: b[offset..<(offset + length)])
            guard CRC32C.checksum(index) == u32(80 + 4 * i) else { throw damaged("a block index fails its checksum") }
            sections.append(try RunBlockIndex(index, end: ranges[0].0, damaged))
        }
        // The blocks of both sections tile the bytes between the header and the indexes. Each section's blocks were
        // written in the order of their offsets, so the two lists are walked together, whichever block comes next.
        var expected = RunFormat.headerSize
        var next = [0, 0]
        while next[0] < sections[0].count || next[1] < sections[1].count {
            let s = next[0] < sections[0].count && sections[0].offset(next[0]) == expected ? 0 : 1
            guard next[s] < sections[s].count, sections[s].offset(next[s]) == expected else {
                throw damaged("a block index entry is out of place")
            }
            expected += sections[s].compressedLength(next[s])
            next[s] += 1
        }
        guard expected == ranges[0].0 else { throw damaged("the blocks do not fill the file before the indexes") }
        self.sections = sections
    }

    func blockCount(_ section: Section) -> Int { sections[section.rawValue].count }

    /// A block's entries, decompressed (kept for the next lookups).
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)``.
    func entries(_ section: Section, _ i: Int) throws -> [RowVersion] {
        try cache.value(section: section.rawValue, index: i) {
            let bytes = try blockBytes(section, i)
            var out: [RowVersion] = []
            try bytes.withUnsafeBytes { buffer in
                var r = ByteReader(buffer)
                do {
                    while !r.isAtEnd { out.append(try RunFormat.entry(&r)) }
                } catch {
                    throw damaged(section, i, "a block's entries do not decode: \(error)")
                }
            }
            return out
        }
    }

    /// A block's bytes, checked and decompressed, kept for the next lookups.
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)``.
    func cachedBlockBytes(_ section: Section, _ i: Int) throws -> [UInt8] {
        try byteCache.value(section: section.rawValue, index: i) { try blockBytes(section, i) }
    }

    /// A block's bytes, checked and decompressed (not kept).
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)``.
    func blockBytes(_ section: Section, _ i: Int) throws -> [UInt8] {
        let blocks = sections[section.rawValue]
        let offset = blocks.offset(i)
        let compressed = UnsafeRawBufferPointer(rebasing: file.bytes[offset..<(offset + blocks.compressedLength(i))])
        guard CRC32C.checksum(compressed) == blocks.crc(i) else { throw damaged(section, i, "a block fails its checksum") }
        do {
            return try decompressor.decompress(compressed, size: blocks.rawLength(i), dictionary: nil)
        } catch {
            throw damaged(section, i, "a block does not decompress: \(error)")
        }
    }

    /// The error for a damaged block.
    func damaged(_ section: Section, _ i: Int, _ reason: String) -> EventStoreError {
        .corrupted(location: path, offset: UInt64(sections[section.rawValue].offset(i)), reason: reason)
    }

    /// The index of the last block of a section whose first entry comes at or before (key, position) in stored
    /// order (the first block when none does).
    func startBlock(_ section: Section, _ key: RowKey, _ position: UInt64) -> Int? {
        let blocks = sections[section.rawValue]
        guard blocks.count > 0 else { return nil }
        var lo = 0
        var hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if !RunFormat.precedes(key, position, blocks.firstKey(mid), blocks.firstPosition(mid)) { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    /// The first version of a section in stored order at or after (key, position), if it is the key's.
    private func first(_ section: Section, _ key: RowKey, atOrAfter position: UInt64) throws -> (block: Int, entry: Int, entries: [RowVersion])? {
        guard var b = startBlock(section, key, position) else { return nil }
        while b < blockCount(section) {
            let entries = try self.entries(section, b)
            if let i = entries.firstIndex(where: { !RunFormat.precedes($0.key, $0.position, key, position) }) {
                return entries[i].key == key ? (b, i, entries) : nil
            }
            b += 1
        }
        return nil
    }

    /// A row's newest version at or before a position (`nil`: its newest), `nil` when this run has none.
    func version(of key: RowKey, asOf position: UInt64?) throws -> RowVersion? {
        if let position, position < minPosition { return nil }
        guard RunBloom.mayContain(bloom, key) else { return nil }
        // A run leaves a row's newest version out of its head only when it is absent and no older run may hold the
        // row: it shadows nothing, so the head alone answers for the present.
        guard let position else { return try headVersion(of: key) }
        if let hit = try first(.head, key, atOrAfter: .max), hit.entries[hit.entry].position <= position {
            return hit.entries[hit.entry]
        }
        guard let hit = try first(.history, key, atOrAfter: position) else { return nil }
        return hit.entries[hit.entry]
    }

    /// Whether this run may hold a row, given its key's ``RunBloom/hashes(_:)``: `false` is certain.
    func mayHold(_ hashes: (UInt64, UInt64)) -> Bool { RunBloom.mayContain(bloom, hashes) }

    /// For every row whose key starts with a prefix (a table's id, or a group's prefix), its newest version at or
    /// before a position, in stored order, absent rows included (a newer run's absence shadows an older run's row).
    func versions(prefix: [UInt8], asOf position: UInt64?) throws -> [RowVersion] {
        var newest: [RowVersion] = []
        try scan(.head, prefix) { newest.append($0) }
        guard let position else { return newest }
        // The head's versions that hold at the position; for the others, the history's newest at or before it.
        var out: [RowVersion] = []
        for v in newest where v.position <= position { out.append(v) }
        let found = Set(out.map(\.key))
        try scanHistory(prefix, asOf: position) { v in
            if !found.contains(v.key) { out.append(v) }
        }
        return out.sorted { RunFormat.precedes($0, $1) }
    }

    /// Visits a section's versions whose keys start with a prefix, in stored order.
    private func scan(_ section: Section, _ prefix: [UInt8], _ body: (RowVersion) -> Void) throws {
        guard let table = prefix.first else { return }
        let tableOnly = prefix.count == 1
        let target = RowKey(bytes: prefix)
        guard var b = tableOnly ? firstBlock(section, ofTable: table) : startBlock(section, target, .max) else { return }
        while b < blockCount(section) {
            for v in try entries(section, b) {
                if v.key.table < table { continue }
                guard v.key.table == table else { return }
                if !tableOnly {
                    if RunFormat.precedes(v.key, v.position, target, .max) { continue }
                    guard v.key.groupHash == target.groupHash else { return }
                    guard v.key.bytes.starts(with: prefix) else {
                        if RowKey.compareBytes(v.key, target) < 0 { continue }
                        return
                    }
                }
                body(v)
            }
            b += 1
        }
    }

    /// The last block of a section whose first row comes before the table's (the table's first rows may end it).
    func firstBlock(_ section: Section, ofTable table: UInt8) -> Int? {
        let blocks = sections[section.rawValue]
        guard blocks.count > 0 else { return nil }
        var lo = 0
        var hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if blocks.firstKey(mid).table < table { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    /// The position of a row's newest version marked kept in this run, `nil` when none is.
    func newestKept(_ key: RowKey) throws -> UInt64? {
        guard RunBloom.mayContain(bloom, key) else { return nil }
        if let hit = try first(.head, key, atOrAfter: .max), hit.entries[hit.entry].keep { return hit.entries[hit.entry].position }
        guard var hit = try first(.history, key, atOrAfter: .max) else { return nil }
        while true {
            while hit.entry < hit.entries.count {
                let v = hit.entries[hit.entry]
                guard v.key == key else { return nil }
                if v.keep { return v.position }
                hit.entry += 1
            }
            guard hit.block + 1 < blockCount(.history) else { return nil }
            hit = (hit.block + 1, 0, try entries(.history, hit.block + 1))
        }
    }
}

/// Walks a run's versions in stored order, the head's and the history's merged (a row's head version comes before
/// its history), one block of each decompressed at a time: a merge's input.
struct RunCursor {
    private struct SectionCursor {
        let section: RunReader.Section
        var block = 0
        var entries: [RowVersion] = []
        var index = 0

        init(_ section: RunReader.Section) { self.section = section }

        var current: RowVersion? { index < entries.count ? entries[index] : nil }

        mutating func load(_ reader: RunReader) throws {
            entries = reader.blockCount(section) == 0 ? [] : try reader.entries(section, 0)
            index = 0
        }

        mutating func advance(_ reader: RunReader) throws {
            index += 1
            while index >= entries.count, block + 1 < reader.blockCount(section) {
                block += 1
                entries = try reader.entries(section, block)
                index = 0
            }
        }
    }

    let reader: RunReader
    private var head = SectionCursor(.head)
    private var history = SectionCursor(.history)

    init(_ reader: RunReader) { self.reader = reader }

    /// Reads the first blocks.
    mutating func load() throws {
        try head.load(reader)
        try history.load(reader)
    }

    /// The version at the cursor, `nil` past the last.
    var current: RowVersion? {
        switch (head.current, history.current) {
        case (let h?, let o?): RunFormat.precedes(o, h) ? o : h
        case (let h?, nil): h
        case (nil, let o): o
        }
    }

    /// Moves to the next version.
    mutating func advance() throws {
        switch (head.current, history.current) {
        case (let h?, let o?): if RunFormat.precedes(o, h) { try history.advance(reader) } else { try head.advance(reader) }
        case (.some, nil): try head.advance(reader)
        case (nil, .some): try history.advance(reader)
        case (nil, nil): return
        }
    }
}
