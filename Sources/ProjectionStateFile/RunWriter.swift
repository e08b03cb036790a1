import EventLog
import PawtrailIO
import Projections

/// Writes row versions, already in stored order (``RunFormat/precedes(_:_:)``), as a run file: each row's first
/// version to the head, the others to the history (see ``RunFormat``), blocks compressed as they fill, then the two
/// block indexes, the Bloom filter and the footer. The file is written under a temporary name and flushed;
/// ``finish(sync:)`` renames it into place.
final class RunWriter {
    /// One section's block being filled and its index so far.
    private struct Section {
        var block = ByteWriter(capacity: RunFormat.blockSize + 4096)
        var first: (key: RowKey, position: UInt64)?
        var index = ByteWriter()
        var blockCount = 0
    }

    let path: String
    private let temporaryPath: String
    private let fd: FileDescriptor
    private let compressor = ZstdCompressor()
    private let level: Int32
    /// Whether an older run of the state may hold a row, given its key's ``RunBloom/hashes(_:)``: an absent row's
    /// newest version that shadows nothing goes to the history only.
    private let olderMayHold: ((UInt64, UInt64)) throws -> Bool
    private var offset: UInt64
    private var head = Section()
    private var history = Section()
    private var keys: [(UInt64, UInt64)] = []
    private var lastKey: RowKey?
    private var compressed: [UInt8] = []
    private(set) var versionCount = 0
    private(set) var minPosition = UInt64.max
    private(set) var maxPosition: UInt64 = 0

    /// Starts a run file.
    ///
    /// - Parameters:
    ///   - path: Where the finished run goes.
    ///   - olderMayHold: Whether a run older than this one may hold a row, given its key's ``RunBloom/hashes(_:)``
    ///     (asked of absent rows only; `true` when unsure).
    ///   - level: The zstd level of its blocks.
    /// - Throws: ``SystemError``, or what `olderMayHold` throws.
    init(path: String, olderMayHold: @escaping ((UInt64, UInt64)) throws -> Bool, level: Int32 = 1) throws {
        self.path = path
        self.olderMayHold = olderMayHold
        temporaryPath = FileSystem.temporaryPath(for: path, uuid: FileSystem.randomUUIDString())
        fd = try FileDescriptor.open(temporaryPath, .createExclusive)
        self.level = level
        var header = ByteWriter()
        header.write(bytes: RunFormat.magic)
        header.write(RunFormat.version)
        header.write(UInt16(0))
        header.write(UInt32(0))
        try fd.write(header.bytes, at: 0)
        offset = UInt64(RunFormat.headerSize)
    }

    deinit {
        // Not finished: nothing was renamed into place.
        if FileSystem.exists(temporaryPath) { try? FileSystem.removeFile(temporaryPath) }
    }

    /// Adds the next version; versions must come in stored order.
    func add(_ v: RowVersion) throws {
        versionCount += 1
        minPosition = min(minPosition, v.position)
        maxPosition = max(maxPosition, v.position)
        let newest = lastKey != v.key
        var hashes = (UInt64(0), UInt64(0))
        if newest {
            hashes = v.key.bytes.withUnsafeBytes { RunBloom.hashes($0) }
            keys.append(hashes)
            lastKey = v.key
        }
        if try newest && (v.value != nil || olderMayHold(hashes)) {
            try add(v, to: &head)
        } else {
            try add(v, to: &history)
        }
    }

    /// Adds the next version, a packed one (see ``RowVersions``); versions must come in stored order.
    func add(_ packed: RowVersions, _ i: Int, sameKeyAsPrevious: Bool) throws {
        let e = packed.entries[i]
        versionCount += 1
        minPosition = min(minPosition, e.position)
        maxPosition = max(maxPosition, e.position)
        try packed.buffer.bytes.withUnsafeBytes { b in
            let key = UnsafeRawBufferPointer(rebasing: b[e.keyStart..<e.valueStart])
            var toHead = false
            if !sameKeyAsPrevious {
                let hashes = RunBloom.hashes(key)
                keys.append(hashes)
                lastKey = nil
                toHead = try e.valueCount >= 0 || olderMayHold(hashes)
            }
            func write(_ section: inout Section) throws {
                if section.first == nil { section.first = (RowKey(bytes: Array(key)), e.position) }
                let w = { (block: inout ByteWriter) in
                    block.writeVarint(UInt64(key.count))
                    block.write(bytes: key)
                    block.writeVarint(e.position)
                    block.write(UInt8((e.keep ? RunFormat.keptFlag : 0) | (e.valueCount < 0 ? RunFormat.absentFlag : 0)))
                    if e.valueCount >= 0 {
                        block.writeVarint(UInt64(e.valueCount))
                        block.write(bytes: UnsafeRawBufferPointer(rebasing: b[e.valueStart..<(e.valueStart + Int(e.valueCount))]))
                    }
                }
                w(&section.block)
                if section.block.count >= RunFormat.blockSize { try flush(&section) }
            }
            if toHead { try write(&head) } else { try write(&history) }
        }
    }

    private func add(_ v: RowVersion, to section: inout Section) throws {
        if section.first == nil { section.first = (v.key, v.position) }
        RunFormat.append(v, to: &section.block)
        if section.block.count >= RunFormat.blockSize { try flush(&section) }
    }

    private func flush(_ section: inout Section) throws {
        guard let first = section.first else { return }
        compressed.removeAll(keepingCapacity: true)
        try section.block.bytes.withUnsafeBytes { try compressor.compress($0, level: level, dictionary: nil, appendingTo: &compressed) }
        try fd.write(compressed, at: offset)
        section.index.write(offset)
        section.index.write(UInt32(compressed.count))
        section.index.write(UInt32(section.block.count))
        section.index.write(compressed.withUnsafeBytes { CRC32C.checksum($0) })
        section.index.write(UInt16(first.key.bytes.count))
        section.index.write(bytes: first.key.bytes)
        section.index.write(first.position)
        offset += UInt64(compressed.count)
        section.blockCount += 1
        section.block = ByteWriter(capacity: RunFormat.blockSize + 4096)
        section.first = nil
    }

    /// Writes the indexes, the filter and the footer, flushes, and renames the file into place.
    ///
    /// - Parameter sync: Whether to flush the file to the disk first.
    /// - Returns: The file's size.
    @discardableResult
    func finish(sync: Bool = true) throws -> UInt64 {
        try flush(&head)
        try flush(&history)
        var footer = ByteWriter()
        var checksums: [UInt32] = []
        for section in [head, history] {
            var bytes = ByteWriter()
            bytes.write(UInt32(section.blockCount))
            bytes.write(bytes: section.index.bytes)
            try fd.write(bytes.bytes, at: offset)
            footer.write(offset)
            footer.write(UInt64(bytes.count))
            checksums.append(CRC32C.checksum(bytes.bytes))
            offset += UInt64(bytes.count)
        }
        let bloom = RunBloom.encode(keys)
        try fd.write(bloom, at: offset)
        footer.write(offset)
        footer.write(UInt64(bloom.count))
        offset += UInt64(bloom.count)
        checksums.append(CRC32C.checksum(bloom))
        footer.write(UInt64(versionCount))
        footer.write(UInt64(keys.count))
        footer.write(versionCount == 0 ? 0 : minPosition)
        footer.write(maxPosition)
        for c in checksums { footer.write(c) }
        footer.write(CRC32C.checksum(footer.bytes))
        footer.write(bytes: RunFormat.endMagic)
        try fd.write(footer.bytes, at: offset)
        offset += UInt64(footer.count)
        if sync { try fd.synchronizeData() }
        try FileSystem.rename(temporaryPath, to: path)
        return offset
    }
}
