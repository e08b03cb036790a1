public import EventLog
import PawtrailIO
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Personal-data keys as files in the store's `keys` directory, one per subject: `HEX.key` holds the 32-byte key
/// and `HEX.erased` (empty) marks a destroyed one, where HEX spells the subject's UTF-8 bytes.
///
/// Keys live beside the log, never in it: destroying one overwrites its file with zeros, flushes, and unlinks it,
/// and the subject's sealed values in the log can no longer be opened. A backup of the store directory carries the
/// keys with the log, and so does a copy of it.
public final class FilePersonalDataKeys: PersonalDataKeys {
    /// The directory the keys are in.
    public let directory: String
    private let cache = Mutex<[String: [UInt8]?]>([:])

    /// Uses the `keys` directory of a store, created when the first key is.
    ///
    /// - Parameter storePath: The store's directory.
    public init(storePath: String) {
        directory = storePath + "/keys"
    }

    public func key(for subject: String) async throws -> [UInt8]? {
        if let cached = cache.withLock({ $0[subject] }) { return cached }
        // A found key is remembered, and so is a destroyed one (for good); a subject with neither is not: another
        // process may create its key at any moment.
        guard let key = try read(subject) else {
            if FileSystem.exists(path(subject, "erased")) { cache.withLock { $0[subject] = .some(nil) } }
            return nil
        }
        cache.withLock { $0[subject] = key }
        return key
    }

    public func createKey(for subject: String, make: @Sendable () -> [UInt8]) async throws -> [UInt8]? {
        if let existing = try await key(for: subject) { return existing }
        if FileSystem.exists(path(subject, "erased")) { return nil }
        do { try create(subject, key: make()) } catch { throw EventStoreError(error) }
        return try await key(for: subject)
    }

    private func create(_ subject: String, key: [UInt8]) throws(SystemError) {
        if !FileSystem.isDirectory(directory) {
            try FileSystem.createDirectories(directory)
            try FileSystem.synchronizeDirectory(FileSystem.directoryName(of: directory))
        }
        // Created exclusively: of two processes sealing for one new subject, one key wins and both use it.
        let temporary = FileSystem.temporaryPath(
            for: path(subject, "key"), uuid: FileSystem.randomUUIDString())
        let fd = try FileDescriptor.open(temporary, .createExclusive)
        try fd.write(key, at: 0)
        try fd.synchronizeData()
        if link(temporary, path(subject, "key")) != 0 && errno != EEXIST {
            let e = errno
            try? FileSystem.removeFile(temporary)
            throw SystemError(operation: "link", path: path(subject, "key"), errno: e)
        }
        try FileSystem.removeFile(temporary)
        try FileSystem.synchronizeDirectory(directory)
    }

    public func destroyKey(for subject: String) async throws {
        do { try destroy(subject) } catch { throw EventStoreError(error) }
        cache.withLock { $0[subject] = .some(nil) }
    }

    private func destroy(_ subject: String) throws(SystemError) {
        try FileSystem.createDirectories(directory)
        try FileSystem.writeAtomically([], to: path(subject, "erased"))
        let keyPath = path(subject, "key")
        if FileSystem.exists(keyPath) {
            let fd = try FileDescriptor.open(keyPath, .readWrite)
            try fd.write([UInt8](repeating: 0, count: Int(try fd.size())), at: 0)
            try fd.synchronizeData()
            try FileSystem.removeFile(keyPath)
        }
        try FileSystem.synchronizeDirectory(directory)
    }

    private func read(_ subject: String) throws -> [UInt8]? {
        let keyPath = path(subject, "key")
        guard FileSystem.exists(keyPath) else { return nil }
        let bytes: [UInt8]
        do { bytes = try FileSystem.readFile(keyPath) } catch { throw EventStoreError(error) }
        guard bytes.count == 32, bytes.contains(where: { $0 != 0 }) else {
            throw EventStoreError.corrupted(
                location: keyPath, offset: nil,
                reason: "a key file holds 32 non-zero bytes, not these \(bytes.count)")
        }
        return bytes
    }

    private func path(_ subject: String, _ suffix: String) -> String {
        directory + "/" + LowercaseHex.encode(subject.utf8) + "." + suffix
    }
}
