import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// A sealed segment's stream index is checked (its whole file) at the first lookup that asks that segment, not
/// when the store opens: an open reads its header only, so that the cost of opening does not grow with the events
/// in the store. Damaged, it is rebuilt from the segment then, and the lookup answers as if it had always been
/// sound; `log verify` reports the damage until then.
@Suite struct SealedStreamIndexLoadingTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 5, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)

    /// 12 events to 3 streams, one per append, ids `uuid(1)`...`uuid(12)`: segments of 5, 5 and 2 events, so each
    /// sealed segment holds all three streams.
    static func fill(_ store: FileEventStore) async throws {
        for n in 1...12 { try await store.append(to: stream("pet-\(n % 3)"), [event("Fed", "{\"n\":\(n)}", id: uuid(n))]) }
    }

    static func checkedStreamIndexes(_ store: FileEventStore) throws -> [Bool] {
        try store.withState(writer: false) { s in s.sealed.map { $0.checkedStreams != nil } }
    }

    /// Flips the last byte of a segment's `.sidx` (a position delta in its postings), leaving the header whole.
    static func damageStreamIndex(_ dir: TemporaryDirectory, segment: String = "00000000000000000000") throws -> String {
        let sidx = dir.path + "/segments/\(segment).sidx"
        let fd = try FileDescriptor.open(sidx, .readWrite)
        let size = try fd.size()
        var byte = try fd.read(at: size - 1, count: 1)
        byte[0] ^= 0x01
        try fd.write(byte, at: size - 1)
        return sidx
    }

    @Test func `an open checks no stream index body, and a lookup checks only the segments it asks`() async throws {
        let dir = try await filledStore(Self.options, Self.fill)
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        #expect(try Self.checkedStreamIndexes(store) == [false, false])
        #expect(try await store.readAll().count == 12, "reading the whole log needs no stream index")
        #expect(try Self.checkedStreamIndexes(store) == [false, false])
        #expect(try await store.events(of: stream("pet-1")).map(\.id) == [1, 4, 7, 10].map(uuid))
        #expect(try Self.checkedStreamIndexes(store) == [true, true])
    }

    @Test func `a read of a stream's last events asks the segments that hold them, newest first, and no older ones`() async throws {
        // 31 events to 3 streams: six sealed segments of 5, each holding all three, and the last event in the active one.
        let dir = try await filledStore(Self.options) { store in
            for n in 1...31 { try await store.append(to: stream("pet-\(n % 3)"), [event("Fed", "{\"n\":\(n)}", id: uuid(n))]) }
        }
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        let all = (1...31).filter { $0 % 3 == 1 }.map(uuid)
        // pet-1 holds n = 1, 4, ..., 31 at versions 0...10: version 8 (n = 25) is in the fifth segment, where pet-1
        // starts at version 7, version 9 in the sixth, version 10 in the active one.
        let tail = try await store.read(ReadRequest(source: .stream("pet-1"), from: 8, limit: 10))
        #expect(tail.events.map(\.id) == Array(all.suffix(3)))
        #expect(try await store.position(of: "pet-1", version: 8) == 24)
        #expect(try Self.checkedStreamIndexes(store) == [false, false, false, false, true, true])
        // Version 6 (n = 19) is in the fourth segment: it and the ones after it are asked.
        #expect(try await store.read(ReadRequest(source: .stream("pet-1"), from: 6, limit: 10)).events.map(\.id) == Array(all.suffix(5)))
        #expect(try Self.checkedStreamIndexes(store) == [false, false, false, true, true, true])
        #expect(try await store.events(of: stream("pet-1")).map(\.id) == all)
        #expect(try Self.checkedStreamIndexes(store) == [true, true, true, true, true, true])
    }

    @Test func `a damaged stream index is reported by verify and rebuilt by the first lookup that asks it`() async throws {
        let dir = try await filledStore(Self.options, Self.fill)
        let sidx = try Self.damageStreamIndex(dir)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: sidx))

        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: sidx)) == damaged, "the open reads its header only")
        let report = try store.verify()
        #expect(report.problems.map(\.file) == ["00000000000000000000.sidx"], "\(report)")

        // The stream read asks every segment: the first one's index is rebuilt and answers.
        for k in 0..<3 {
            let expected = (1...12).filter { $0 % 3 == k }.map(uuid)
            #expect(try await store.events(of: stream("pet-\(k)")).map(\.id) == expected)
            #expect(try await store.streamVersion(of: stream("pet-\(k)")) == UInt64(expected.count - 1))
        }
        #expect(try Self.checkedStreamIndexes(store) == [true, true])
        #expect(try Data(contentsOf: URL(fileURLWithPath: sidx)) != damaged, "saved again")
        #expect(try store.verify().isOK)
    }

    @Test func `an append's expected version is checked through a damaged stream index rebuilt on the way`() async throws {
        let dir = try await filledStore(Self.options, Self.fill)
        // The second segment holds pet-1's last event (n = 10, version 3); the first one is not asked.
        _ = try Self.damageStreamIndex(dir, segment: "00000000000000000005")
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        await expectError(.wrongExpectedVersion(stream: "pet-1", expected: .exact(2), actual: 3)) {
            try await store.append(to: stream("pet-1"), expected: .exact(2), [event()])
        }
        let appended = try await store.append(to: stream("pet-1"), expected: .exact(3), [event()])
        #expect(appended.streams.first?.version == 4)
        #expect(try Self.checkedStreamIndexes(store) == [false, true])
        #expect(try store.verify().isOK, "rebuilt and saved")
    }

    @Test func `a stream index whose header does not fit is written again by the open`() async throws {
        let dir = try await filledStore(Self.options, Self.fill)
        let sidx = dir.path + "/segments/00000000000000000000.sidx"
        let good = try Data(contentsOf: URL(fileURLWithPath: sidx))
        try FileDescriptor.open(sidx, .readWrite).truncate(to: UInt64(good.count - 1))

        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: sidx)) == good, "written again, byte for byte")
        #expect(try Self.checkedStreamIndexes(store) == [true, false], "the rebuilt index is the checked one")
        #expect(try store.verify().isOK)
    }
}
