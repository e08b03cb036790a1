#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor, owned exactly once: it is closed when the value is released.
///
/// Every operation retries EINTR, loops over short reads and writes, and throws ``SystemError`` with the
/// path and the system call on failure. A failed `fsync` or `fdatasync` is an error, never ignored.
public final class FileDescriptor: @unchecked Sendable {
    /// The raw descriptor.
    public let rawValue: Int32
    /// The path it was opened with (for error messages).
    public let path: String

    private init(rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    deinit {
        _ = Glibc.close(rawValue)
    }

    /// How to open a file.
    public enum Mode: Sendable {
        case readOnly
        case readWrite
        /// Read-write, created if missing.
        case readWriteCreate
        /// Write-only, created, failing if the file exists.
        case createExclusive
    }

    /// Opens a file (close-on-exec).
    ///
    /// - Parameters:
    ///   - path: The path.
    ///   - mode: How to open it.
    /// - Returns: The owned descriptor.
    /// - Throws: ``SystemError`` from `open`.
    public static func open(_ path: String, _ mode: Mode) throws(SystemError) -> FileDescriptor {
        let flags: Int32
        switch mode {
        case .readOnly: flags = O_RDONLY
        case .readWrite: flags = O_RDWR
        case .readWriteCreate: flags = O_RDWR | O_CREAT
        case .createExclusive: flags = O_RDWR | O_CREAT | O_EXCL
        }
        let fd = try syscall("open", path) { Glibc.open(path, flags | O_CLOEXEC, 0o644) }
        return FileDescriptor(rawValue: fd, path: path)
    }

    /// Opens a directory for `fsync`.
    ///
    /// - Parameter path: The directory.
    /// - Returns: The owned descriptor.
    /// - Throws: ``SystemError`` from `open`.
    public static func openDirectory(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = try syscall("open", path) { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        return FileDescriptor(rawValue: fd, path: path)
    }

    /// The file's size in bytes.
    ///
    /// - Returns: The size.
    /// - Throws: ``SystemError`` from `fstat`.
    public func size() throws(SystemError) -> UInt64 {
        try status().size
    }

    /// The file's identity (device and inode): whether a path still names the file this descriptor has open.
    ///
    /// - Returns: The identity.
    /// - Throws: ``SystemError`` from `fstat`.
    public func fileID() throws(SystemError) -> FileID {
        try status().id
    }

    /// Reads up to `count` bytes at `offset`; fewer only at end of file.
    ///
    /// - Parameters:
    ///   - offset: The file offset.
    ///   - count: How many bytes.
    /// - Returns: The bytes read.
    /// - Throws: ``SystemError`` from `pread`.
    public func read(at offset: UInt64, count: Int) throws(SystemError) -> [UInt8] {
        // No zero-fill: the buffer is only ever as long as what pread wrote into it.
        var failure: SystemError?
        let buffer = [UInt8](unsafeUninitializedCapacity: count) { raw, initialized in
            do throws(SystemError) {
                initialized = try self.read(at: offset, into: UnsafeMutableRawBufferPointer(raw))
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return buffer
    }

    /// Reads `count` bytes at `offset` into a reusable buffer (grown when needed), returning how many were read.
    ///
    /// - Throws: ``SystemError`` from `pread`.
    public func read(at offset: UInt64, count: Int, into buffer: inout [UInt8]) throws(SystemError) -> Int {
        if buffer.count < count { buffer.append(contentsOf: repeatElement(0, count: count - buffer.count)) }
        let outcome: Result<Int, SystemError> = buffer.withUnsafeMutableBytes { raw in
            do throws(SystemError) {
                return .success(try self.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<count])))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Reads into a buffer at `offset`, looping until it is full or the file ends.
    ///
    /// - Parameters:
    ///   - offset: The file offset.
    ///   - buffer: The destination.
    /// - Returns: The number of bytes read (less than the buffer only at end of file).
    /// - Throws: ``SystemError`` from `pread`.
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        guard offset <= UInt64(Int64.max) - UInt64(buffer.count) else {
            throw SystemError(operation: "pread", path: path, errno: EINVAL)
        }
        var done = 0
        while done < buffer.count {
            let n = try syscall("pread", path) {
                pread(rawValue, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Writes all of `bytes` at `offset`, looping over short writes.
    ///
    /// - Parameters:
    ///   - bytes: What to write.
    ///   - offset: The file offset.
    /// - Throws: ``SystemError`` from `pwrite`.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(SystemError) {
        var done = 0
        while done < bytes.count {
            let n = try syscall("pwrite", path) {
                pwrite(rawValue, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            }
            done += n
        }
    }

    /// Writes all of `bytes` at `offset`.
    public func write(_ bytes: [UInt8], at offset: UInt64) throws(SystemError) {
        let outcome: Result<Void, SystemError> = bytes.withUnsafeBytes { raw in
            do throws(SystemError) { return .success(try self.write(raw, at: offset)) } catch { return .failure(error) }
        }
        try outcome.get()
    }

    /// Flushes the file's data (and the metadata needed to read it) to stable storage.
    ///
    /// - Throws: ``SystemError`` from `fdatasync`; the data must then be treated as not durable.
    public func synchronizeData() throws(SystemError) {
        _ = try syscall("fdatasync", path) { fdatasync(rawValue) }
    }

    /// Flushes the file's data and all metadata (for directories: their entries) to stable storage.
    ///
    /// - Throws: ``SystemError`` from `fsync`.
    public func synchronize() throws(SystemError) {
        _ = try syscall("fsync", path) { fsync(rawValue) }
    }

    /// Cuts the file to `size` bytes.
    ///
    /// - Parameter size: The new size.
    /// - Throws: ``SystemError`` from `ftruncate`.
    public func truncate(to size: UInt64) throws(SystemError) {
        _ = try syscall("ftruncate", path) { ftruncate(rawValue, off_t(size)) }
    }

    /// Takes an exclusive advisory lock on the whole file (`flock`), waiting for it unless `wait` is false.
    ///
    /// - Parameter wait: Whether to block until the lock is free.
    /// - Returns: `true` if the lock is held, `false` if `wait` is false and another holder has it.
    /// - Throws: ``SystemError`` from `flock`.
    @discardableResult
    public func lockExclusive(wait: Bool = true) throws(SystemError) -> Bool {
        let op = LOCK_EX | (wait ? 0 : LOCK_NB)
        while true {
            if flock(rawValue, op) == 0 { return true }
            let code = Glibc.errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK && !wait { return false }
            throw SystemError(operation: "flock", path: path, errno: code)
        }
    }

    /// Releases a lock taken with ``lockExclusive(wait:)``.
    ///
    /// - Throws: ``SystemError`` from `flock`.
    public func unlock() throws(SystemError) {
        _ = try syscall("flock", path) { flock(rawValue, LOCK_UN) }
    }
}
