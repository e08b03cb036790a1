import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// A sealed segment's event-id index is checked (its whole file) at the first id lookup that needs it, not when
/// the store opens: reads never need it, and neither do appends once an index run covers the segment. Missing or
/// damaged, it is rebuilt from the segment then, and the lookup answers as if it had always been there.
@Suite struct SealedIDIndexLoadingTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 5, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)

    /// 12 events to 3 streams, one per append, ids `uuid(1)`...`uuid(12)`: segments of 5, 5 and 2 events.
    static func fill(_ store: FileEventStore) async throws {
        for n in 1...12 { try await store.append(to: stream("pet-\(n % 3)"), [event("Fed", "{\"n\":\(n)}", id: uuid(n))]) }
    }

    /// A fresh store filled (see `fill`) and closed.
    static func filled(_ options: FileEventStoreOptions = options) async throws -> TemporaryDirectory {
        try await filledStore(options, fill)
    }

    static func loadedIDIndexes(_ store: FileEventStore) throws -> [Bool] {
        try store.withState(writer: false) { s in s.sealed.map { $0.ids != nil } }
    }

    /// (A missing one is written again at open: see the test after this one.)
    @Test func `a damaged id index is left alone by reads and rebuilt by the first append that asks it`() async throws {
        let dir = try await Self.filled()
        let eidx = dir.path + "/segments/00000000000000000000.eidx"
        let fd = try FileDescriptor.open(eidx, .readWrite)
        var byte = try fd.read(at: 30, count: 1)
        byte[0] ^= 0x01
        try fd.write(byte, at: 30)

        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        #expect(try Self.loadedIDIndexes(reopened) == [false, false])
        #expect(try await reopened.readAll().map(\.id) == (1...12).map(uuid))
        #expect(try await reopened.events(of: stream("pet-1")).count == 4)
        #expect(try Self.loadedIDIndexes(reopened) == [false, false], "reads do not need them")
        let report = try reopened.verify()
        #expect(report.problems.map(\.file) == ["00000000000000000000.eidx"], "\(report)")

        // Event 1 is in the first segment: the retry finds it, through the index rebuilt from the segment.
        let retry = try await reopened.append(to: stream("pet-1"), [event("Fed", "{\"n\":1}", id: uuid(1))])
        #expect(retry.firstPosition == 0 && retry.lastPosition == 0)
        #expect(try Self.loadedIDIndexes(reopened) == [true, true])
        await expectIdempotencyConflict { try await reopened.append(to: stream("pet-1"), [event("Fed", "{\"n\":99}", id: uuid(2))]) }
        #expect(try await reopened.readAll().count == 12)
        #expect(try reopened.verify().isOK, "the rebuilt index was saved")
    }

    /// A writer killed between writing a seal's `.sidx` and its `.eidx` leaves the `.eidx` missing. The next open
    /// must write it again: `log verify` reports it as missing ("the next open rebuilds it"), and with an index run
    /// covering the segment no append ever asks for it (left so, the open after the crash, then `log verify`, as
    /// `tools/crash-loop.sh` does, would fail for good).
    @Test(arguments: [0, 2])
    func `an id index a crash left missing is written again by the next open`(indexRunSegments: Int) async throws {
        var options = Self.options
        options.indexRunSegments = indexRunSegments
        let dir = try await Self.filled(options)
        let eidx = dir.path + "/segments/00000000000000000000.eidx"
        try FileManager.default.removeItem(atPath: eidx)

        for _ in 0..<2 {
            let reopened = try FileEventStore.open(path: dir.path, options: options)
            try await reopened.append(to: stream("pet-9"), [event(id: UUID())])
            reopened.close()
        }
        #expect(FileManager.default.fileExists(atPath: eidx))
        let reopened = try FileEventStore.open(path: dir.path, options: options)
        defer { reopened.close() }
        let report = try reopened.verify()
        #expect(report.isOK, "\(report)")
        let retry = try await reopened.append(to: stream("pet-1"), [event("Fed", "{\"n\":1}", id: uuid(1))])
        #expect(retry.lastPosition == 0)
    }

    @Test func `appends leave the id indexes of segments an index run covers unread`() async throws {
        var options = Self.options
        options.indexRunSegments = 2
        let dir = try await Self.filled(options)
        let reopened = try FileEventStore.open(path: dir.path, options: options)
        defer { reopened.close() }
        #expect(try reopened.withState(writer: false) { $0.coveredSegments } == 2)
        try await reopened.append(to: stream("pet-7"), [event(id: uuid(50))])
        #expect(try Self.loadedIDIndexes(reopened) == [false, false])
        let retry = try await reopened.append(to: stream("pet-1"), [event("Fed", "{\"n\":1}", id: uuid(1))])
        #expect(retry.lastPosition == 0, "found through the run")
        #expect(try Self.loadedIDIndexes(reopened) == [false, false])
    }

    /// What the header shows is rewritten by the open itself, before any lookup: an index of an older format
    /// version (a store written by an older release migrates on open), and one cut short.
    @Test(arguments: ["older version", "cut short"])
    func `an id index whose header does not fit is written again by the open`(_ fault: String) async throws {
        var options = Self.options
        options.indexRunSegments = 2
        let dir = try await Self.filled(options)
        let eidx = dir.path + "/segments/00000000000000000000.eidx"
        let good = try Data(contentsOf: URL(fileURLWithPath: eidx))
        let fd = try FileDescriptor.open(eidx, .readWrite)
        if fault == "older version" { try fd.write([1, 0], at: 4) } else { try fd.truncate(to: UInt64(good.count - 1)) }

        let reopened = try FileEventStore.open(path: dir.path, options: options)
        defer { reopened.close() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: eidx)) == good, "written again, byte for byte")
        #expect(try reopened.verify().isOK)
    }
}
