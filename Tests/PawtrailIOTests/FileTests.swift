import Foundation
import PawtrailIO
import Testing

@Suite("FileDescriptor")
struct FileDescriptorTests {
    @Test
    func writeReadTruncateAndSize() throws {
        let dir = try TemporaryDirectory()
        let fd = try FileDescriptor.open(dir.file("data"), .readWriteCreate)
        #expect(try fd.size() == 0)
        try fd.write(Array("hello".utf8), at: 0)
        try fd.write(Array(" world".utf8), at: 5)
        #expect(try fd.size() == 11)
        #expect(try fd.read(at: 0, count: 11) == Array("hello world".utf8))
        #expect(try fd.read(at: 6, count: 5) == Array("world".utf8))
        // Reading past the end returns what there is.
        #expect(try fd.read(at: 6, count: 100) == Array("world".utf8))
        #expect(try fd.read(at: 11, count: 10) == [])
        #expect(try fd.read(at: 1000, count: 10) == [])
        // Writing past the end leaves a hole of zeros.
        try fd.write([0x21], at: 14)
        #expect(try fd.read(at: 11, count: 10) == [0, 0, 0, 0x21])
        try fd.truncate(to: 5)
        #expect(try fd.size() == 5)
        #expect(try fd.read(at: 0, count: 100) == Array("hello".utf8))
        try fd.truncate(to: 8)
        #expect(try fd.read(at: 0, count: 100) == Array("hello".utf8) + [0, 0, 0])
        try fd.synchronizeData()
        try fd.synchronize()
        #expect(fd.path == dir.file("data"))
        // Into a caller's buffer.
        var buffer = [UInt8](repeating: 0xEE, count: 4)
        let n = try buffer.withUnsafeMutableBytes { try fd.read(at: 3, into: $0) }
        #expect(n == 4)
        #expect(buffer == [0x6C, 0x6F, 0, 0])
    }

    @Test
    func largeWritesAndReadsAreComplete() throws {
        let dir = try TemporaryDirectory()
        let fd = try FileDescriptor.open(dir.file("big"), .readWriteCreate)
        var rng = SplitMix64(seed: 1)
        let data = rng.bytes(3 << 20)
        try fd.write(data, at: 0)
        #expect(try fd.size() == UInt64(data.count))
        #expect(try fd.read(at: 0, count: data.count) == data)
        #expect(try FileSystem.readFile(dir.file("big")) == data)
    }

    @Test
    func openingErrorsCarryTheCallPathAndErrno() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.file("missing")
        let error = #expect(throws: SystemError.self) { _ = try FileDescriptor.open(missing, .readOnly) }
        #expect(error?.operation == "open")
        #expect(error?.path == missing)
        #expect(error?.errno == ENOENT)
        #expect(error?.description.contains(missing) == true)
        _ = try FileDescriptor.open(dir.file("once"), .createExclusive)
        let exists = #expect(throws: SystemError.self) { _ = try FileDescriptor.open(dir.file("once"), .createExclusive) }
        #expect(exists?.errno == EEXIST)
        _ = try FileDescriptor.open(dir.file("once"), .readOnly)
        #expect(throws: SystemError.self) { _ = try FileDescriptor.openDirectory(dir.file("once")) }
        _ = try FileDescriptor.openDirectory(dir.path)
    }

    /// flock locks belong to the open file description: a second open() of the same file conflicts with the
    /// first even within one process.
    @Test
    func exclusiveLockConflictsWithASecondDescriptor() throws {
        let dir = try TemporaryDirectory()
        let first = try FileDescriptor.open(dir.file("LOCK"), .readWriteCreate)
        let second = try FileDescriptor.open(dir.file("LOCK"), .readWriteCreate)
        #expect(try first.lockExclusive(wait: false))
        #expect(try second.lockExclusive(wait: false) == false)
        #expect(try second.lockExclusive(wait: false) == false)
        // Taking it again on the holder's own description succeeds.
        #expect(try first.lockExclusive(wait: false))
        try first.unlock()
        #expect(try second.lockExclusive(wait: false))
        #expect(try first.lockExclusive(wait: false) == false)
        try second.unlock()
        // Closing a holder releases its lock.
        do {
            let third = try FileDescriptor.open(dir.file("LOCK"), .readWrite)
            #expect(try third.lockExclusive(wait: true))
        }
        #expect(try first.lockExclusive(wait: false))
    }
}

@Suite("FileSystem")
struct FileSystemTests {
    @Test
    func writeAtomicallyReplacesTheWholeFileAndLeavesNoTemporary() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("manifest")
        try FileSystem.writeAtomically(Array("first version, long".utf8), to: path)
        #expect(try FileSystem.readFile(path) == Array("first version, long".utf8))
        try FileSystem.writeAtomically(Array("second".utf8), to: path)
        #expect(try FileSystem.readFile(path) == Array("second".utf8))
        try FileSystem.writeAtomically([], to: path, sync: false)
        #expect(try FileSystem.readFile(path) == [])
        #expect(try FileSystem.contentsOfDirectory(dir.path) == ["manifest"])
        // Into a missing directory: an error, and nothing left behind.
        #expect(throws: SystemError.self) { try FileSystem.writeAtomically([1], to: dir.file("no/such/file")) }
        #expect(try FileSystem.contentsOfDirectory(dir.path) == ["manifest"])
    }

    @Test
    func contentsOfDirectoryListsSortedNamesWithoutDots() throws {
        let dir = try TemporaryDirectory()
        #expect(try FileSystem.contentsOfDirectory(dir.path) == [])
        for name in ["b", "a", "segment-00000000000000000010", "segment-00000000000000000002", ".hidden", "ü"] {
            try FileSystem.writeAtomically([], to: dir.file(name), sync: false)
        }
        try FileSystem.createDirectory(dir.file("sub"))
        #expect(
            try FileSystem.contentsOfDirectory(dir.path) == [
                ".hidden", "a", "b", "segment-00000000000000000002", "segment-00000000000000000010", "sub", "ü",
            ])
        let error = #expect(throws: SystemError.self) { _ = try FileSystem.contentsOfDirectory(dir.file("missing")) }
        #expect(error?.errno == ENOENT)
    }

    @Test
    func directoriesRenameRemoveAndExists() throws {
        let dir = try TemporaryDirectory()
        let nested = dir.file("x/y/z")
        try FileSystem.createDirectories(nested)
        #expect(FileSystem.isDirectory(nested))
        try FileSystem.createDirectories(nested)  // idempotent
        try FileSystem.createDirectory(nested)  // existing directory is fine
        try FileSystem.writeAtomically([1, 2], to: dir.file("f"), sync: false)
        // A file in the way is "Not a directory", as is one on the way (not "File exists", which reads as if
        // the directory were there); a symlink loop says so.
        #expect(throws: SystemError(operation: "mkdir", path: dir.file("f"), errno: ENOTDIR)) { try FileSystem.createDirectory(dir.file("f")) }
        #expect(throws: SystemError(operation: "mkdir", path: dir.file("f"), errno: ENOTDIR)) { try FileSystem.createDirectories(dir.file("f/store")) }
        #expect(symlink(dir.file("loop-b"), dir.file("loop-a")) == 0 && symlink(dir.file("loop-a"), dir.file("loop-b")) == 0)
        #expect(throws: SystemError(operation: "mkdir", path: dir.file("loop-a"), errno: ELOOP)) { try FileSystem.createDirectory(dir.file("loop-a")) }
        #expect(FileSystem.exists(dir.file("f")))
        #expect(!FileSystem.isDirectory(dir.file("f")))
        try FileSystem.rename(dir.file("f"), to: dir.file("g"))
        #expect(!FileSystem.exists(dir.file("f")))
        #expect(try FileSystem.readFile(dir.file("g")) == [1, 2])
        try FileSystem.removeFile(dir.file("g"))
        try FileSystem.removeFile(dir.file("g"))  // already gone is fine
        #expect(!FileSystem.exists(dir.file("g")))
        try FileSystem.synchronizeDirectory(dir.path)
    }

    @Test
    func directoryName() {
        #expect(FileSystem.directoryName(of: "/a/b/c") == "/a/b")
        #expect(FileSystem.directoryName(of: "a/b") == "a")
        #expect(FileSystem.directoryName(of: "/a") == "/")
        #expect(FileSystem.directoryName(of: "a") == ".")
    }

    @Test
    func mappedFileSeesTheBytes() throws {
        let dir = try TemporaryDirectory()
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try FileSystem.writeAtomically(data, to: dir.file("index"), sync: false)
        let mapped = try MappedFile(path: dir.file("index"))
        #expect(Array(mapped.bytes) == data)
        try FileSystem.writeAtomically([], to: dir.file("empty"), sync: false)
        #expect(try MappedFile(path: dir.file("empty")).bytes.count == 0)
        #expect(throws: SystemError.self) { _ = try MappedFile(path: dir.file("missing")) }
    }
}
