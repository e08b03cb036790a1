import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// A store or segment written by a newer, incompatible format is refused with its own error, never misread.
@Suite struct FormatVersionTests {
    /// Rewrites the store manifest as a future version would write it (valid checksum, newer versions).
    static func makeManifestNewer(_ root: String, version: UInt16 = 4) throws {
        let path = root + "/pawtrail.store"
        var bytes = try FileSystem.readFile(path)
        withUnsafeBytes(of: version.littleEndian) { bytes.replaceSubrange(8..<10, with: $0) }
        withUnsafeBytes(of: version.littleEndian) { bytes.replaceSubrange(10..<12, with: $0) }
        let crc = CRC32C.checksum(Array(bytes[0..<40]))
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(40..<44, with: $0) }
        try FileSystem.writeAtomically(bytes, to: path, sync: false)
    }

    @Test func `a store whose manifest needs a newer reader is refused`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        _ = try await store.append(AppendRequest(stream: stream("pet-1"), events: [.json("PetAdded", "{}")]))
        store.close()
        try Self.makeManifestNewer(dir.path)
        #expect(throws: EventStoreError.incompatibleFormat(location: dir.path, found: 4, supported: 3)) {
            _ = try FileEventStore.open(path: dir.path)
        }
    }

    @Test func `a segment that needs a newer reader is refused`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        _ = try await store.append(AppendRequest(stream: stream("pet-1"), events: [.json("PetAdded", "{}")]))
        store.close()
        let name = try #require(try store.segmentNames().first)
        let path = dir.path + "/segments/" + name
        var bytes = try FileSystem.readFile(path)
        bytes[8] = 4
        bytes[10] = 4
        let crc = CRC32C.checksum(Array(bytes[0..<60]))
        withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(60..<64, with: $0) }
        try FileSystem.writeAtomically(bytes, to: path, sync: false)
        #expect(throws: EventStoreError.incompatibleFormat(location: path, found: 4, supported: 3)) {
            _ = try FileEventStore.open(path: dir.path)
        }
    }
}
