import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

/// Scenarios of the file store in which a mistake loses data, writes a duplicate or crashes.
@Suite struct FileStoreReviewRegressionTests {
    private func flip(_ path: String, at offset: Int, with value: UInt8? = nil) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset] = value ?? (bytes[offset] ^ 0x40)
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// A store whose first segment is sealed and holds `solo-1` at version 1.
    private func sealedStore(_ dir: TemporaryDirectory) async throws -> ([ProposedEvent], String) {
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4, compactSealedSegments: false))
        let first = [ProposedEvent.json("A", "{}"), .json("A", "{}")]
        _ = try await store.append(AppendRequest(stream: stream("solo-1"), expected: .noStream, events: first))
        for i in 0..<6 { _ = try await store.append(AppendRequest(stream: stream("other-\(i)"), events: [.json("B", "{}")])) }
        store.close()
        return (first, dir.path + "/segments/00000000000000000000")
    }

    @Test(arguments: [(".sidx", 0x20), (".sidx", 0x30), (".sidx", 0x38), (".eidx", 32), (".eidx", 24)])
    func `a damaged index file is rebuilt, never trusted`(suffix: String, offset: Int) async throws {
        let dir = TemporaryDirectory()
        let (first, base) = try await sealedStore(dir)
        try flip(base + suffix, at: offset, with: suffix == ".sidx" && offset == 0x38 ? 0 : nil)
        let store = try FileEventStore.open(path: dir.path)
        #expect(try await store.streamVersion(of: stream("solo-1")) == 1)
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: stream("solo-1"), expected: .noStream, actual: 1)) {
            _ = try await store.append(AppendRequest(stream: stream("solo-1"), expected: .noStream, events: [.json("A", "{}")]))
        }
        let retry = try await store.append(AppendRequest(stream: stream("solo-1"), expected: .noStream, events: first))
        #expect(retry.wasAlreadyCommitted && retry.firstPosition == 0 && retry.lastPosition == 1)
        #expect(try store.verify().isOK)
    }

    @Test(arguments: [false, true])
    func `damage in acknowledged data survives any number of reopenings`(deleteHead: Bool) async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        for i in 0..<8 { _ = try await store.append(AppendRequest(stream: stream("pet-\(i % 2)"), events: [.json("W", #"{"i":\#(i)}"#)])) }
        store.close()
        let name = try #require(try store.segmentNames().last)
        let frames = try store.inspect(segment: name).frames
        let path = dir.path + "/segments/" + name
        let size = FileStoreRecoveryTests.fileSize(path)
        try flip(path, at: Int(frames[2].offset) + 30)
        if deleteHead { try FileManager.default.removeItem(atPath: dir.path + "/head") }
        for _ in 0..<3 {
            let reopened = try FileEventStore.open(path: dir.path)
            #expect(reopened.recovery == nil)
            #expect(FileStoreRecoveryTests.fileSize(path) == size)
            await #expect(throws: EventStoreError.self) { _ = try await reopened.read(ReadRequest(source: .all, limit: 100)) }
            await #expect(throws: EventStoreError.self) {
                _ = try await reopened.append(AppendRequest(stream: stream("pet-0"), events: [.json("W", "{}")]))
            }
            #expect(try reopened.verify().problems.contains { $0.offset == frames[2].offset })
        }
    }

    @Test func `a seal whose index files cannot be written does not fail the commits`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 3, compactSealedSegments: false))
        try FileManager.default.createDirectory(atPath: dir.path + "/segments/00000000000000000000.sidx", withIntermediateDirectories: true)
        for i in 0..<7 {
            let r = try await store.append(AppendRequest(stream: stream("pet-1"), events: [.json("W", #"{"i":\#(i)}"#)]))
            #expect(r.firstPosition == UInt64(i))
        }
        #expect(try store.segmentNames().count == 3)
        let all = try await store.read(ReadRequest(source: .stream(stream("pet-1")), limit: 100))
        #expect(all.events.map(\.version) == Array(0..<7))
    }
}
