import Foundation
import PawtrailIO
import Testing

/// Through the binary: a store written by a newer format gets its own message and exit 74.
@Suite(.ownThreads) struct FormatVersionProcessTests {
    @Test func `a store from a newer format is refused with exit 74`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        #expect(try PawtrailProcess.run(["--store", store, "log", "append", "--stream", "a", "--type", "T", "--data", "{}"]).status == 0)
        var bytes = try FileSystem.readFile(store + "/pawtrail.store")
        bytes[8] = 4
        bytes[10] = 4
        let crc = CRC32C.checksum(Array(bytes[0..<40]))
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(40..<44, with: $0) }
        try FileSystem.writeAtomically(bytes, to: store + "/pawtrail.store", sync: false)
        for arguments in [["log", "read", "--all"], ["log", "append", "--stream", "a", "--type", "T", "--data", "{}"]] {
            let out = try PawtrailProcess.run(["--store", store] + arguments)
            #expect(out.status == 74)
            #expect(out.stderr == "Error: \(store) was written by a newer Pawtrail (format version 4); this build reads format versions up to 3\n")
        }
    }
}
