import EventLog
import Foundation
import PawtrailIO

/// Checkpoints and snapshots as files beside the log: `<store>/projections/<name>/v<version>.ckpt`, snapshots in
/// `v<version>.snapshots/<position>.snap`, and a `lock` file whose `flock` serializes the writers of one
/// projection across processes.
public final class FileCheckpointStore: CheckpointStore {
    /// The `projections` directory.
    public let root: String

    /// Creates a store under a log directory.
    ///
    /// - Parameter storePath: The log's directory.
    public init(storePath: String) {
        root = storePath + "/projections"
    }

    private func directory(_ name: String) -> String { root + "/" + name }
    private func checkpointPath(_ name: String, _ version: Int) -> String { directory(name) + "/v\(version).ckpt" }
    private func snapshotDirectory(_ name: String, _ version: Int) -> String { directory(name) + "/v\(version).snapshots" }

    private static func padded(_ p: UInt64) -> String {
        let s = String(p)
        return String(repeating: "0", count: 20 - s.count) + s
    }

    private func io(_ error: SystemError, _ what: String) -> EventStoreError {
        EventStoreError.io(operation: what, path: root, errno: error.errno)
    }

    public func load(_ name: String, version: Int) throws -> Checkpoint? {
        let path = checkpointPath(name, version)
        guard FileSystem.exists(path) else { return nil }
        do {
            return CheckpointCodec.decode(try FileSystem.readFile(path)).flatMap { $0.name == name && $0.schemaVersion == version ? $0 : nil }
        } catch {
            throw io(error, "read checkpoint")
        }
    }

    public func header(_ name: String, version: Int) throws -> Checkpoint? {
        let path = checkpointPath(name, version)
        guard FileSystem.exists(path) else { return nil }
        do {
            let fd = try FileDescriptor.open(path, .readOnly)
            let prefix = try fd.read(at: 0, count: Int(min(4096, try fd.size())))
            return CheckpointCodec.decodeHeader(prefix).flatMap { $0.name == name && $0.schemaVersion == version ? $0 : nil }
        } catch {
            throw io(error, "read checkpoint")
        }
    }

    public func save(_ checkpoint: Checkpoint) throws {
        do {
            try FileSystem.createDirectories(directory(checkpoint.name))
            try FileSystem.writeAtomically(parts: CheckpointCodec.encodedParts(checkpoint), to: checkpointPath(checkpoint.name, checkpoint.schemaVersion))
        } catch {
            throw io(error, "write checkpoint")
        }
    }

    public func versions(of name: String) throws -> [Int] {
        guard FileSystem.isDirectory(directory(name)) else { return [] }
        do {
            return try FileSystem.contentsOfDirectory(directory(name)).compactMap { file -> Int? in
                guard file.hasPrefix("v"), file.hasSuffix(".ckpt") else { return nil }
                return Int(file.dropFirst().dropLast(5))
            }.sorted()
        } catch {
            throw io(error, "list checkpoints")
        }
    }

    public func remove(_ name: String, version: Int) throws {
        try removeSnapshots(name, version: version)
        do {
            if FileSystem.exists(checkpointPath(name, version)) { try FileSystem.removeFile(checkpointPath(name, version)) }
        } catch {
            throw io(error, "remove checkpoint")
        }
        // The emptied snapshot directory may stay; removing it is tidiness, not correctness.
        rmdir(snapshotDirectory(name, version))
    }

    public func saveSnapshot(_ name: String, version: Int, position: UInt64, state: [UInt8]) throws {
        let dir = snapshotDirectory(name, version)
        do {
            try FileSystem.createDirectories(dir)
            // The state and its checksum written one after the other, not copied together first.
            let crc = withUnsafeBytes(of: CRC32C.checksum(state).littleEndian) { Array($0) }
            try FileSystem.writeAtomically(parts: [state, crc], to: dir + "/" + Self.padded(position) + ".snap", sync: false)
        } catch {
            throw io(error, "write snapshot")
        }
    }

    public func snapshotPositions(_ name: String, version: Int) throws -> [UInt64] {
        let dir = snapshotDirectory(name, version)
        guard FileSystem.isDirectory(dir) else { return [] }
        do {
            return try FileSystem.contentsOfDirectory(dir).compactMap { file -> UInt64? in
                guard file.hasSuffix(".snap") else { return nil }
                return UInt64(file.dropLast(5))
            }.sorted()
        } catch {
            throw io(error, "list snapshots")
        }
    }

    public func loadSnapshot(_ name: String, version: Int, position: UInt64) throws -> [UInt8] {
        let path = snapshotDirectory(name, version) + "/" + Self.padded(position) + ".snap"
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path)
        } catch {
            throw io(error, "read snapshot")
        }
        let body = Array(bytes.dropLast(4))
        let stored = bytes.suffix(4).enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
        guard bytes.count >= 4, CRC32C.checksum(body) == stored else {
            throw EventStoreError.corrupted(file: path, offset: 0, reason: "snapshot checksum mismatch")
        }
        return body
    }

    public func removeSnapshots(_ name: String, version: Int) throws {
        let dir = snapshotDirectory(name, version)
        guard FileSystem.isDirectory(dir) else { return }
        do {
            for file in try FileSystem.contentsOfDirectory(dir) { try FileSystem.removeFile(dir + "/" + file) }
        } catch {
            throw io(error, "remove snapshots")
        }
    }

    public func tryLock(_ name: String) throws -> (any ProjectionLock)? {
        do {
            try FileSystem.createDirectories(directory(name))
            let fd = try FileDescriptor.open(directory(name) + "/lock", .readWriteCreate)
            guard try fd.lockExclusive(wait: false) else { return nil }
            return FileProjectionLock(fd: fd)
        } catch {
            throw io(error, "lock projection")
        }
    }
}

/// An `flock` held on a projection's lock file; closing the descriptor releases it.
final class FileProjectionLock: ProjectionLock, @unchecked Sendable {
    private let fd: FileDescriptor

    init(fd: FileDescriptor) {
        self.fd = fd
    }

    func unlock() {
        try? fd.unlock()
    }
}
