import EventLog
import Foundation
import PawtrailIO
public import ProjectionRuntime
import Projections

/// The read models' states as files beside the log: `<store>/projections/<name>/v<schema>/` holds a `MANIFEST` and
/// run files (``RunFormat``), and `<store>/projections/<name>/lock` is `flock`ed by the one process writing the
/// projection's state at a time.
///
/// A commit writes its rows as new run files (flushed), then a new manifest naming them with the checkpoint, by an
/// atomic rename: a crash leaves the old state or the new one, never rows without their checkpoint. Files no manifest
/// names (a commit cut short) are removed by the next writer. Runs are merged as they pile up, each merge with the runs
/// of about its size (so that a row is rewritten about log(n) times), dropping the versions not kept that newer ones
/// replace. A store that cannot be written (a read-only mount) is read as it is: ``tryLock(_:)`` returns `nil`.
public final class FileProjectionStateStore: ProjectionStateStore, @unchecked Sendable {
    /// The `projections` directory.
    public let root: String
    /// Bytes of row versions a writer holds before it writes them as a run.
    let spillBytes: Int
    /// The personal index, beside the states.
    private let index: SQLitePersonalIndex

    /// Creates the store of a log directory.
    ///
    /// - Parameter storePath: The log's directory.
    public init(storePath: String, spillBytes: Int = 96 << 20) {
        root = storePath + "/projections"
        self.spillBytes = spillBytes
        index = SQLitePersonalIndex(directory: root)
    }

    public func personalIndex() throws -> (any PersonalIndex)? { index }

    func directory(_ name: String) -> String { root + "/" + name }
    func versionDirectory(_ name: String, _ version: Int) -> String { directory(name) + "/v\(version)" }

    private func io(_ error: SystemError, _ what: String) -> EventStoreError {
        EventStoreError.io(operation: what, path: error.path.isEmpty ? root : error.path, errno: error.errno)
    }

    // MARK: - ProjectionStateStore

    public func open(_ name: String, version: Int) throws -> (any StoredProjectionState)? {
        try openState(name, version)
    }

    func openState(_ name: String, _ version: Int) throws -> FileStoredState? {
        let dir = versionDirectory(name, version)
        // A writer removes the runs a merge replaced right after renaming its manifest: a reader that read the old
        // manifest may find one gone, and reads the new manifest instead.
        for attempt in 0..<8 {
            guard let manifest = try readManifest(dir) else { return nil }
            do {
                let runs = try manifest.runs.map { try RunReader(path: dir + "/" + $0.fileName) }
                return FileStoredState(manifest: manifest, runs: runs)
            } catch let e as SystemError where e.errno == ENOENT && attempt < 7 {
                continue
            } catch EventStoreError.Code.incompatibleFormat {
                // Runs of another build's format: no state this build can read, rebuilt like a schema change.
                return nil
            } catch let e as SystemError {
                throw io(e, "open projection state")
            }
        }
        return nil
    }

    func readManifest(_ dir: String) throws -> StateManifest? {
        let path = dir + "/" + StateManifest.fileName
        guard FileSystem.exists(path) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            if error.errno == ENOENT { return nil }
            throw io(error, "read projection state")
        }
        guard let manifest = StateManifest.decode(bytes) else {
            throw EventStoreError.corrupted(location: path, offset: 0, reason: "the manifest of a projection's state does not decode")
        }
        return manifest
    }

    public func tryLock(_ name: String) throws -> (any ProjectionLock)? {
        do {
            try FileSystem.createDirectories(directory(name))
            let fd = try FileDescriptor.open(directory(name) + "/lock", .readWriteCreate)
            guard try fd.lockExclusive(wait: false) else { return nil }
            return FileStateLock(fd: fd)
        } catch let e where [EROFS, EACCES, EPERM].contains(e.errno) {
            // A store nobody can write here: readers fold in memory and save nothing.
            return nil
        } catch {
            throw io(error, "lock projection")
        }
    }

    public func writer(_ name: String, version: Int, replacing: Bool) throws -> any StateWriter {
        let dir = versionDirectory(name, version)
        do {
            try FileSystem.createDirectories(dir)
        } catch {
            throw io(error, "create projection state")
        }
        let current = try readManifest(dir)
        removeLeftovers(dir, keeping: current)
        return FileStateWriter(store: self, directory: dir, current: current, replacing: replacing)
    }

    public func versions(of name: String) throws -> [Int] {
        guard FileSystem.isDirectory(directory(name)) else { return [] }
        do {
            return try FileSystem.contentsOfDirectory(directory(name)).compactMap { entry -> Int? in
                guard entry.hasPrefix("v"), let v = Int(entry.dropFirst()),
                    FileSystem.exists(versionDirectory(name, v) + "/" + StateManifest.fileName)
                else { return nil }
                return v
            }.sorted()
        } catch {
            throw io(error, "list projection states")
        }
    }

    public func remove(_ name: String, version: Int) throws {
        let dir = versionDirectory(name, version)
        do {
            // The manifest first: a crash midway leaves no state, rather than a manifest naming removed runs.
            if FileSystem.exists(dir + "/" + StateManifest.fileName) { try FileSystem.removeFile(dir + "/" + StateManifest.fileName) }
            if FileSystem.isDirectory(dir) {
                for entry in try FileSystem.contentsOfDirectory(dir) { try FileSystem.removeFile(dir + "/" + entry) }
            }
        } catch {
            throw io(error, "remove projection state")
        }
        rmdir(dir)
        removeLegacyFiles(name)
    }

    /// Removes what earlier builds kept per projection: a whole-state checkpoint file (`v<n>.ckpt`) and its snapshots
    /// (`v<n>.snapshots/`). A build that finds no state of its own rebuilds it.
    func removeLegacyFiles(_ name: String) {
        guard let entries = try? FileSystem.contentsOfDirectory(directory(name)) else { return }
        for entry in entries where entry.hasSuffix(".ckpt") || entry.hasSuffix(".snapshots") {
            let path = directory(name) + "/" + entry
            if entry.hasSuffix(".snapshots"), let snaps = try? FileSystem.contentsOfDirectory(path) {
                for s in snaps { try? FileSystem.removeFile(path + "/" + s) }
                rmdir(path)
            } else {
                try? FileSystem.removeFile(path)
            }
        }
    }

    /// Removes run files no manifest names and temporary files: what a writer killed midway left. Under the lock.
    private func removeLeftovers(_ dir: String, keeping manifest: StateManifest?) {
        let named = Set(manifest?.runs.map(\.fileName) ?? []).union([StateManifest.fileName])
        guard let entries = try? FileSystem.contentsOfDirectory(dir) else { return }
        for entry in entries where !named.contains(entry) { try? FileSystem.removeFile(dir + "/" + entry) }
    }

    /// Writes a manifest in place of the current one, atomically and durably.
    func writeManifest(_ manifest: StateManifest, in dir: String) throws {
        do {
            try FileSystem.writeAtomically(manifest.encoded(), to: dir + "/" + StateManifest.fileName, sync: true)
            try FileSystem.synchronizeDirectory(dir)
        } catch {
            throw io(error, "write projection state")
        }
    }
}

/// An `flock` held on a projection's lock file; closing the descriptor releases it.
final class FileStateLock: ProjectionLock, @unchecked Sendable {
    private let fd: FileDescriptor

    init(fd: FileDescriptor) {
        self.fd = fd
    }

    func unlock() {
        try? fd.unlock()
    }
}
