import EventLog
import Foundation
import PawtrailIO

/// The file that marks a directory as a Pawtrail store and says which format wrote it.
///
/// Layout (44 bytes): "PAWTRAIL" (8), format version u16, minimum reader version u16, reserved u32,
/// created-at µs i64, store id (16 bytes), CRC32C of the preceding 40 bytes u32.
struct StoreManifest {
    var formatVersion: UInt16
    var minimumReaderVersion: UInt16
    var createdAt: Timestamp
    var storeID: UUID

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: 44)
        w.write(bytes: LogFormat.manifestMagic)
        w.write(formatVersion)
        w.write(minimumReaderVersion)
        w.write(UInt32(0))
        w.write(createdAt.microsecondsSinceEpoch)
        withUnsafeBytes(of: storeID.uuid) { w.write(bytes: $0) }
        w.write(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    /// Whether a directory entry is one a store (or its creation, cut short) makes, or a file system's own.
    private static func isStoreEntry(_ name: String) -> Bool {
        let names: Set<String> = [
            LogFormat.manifestName, LogFormat.lockName, LogFormat.compactionLockName, LogFormat.headName,
            LogFormat.segmentsDirectory, LogFormat.dictionariesDirectory, LogFormat.runsDirectory, "projections", "lost+found",
        ]
        // A manifest or head being written (or left by a creation cut short) has its final name before `.tmp-`.
        return names.contains(name) || (FileSystem.temporaryOwner(ofName: name) != nil
            && [LogFormat.manifestName, LogFormat.headName].contains { name.hasPrefix($0 + ".tmp-") })
    }

    /// Opens the store directory's manifest, creating the store when asked.
    ///
    /// - Throws: ``EventStoreError/storeNotFound(location:)``, ``EventStoreError/incompatibleFormat(location:found:supported:)``,
    ///   ``EventStoreError/corrupted(location:offset:reason:)``.
    static func openOrCreate(root: String, create: Bool) throws -> StoreManifest {
        let path = root + "/" + LogFormat.manifestName
        if !FileSystem.exists(path) {
            if FileSystem.exists(root) && !FileSystem.isDirectory(root) {
                throw EventStoreError.storeFailure("\(root) exists and is not a directory")
            }
            guard create else {
                // A directory holding only what a creation makes may be one under way in another process (or cut
                // short, or a mount point's `lost+found`): no store yet, once that creation is waited for. A domain
                // command then creates it with its first append, as `log append` does (else four first commands at
                // once on a new store would fail with 74, "is not a Pawtrail store").
                let entries = FileSystem.isDirectory(root) ? try FileSystem.contentsOfDirectory(root) : []
                guard !entries.isEmpty else { throw EventStoreError.storeNotFound(location: root) }
                guard entries.allSatisfy(isStoreEntry) else {
                    throw EventStoreError.storeFailure("\(root) is not a Pawtrail store (it has no \(LogFormat.manifestName))")
                }
                try underCreationLock(root: root, manifest: path) {
                    throw EventStoreError.storeNotFound(location: root)
                }
                return try read(path: path, root: root)
            }
            if FileSystem.isDirectory(root) {
                // A store is made only in a new or empty directory (or over what a creation cut short left), never
                // among someone's files: `--store ~/Documents` must not scatter a store through them.
                let foreign = try FileSystem.contentsOfDirectory(root).filter { !isStoreEntry($0) }
                if !foreign.isEmpty {
                    let shown = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? ", ..." : "")
                    throw EventStoreError.storeFailure(
                        "\(root) is not a Pawtrail store and is not empty (it holds \(shown)); a store is created only in a new or empty directory")
                }
            }
            try FileSystem.createDirectories(root)
            try underCreationLock(root: root, manifest: path) {
                try FileSystem.createDirectory(root + "/" + LogFormat.segmentsDirectory)
                try FileSystem.createDirectory(root + "/" + LogFormat.dictionariesDirectory)
                try FileSystem.synchronizeDirectory(root)
                let m = StoreManifest(
                    formatVersion: LogFormat.formatVersion, minimumReaderVersion: LogFormat.minimumReaderVersion,
                    createdAt: .now(), storeID: UUID())
                try FileSystem.writeAtomically(m.encoded(), to: path, sync: true)
            }
        }
        return try read(path: path, root: root)
    }

    /// Runs `body` when the manifest is still missing, holding the lock of the store directory itself, which every
    /// creation holds until its manifest is written. Processes that create the same store at once (the first appends
    /// of several scripts) take turns on it: without it, one could find the segments another had just begun without
    /// the manifest it was about to write, and call the store damaged (found by a test of four processes appending to
    /// a new store on a loaded machine), or two could each write a manifest; and an open that must not create waits
    /// for a creation under way instead of calling the directory foreign.
    ///
    /// - Throws: ``EventStoreError/corrupted(location:offset:reason:)`` when the store holds segments without their
    ///   manifest (a damaged store, never one to start afresh over), and what `body` throws.
    private static func underCreationLock(root: String, manifest path: String, _ body: () throws -> Void) throws {
        let directory = try FileDescriptor.openDirectory(root)
        _ = try directory.lockExclusive()
        defer { try? directory.unlock() }
        guard !FileSystem.exists(path) else { return }
        let segments = root + "/" + LogFormat.segmentsDirectory
        if FileSystem.isDirectory(segments), try !FileSystem.contentsOfDirectory(segments).isEmpty {
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "the store manifest is missing, but the store holds segments")
        }
        try body()
    }

    /// Reads and checks the manifest.
    private static func read(path: String, root: String) throws -> StoreManifest {
        let bytes = try FileSystem.readFile(path)
        guard bytes.count == 44, Array(bytes[0..<8]) == LogFormat.manifestMagic else {
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "not a Pawtrail store manifest")
        }
        return try bytes.withUnsafeBytes { raw in
            let version = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self).littleEndian
            let minimum = raw.loadUnaligned(fromByteOffset: 10, as: UInt16.self).littleEndian
            guard minimum <= LogFormat.readableVersion else {
                throw EventStoreError.incompatibleFormat(location: root, found: Int(version), supported: Int(LogFormat.readableVersion))
            }
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<40])) == raw.loadUnaligned(fromByteOffset: 40, as: UInt32.self).littleEndian else {
                throw EventStoreError.corrupted(location: path, offset: 0, reason: "store manifest checksum mismatch")
            }
            return StoreManifest(
                formatVersion: version, minimumReaderVersion: minimum,
                createdAt: Timestamp(microsecondsSinceEpoch: raw.loadUnaligned(fromByteOffset: 16, as: Int64.self).littleEndian),
                storeID: UUID(uuid: raw.loadUnaligned(fromByteOffset: 24, as: uuid_t.self)))
        }
    }
}
