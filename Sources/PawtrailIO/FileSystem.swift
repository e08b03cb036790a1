#if canImport(Glibc)
import Glibc
#endif

/// Path-level file operations with the same error discipline as ``FileDescriptor``.
public enum FileSystem {
    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }

    /// The identity of the file at `path`, `nil` when there is none.
    public static func fileID(_ path: String) -> FileID? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileID(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// Whether `path` is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates a directory (its parent must exist); succeeds if it already exists as a directory.
    ///
    /// - Parameter path: The directory.
    /// - Throws: ``SystemError`` from `mkdir`.
    public static func createDirectory(_ path: String) throws(SystemError) {
        if mkdir(path, 0o755) == 0 { return }
        var code = errno
        if code == EEXIST {
            if isDirectory(path) { return }
            // Something else is there (a file, a symlink to one or a symlink loop): say what, not "File exists".
            var st = stat()
            code = stat(path, &st) == 0 ? ENOTDIR : errno
        }
        throw SystemError(operation: "mkdir", path: path, errno: code)
    }

    /// Creates a directory and any missing parents.
    ///
    /// - Parameter path: The directory.
    /// - Throws: ``SystemError`` from `mkdir`.
    public static func createDirectories(_ path: String) throws(SystemError) {
        if isDirectory(path) { return }
        let parent = (path as String).split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty && parent != path { try createDirectories(parent) }
        try createDirectory(path)
    }

    /// Lists the names in a directory (without `.` and `..`), sorted.
    ///
    /// - Parameter path: The directory.
    /// - Returns: The entry names.
    /// - Throws: ``SystemError`` from `opendir`.
    public static func contentsOfDirectory(_ path: String) throws(SystemError) -> [String] {
        try inodesInDirectory(path).map(\.name)
    }

    /// The names in a directory with their inode numbers, sorted by name, without `.` and `..`: one listing, no
    /// call a file, tells which files were replaced since a listing before.
    ///
    /// - Parameter path: The directory.
    /// - Returns: Each entry's name and inode.
    /// - Throws: ``SystemError`` from `opendir`.
    public static func inodesInDirectory(_ path: String) throws(SystemError) -> [(name: String, inode: UInt64)] {
        guard let dir = opendir(path) else { throw SystemError(operation: "opendir", path: path, errno: errno) }
        defer { closedir(dir) }
        var entries: [(name: String, inode: UInt64)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { entries.append((name, UInt64(entry.pointee.d_ino))) }
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// Renames atomically, replacing `to` if it exists.
    ///
    /// - Throws: ``SystemError`` from `rename`.
    public static func rename(_ from: String, to: String) throws(SystemError) {
        _ = try syscall("rename", from) { Glibc.rename(from, to) }
    }

    /// Removes a file; succeeds if it does not exist.
    ///
    /// - Throws: ``SystemError`` from `unlink`.
    public static func removeFile(_ path: String) throws(SystemError) {
        if unlink(path) == 0 || errno == ENOENT { return }
        throw SystemError(operation: "unlink", path: path, errno: errno)
    }

    /// Flushes a directory's entries (after creating, renaming or removing files in it).
    ///
    /// - Throws: ``SystemError`` from `open` or `fsync`.
    public static func synchronizeDirectory(_ path: String) throws(SystemError) {
        try FileDescriptor.openDirectory(path).synchronize()
    }

    /// Writes a whole file durably and atomically: to a temporary name, flushed, renamed, directory flushed.
    ///
    /// - Parameters:
    ///   - bytes: The contents.
    ///   - path: The final path.
    ///   - sync: Whether to flush (false for derived files that can be rebuilt).
    /// - Throws: ``SystemError`` from any step.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, sync: Bool = true) throws(SystemError) {
        try writeAtomically(parts: [bytes], to: path, sync: sync)
    }

    /// Where a file is written before it is renamed (or linked) into place: `PATH.tmp-PID`, or `PATH.tmp-PID-UUID`
    /// when several writers of one process may write the same path at once. The process id lets whoever recovers
    /// the directory tell a dead process's leftover from a live process's work (``temporaryOwner(ofName:)``).
    ///
    /// - Parameters:
    ///   - path: The final path.
    ///   - uuid: A lowercase UUID making the name unique within the process, or `nil`.
    /// - Returns: The temporary path.
    public static func temporaryPath(for path: String, uuid: String? = nil) -> String {
        path + ".tmp-\(getpid())" + (uuid.map { "-" + $0 } ?? "")
    }

    /// The id of the process that writes a temporary file, from a name ``temporaryPath(for:uuid:)`` made; `nil` for
    /// any other name.
    public static func temporaryOwner(ofName name: String) -> pid_t? {
        guard let marker = name.utf8.indices.last(where: { name.utf8[$0...].starts(with: ".tmp-".utf8) }) else { return nil }
        let rest = name.utf8[name.utf8.index(marker, offsetBy: 5)...]
        let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let tail = Array(rest.dropFirst(digits.count))
        guard (1...10).contains(digits.count), tail.isEmpty || (tail.first == UInt8(ascii: "-") && isLowercaseUUID(tail.dropFirst()))
        else { return nil }
        return pid_t(String(decoding: digits, as: UTF8.self))
    }

    /// A random UUID in lowercase hex with its four dashes, for ``temporaryPath(for:uuid:)`` (no version bits: it
    /// only makes a name unique).
    ///
    /// - Returns: 36 characters.
    public static func randomUUIDString() -> String {
        var g = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for i in 0..<32 {
            if [8, 12, 16, 20].contains(i) { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(g.next() & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether bytes spell a UUID in lowercase hex with its four dashes.
    private static func isLowercaseUUID(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            let hex = (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
            guard [8, 13, 18, 23].contains(i) ? b == UInt8(ascii: "-") : hex else { return false }
        }
        return true
    }

    /// Replaces a file's contents with several buffers one after the other, atomically, as
    /// ``writeAtomically(_:to:sync:)`` does: a large state and the small header and checksum around it are written
    /// where they are instead of being copied into one buffer first.
    ///
    /// - Parameters:
    ///   - parts: The buffers, in file order.
    ///   - path: The file.
    ///   - sync: Whether to flush the file and its directory before returning.
    /// - Throws: ``SystemError`` from `open`, `write`, `fdatasync`, `rename` or the directory's `fsync`.
    public static func writeAtomically(parts: [[UInt8]], to path: String, sync: Bool = true) throws(SystemError) {
        // Unique within the process too: two stores of one process may write the same derived file at once (their
        // upkeeps' checkpoints), and a shared temporary file would interleave their bytes.
        let temporary = temporaryPath(for: path, uuid: randomUUIDString())
        do {
            let fd = try FileDescriptor.open(temporary, .readWriteCreate)
            try fd.truncate(to: 0)
            var offset: UInt64 = 0
            for part in parts {
                try fd.write(part, at: offset)
                offset += UInt64(part.count)
            }
            if sync { try fd.synchronizeData() }
            try rename(temporary, to: path)
        } catch {
            try? removeFile(temporary)
            throw error
        }
        if sync { try synchronizeDirectory(directoryName(of: path)) }
    }

    /// The directory part of a path (`.` when there is none).
    public static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Reads a whole file.
    ///
    /// - Throws: ``SystemError`` from `open`, `fstat` or `pread`.
    public static func readFile(_ path: String) throws(SystemError) -> [UInt8] {
        let fd = try FileDescriptor.open(path, .readOnly)
        return try fd.read(at: 0, count: Int(try fd.size()))
    }
}
