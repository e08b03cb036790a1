@testable import EventLogFile
import EventLog
@testable import EventLogTestKit
import Foundation
import Testing

/// `log verify` proves each stream's versions go on from segment to segment by merging the segments' stream
/// indexes, without holding every stream's last version.
@Suite struct StoreVerifierVersionTests {
    static let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 2, durability: .noSync)

    /// Writes pairs of events, each pair one sealed segment of two events.
    static func store(_ dir: TemporaryDirectory, pairs: [StreamID]) async throws {
        let store = try FileEventStore.open(path: dir.path, options: options)
        for s in pairs {
            try await store.append(to: s, [.json("Noted", #"{"n":1}"#), .json("Noted", #"{"n":2}"#)])
        }
        store.close()
    }

    @Test func `a stream that starts past version 0 in a later segment is reported, naming it`() async throws {
        let a = TemporaryDirectory()
        let b = TemporaryDirectory()
        try await Self.store(a, pairs: ["b-1", "c-1"])
        try await Self.store(b, pairs: ["a-1", "a-1"])
        #expect(try FileEventStore.open(path: a.path).verify().isOK)
        // The segment at position 2 of the second store, where `a-1` holds versions 2 and 3, in place of the
        // first store's: positions, checksums and ids stay right, only the versions do not go on.
        let name = LogFormat.segmentName(firstPosition: 2).dropLast(4)
        for suffix in [".seg", ".sidx", ".eidx"] {
            let target = a.path + "/segments/" + name + suffix
            try FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: b.path + "/segments/" + name + suffix, toPath: target)
        }
        let store = try FileEventStore.open(path: a.path)
        defer { store.close() }
        let report = try store.verify()
        #expect(report.problems.map(\.message) == ["stream 'a-1' has version 2 at position 2, expected 0"])
        #expect(report.problems.map(\.file) == [name + ".seg"])
        #expect(try store.stats().streams == 2)
    }

    @Test func `streams spread over many segments and the active one verify clean`() async throws {
        let dir = TemporaryDirectory()
        try await Self.store(dir, pairs: ["a-1", "b-1", "a-1", "c-1", "b-1", "a-1"])
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        try await store.append(to: "a-1", expected: .exact(5), [.json("Noted", #"{"n":3}"#)])
        let report = try store.verify()
        #expect(report.isOK, "\(report)")
        #expect(report.events == 13)
        #expect(try store.stats().streams == 3)
        store.close()
    }
}
