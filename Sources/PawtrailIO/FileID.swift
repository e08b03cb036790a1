/// A file's identity on this machine: its device and inode. Two paths, or a path and an open descriptor, name the
/// same file exactly when their identities are equal; a file replaced by a rename has a new one.
public struct FileID: Hashable, Sendable {
    /// The device the file is on.
    public var device: UInt64
    /// The inode on that device.
    public var inode: UInt64

    /// Creates an identity.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
