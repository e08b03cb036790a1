#if canImport(Glibc)
import Glibc
#endif

/// What one `fstat` tells of a file: its identity, size and last modification. A cache of what a file holds is
/// valid while all three are unchanged: a file rewritten in place changes its modification time, and one replaced by
/// a rename its identity.
public struct FileStatus: Hashable, Sendable {
    /// The file's device and inode.
    public var id: FileID
    /// Its size in bytes.
    public var size: UInt64
    /// Its last modification, in nanoseconds since 1970.
    public var modified: Int64

    /// Creates a status.
    public init(id: FileID, size: UInt64, modified: Int64) {
        self.id = id
        self.size = size
        self.modified = modified
    }
}

extension FileDescriptor {
    /// The file's identity, size and last modification, from one `fstat`.
    ///
    /// - Returns: The status.
    /// - Throws: ``SystemError`` from `fstat`.
    public func status() throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try syscall("fstat", path) { fstat(rawValue, &st) }
        return FileStatus(
            id: FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino)), size: UInt64(st.st_size),
            modified: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }
}
