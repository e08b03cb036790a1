#if canImport(Glibc)
import Glibc
#endif

/// A whole file mapped read-only into memory (for immutable index files). Unmapped on release.
public final class MappedFile: @unchecked Sendable {
    /// The mapped bytes.
    public let bytes: UnsafeRawBufferPointer
    /// The path mapped.
    public let path: String
    /// The identity of the file mapped (`nil` for a copy held in memory): what a caller that found the contents
    /// damaged compares before removing the path, which another process may have replaced with a sound file since.
    public let fileID: FileID?

    /// Maps a file.
    ///
    /// - Parameter path: The file; it must not change while mapped (index files are immutable).
    /// - Throws: ``SystemError`` from `open`, `fstat` or `mmap`.
    public init(path: String) throws(SystemError) {
        self.path = path
        ownsHeapCopy = false
        let fd = try FileDescriptor.open(path, .readOnly)
        fileID = try fd.fileID()
        let size = Int(try fd.size())
        if size == 0 {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_SHARED, fd.rawValue, 0), p != MAP_FAILED else {
            throw SystemError(operation: "mmap", path: path, errno: errno)
        }
        bytes = UnsafeRawBufferPointer(start: p, count: size)
    }

    private let ownsHeapCopy: Bool

    /// Holds a copy of bytes in memory, for an index that could not be written to a file.
    ///
    /// - Parameters:
    ///   - bytes: The contents.
    ///   - path: The path the contents stand for (for messages).
    public init(copying bytes: [UInt8], path: String) {
        self.path = path
        fileID = nil
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        self.bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: bytes.count)
        ownsHeapCopy = true
    }

    deinit {
        guard let base = bytes.baseAddress else { return }
        if ownsHeapCopy {
            UnsafeMutableRawPointer(mutating: base).deallocate()
        } else {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }
}
