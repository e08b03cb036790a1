import EventLog
import PawtrailIO
import Projections

/// Writes row versions, already in stored order (``RunFormat/precedes(_:_:)``), as a run file: blocks compressed as
/// they fill, then the block index, the Bloom filter and the footer. The file is written under a temporary name and
/// flushed; ``finish()`` renames it into place.
final class RunWriter {
    let path: String
    private let temporaryPath: String
    private let fd: FileDescriptor
    private let compressor = ZstdCompressor()
    private let level: Int32
    private var offset: UInt64
    private var block = ByteWriter(capacity: RunFormat.blockSize + 4096)
    private var blockFirst: (key: RowKey, position: UInt64)?
    private var index = ByteWriter()
    private var blockCount = 0
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
    ///   - level: The zstd level of its blocks.
    /// - Throws: ``SystemError``.
    init(path: String, level: Int32 = 1) throws {
        self.path = path
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
        if blockFirst == nil { blockFirst = (v.key, v.position) }
        RunFormat.append(v, to: &block)
        versionCount += 1
        minPosition = min(minPosition, v.position)
        maxPosition = max(maxPosition, v.position)
        if lastKey != v.key {
            keys.append(RunBloom.hashes(v.key))
            lastKey = v.key
        }
        if block.count >= RunFormat.blockSize { try flushBlock() }
    }

    private func flushBlock() throws {
        guard let first = blockFirst else { return }
        compressed.removeAll(keepingCapacity: true)
        try block.bytes.withUnsafeBytes { try compressor.compress($0, level: level, dictionary: nil, appendingTo: &compressed) }
        try fd.write(compressed, at: offset)
        index.write(offset)
        index.write(UInt32(compressed.count))
        index.write(UInt32(block.count))
        index.write(compressed.withUnsafeBytes { CRC32C.checksum($0) })
        index.write(UInt16(first.key.bytes.count))
        index.write(bytes: first.key.bytes)
        index.write(first.position)
        offset += UInt64(compressed.count)
        blockCount += 1
        block = ByteWriter(capacity: RunFormat.blockSize + 4096)
        blockFirst = nil
    }

    /// Writes the index, the filter and the footer, flushes, and renames the file into place.
    ///
    /// - Parameter sync: Whether to flush the file to the disk first.
    /// - Returns: The file's size.
    @discardableResult
    func finish(sync: Bool = true) throws -> UInt64 {
        try flushBlock()
        var indexBytes = ByteWriter()
        indexBytes.write(UInt32(blockCount))
        indexBytes.write(bytes: index.bytes)
        let bloom = RunBloom.encode(keys)
        let indexOffset = offset
        try fd.write(indexBytes.bytes, at: offset)
        offset += UInt64(indexBytes.count)
        let bloomOffset = offset
        try fd.write(bloom, at: offset)
        offset += UInt64(bloom.count)
        var footer = ByteWriter()
        footer.write(indexOffset)
        footer.write(UInt64(indexBytes.count))
        footer.write(bloomOffset)
        footer.write(UInt64(bloom.count))
        footer.write(UInt64(versionCount))
        footer.write(UInt64(keys.count))
        footer.write(versionCount == 0 ? 0 : minPosition)
        footer.write(maxPosition)
        footer.write(CRC32C.checksum(indexBytes.bytes))
        footer.write(CRC32C.checksum(bloom))
        footer.write(CRC32C.checksum(footer.bytes))
        footer.write(bytes: RunFormat.endMagic)
        try fd.write(footer.bytes, at: offset)
        offset += UInt64(footer.count)
        if sync { try fd.synchronizeData() }
        try FileSystem.rename(temporaryPath, to: path)
        return offset
    }
}
