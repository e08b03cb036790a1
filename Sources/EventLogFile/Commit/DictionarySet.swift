import EventLog
import Foundation
import PawtrailIO

/// The store's zstd dictionaries, trained from its own events and kept in `dictionaries/` for good: frames
/// name the dictionary they were compressed with, so a dictionary file is never changed or removed.
///
/// File layout: "PTDICT01" (8), id u32, length u32, CRC32C of the dictionary u32, reserved u32, dictionary.
final class DictionarySet: @unchecked Sendable {
    struct Entry {
        var id: UInt32
        var commit: ZstdDictionary
        var block: ZstdDictionary
    }

    static let magic: [UInt8] = Array("PTDICT01".utf8)
    let directory: String
    let commitLevel: Int32
    let blockLevel: Int32
    private let lock = NSLock()
    private var entries: [UInt32: Entry] = [:]

    init(directory: String, commitLevel: Int32, blockLevel: Int32) {
        self.directory = directory
        self.commitLevel = commitLevel
        self.blockLevel = blockLevel
    }

    static func fileName(_ id: UInt32) -> String {
        let d = String(id)
        return String(repeating: "0", count: 8 - d.count) + d + ".zdict"
    }

    /// The ids of the dictionaries on disk.
    func idsOnDisk() throws -> [UInt32] {
        guard FileSystem.isDirectory(directory) else { return [] }
        return try FileSystem.contentsOfDirectory(directory).compactMap { name in
            name.hasSuffix(".zdict") ? UInt32(name.dropLast(6)) : nil
        }.sorted()
    }

    private var newestID: UInt32?
    private var listedAt = ContinuousClock.now - .seconds(10)

    /// The newest dictionary, loading it if another process trained it. The directory is listed at most once a
    /// second: a dictionary another process just trained is picked up a moment later, which costs only ratio.
    func newest() throws -> Entry? {
        let now = ContinuousClock.now
        lock.lock()
        let stale = now - listedAt > .seconds(1)
        var id = newestID
        lock.unlock()
        if stale {
            let listed = try idsOnDisk().last
            if let listed, listed != id {
                // Another process's dictionary: make sure its name is durable before any of our frames
                // depends on it.
                try FileSystem.synchronizeDirectory(directory)
            }
            id = listed
            lock.lock()
            newestID = id
            listedAt = now
            lock.unlock()
        }
        guard let id else { return nil }
        return try get(id)
    }

    var count: Int { (try? idsOnDisk().count) ?? 0 }

    /// The digested dictionary a frame names: blocks and single commits are compressed at different levels.
    func dictionary(for header: FrameHeader) throws -> ZstdDictionary {
        let entry = try get(header.dictionaryID)
        return header.type == .block ? entry.block : entry.commit
    }

    /// A dictionary by id, loaded on first use.
    func get(_ id: UInt32) throws -> Entry {
        lock.lock()
        defer { lock.unlock() }
        if let e = entries[id] { return e }
        let path = directory + "/" + Self.fileName(id)
        guard FileSystem.exists(path) else {
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "dictionary \(id) is missing, but frames were compressed with it")
        }
        let bytes = try FileSystem.readFile(path)
        guard bytes.count >= 24, Array(bytes[0..<8]) == Self.magic else {
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "not a Pawtrail dictionary")
        }
        let (storedID, length, crc) = bytes.withUnsafeBytes { raw in
            (raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian,
             Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian),
             raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self).littleEndian)
        }
        let dict = Array(bytes[24...])
        guard storedID == id, dict.count == length, CRC32C.checksum(dict) == crc else {
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "dictionary checksum or length mismatch")
        }
        let e = Entry(id: id, commit: try ZstdDictionary(bytes: dict, level: commitLevel), block: try ZstdDictionary(bytes: dict, level: blockLevel))
        entries[id] = e
        return e
    }

    /// Stores the store's first dictionary durably (flushed, then linked into place, directory flushed), unless
    /// another process got there first: a dictionary file, once named, is never replaced, because frames that
    /// name it must always decompress with the same bytes.
    ///
    /// - Returns: The dictionary now in use (ours, or the one another process stored first).
    @discardableResult
    func addFirst(_ dictionary: [UInt8]) throws -> Entry? {
        try FileSystem.createDirectories(directory)
        if let existing = try idsOnDisk().first { return try get(existing) }
        let id: UInt32 = 1
        var w = ByteWriter(capacity: 24 + dictionary.count)
        w.write(bytes: Self.magic)
        w.write(id)
        w.write(UInt32(dictionary.count))
        w.write(CRC32C.checksum(dictionary))
        w.write(UInt32(0))
        w.write(bytes: dictionary)
        let final = directory + "/" + Self.fileName(id)
        let temporary = FileSystem.temporaryPath(for: final, uuid: FileSystem.randomUUIDString())
        defer { try? FileSystem.removeFile(temporary) }
        let fd = try FileDescriptor.open(temporary, .readWriteCreate)
        try fd.truncate(to: 0)
        try fd.write(w.bytes, at: 0)
        try fd.synchronizeData()
        guard link(temporary, final) == 0 else {
            if errno == EEXIST { return try get(id) }
            throw SystemError(operation: "link", path: final, errno: errno)
        }
        try FileSystem.synchronizeDirectory(directory)
        lock.lock()
        newestID = id
        listedAt = ContinuousClock.now
        lock.unlock()
        return try get(id)
    }
}
