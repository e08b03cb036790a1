import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// What only the file backend has: opening and creating, persistence across reopening, segment roll-over.
@Suite("File store")
struct FileEventStoreTests {
    @Test
    func openingAMissingStoreWithoutCreateIfMissingThrowsStoreNotFound() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/nothing-here"
        let error = #expect(throws: EventStoreError.self) {
            _ = try FileEventStore.open(path: path, options: FileEventStoreOptions(createIfMissing: false))
        }
        #expect(error == .storeNotFound(location: path))
        // An empty existing directory holds no store either.
        let empty = #expect(throws: EventStoreError.self) {
            _ = try FileEventStore.open(path: dir, options: FileEventStoreOptions(createIfMissing: false))
        }
        #expect(empty == .storeNotFound(location: dir))
        #expect(FileSystem.exists(path) == false, "a failed open must not create the directory")
    }

    @Test
    func createIfMissingCreatesTheDirectory() async throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/nested/store"
        do {
            let store = try FileEventStore.open(path: path, options: FileEventStoreOptions(createIfMissing: true))
            #expect(store.path == path)
            try await store.append(to: "pet-1", events(2))
        }
        #expect(FileSystem.isDirectory(path))
        // Now it exists, so a reader that does not create finds it.
        let reader = try FileEventStore.open(path: path, options: FileEventStoreOptions(createIfMissing: false))
        #expect(try await reader.lastPosition() == 1)
        #expect(try await reader.events(of: "pet-1").count == 2)
    }

    @Test
    func everythingSurvivesReopeningAcrossManySegments() async throws {
        let h = try Harness(.fileSmallSegments)
        let pad = noise(200)
        var written: [ProposedEvent] = []
        for round in 0..<40 {
            let s = try StreamID("pet-\(round % 4)")
            let batch = (0..<(round % 3 + 1)).map { i in
                event("Step", "{\"r\":\(round),\"i\":\(i),\"pad\":\"\(pad)\"}", metadata: ["round": "\(round)"])
            }
            try await h.store.append(to: s, batch)
            written += batch
        }
        let before = try await h.store.readAll()
        #expect(before.map(\.id) == written.map(\.id))
        do {
            let store = try #require(h.store as? FileEventStore)
            #expect(try store.segmentNames().count > 1, "4 KiB segments must have rolled over")
        }

        try h.reopen()
        let after = try await h.store.readAll()
        #expect(after == before)
        #expect(try await h.store.lastPosition() == UInt64(written.count - 1))
        for p in 0..<4 {
            let s = try StreamID("pet-\(p)")
            #expect(try await h.store.events(of: s) == before.filter { $0.stream == s })
            #expect(try await h.store.readAll(.stream(s), direction: .backward, pageSize: 3) == before.filter { $0.stream == s }.reversed())
        }
        #expect(try await h.store.readAll(.category("pet"), direction: .backward, pageSize: 5) == before.reversed())

        // Appends continue where they left off, with expectations and recordedAt carried over.
        let version = try #require(try await h.store.streamVersion(of: "pet-1"))
        let next = try await h.store.append(to: "pet-1", expected: .exact(version), [event("After")])
        #expect(next.firstPosition == UInt64(written.count))
        #expect(next.streams == [.init(stream: "pet-1", version: version + 1)])
        try h.reopen()
        let all = try await h.store.readAll()
        #expect(all.count == written.count + 1)
        for (a, b) in zip(all, all.dropFirst()) { #expect(a.recordedAt <= b.recordedAt) }
    }

    @Test
    func aCommitLargerThanASegmentIsStillOneCommit() async throws {
        let h = try Harness(.fileSmallSegments)
        try await h.store.append(to: "small-1", events(3))
        let big = (0..<50).map { i in event("Big", "{\"i\":\(i),\"pad\":\"\(noise(500))\"}") }
        let r = try await h.store.append(to: "big-1", expected: .noStream, big)
        #expect(r.firstPosition == 3)
        #expect(r.lastPosition == 52)
        try await h.store.append(to: "small-1", events(1))
        try h.reopen()
        #expect(try await h.store.events(of: "big-1").map(\.id) == big.map(\.id))
        #expect(try await h.store.readAll().map(\.position) == Array(0...53))
    }

    @Test
    func statsAndVerifyAgreeWithWhatWasWritten() async throws {
        let h = try Harness(.fileSmallSegments)
        for i in 0..<20 {
            try await h.store.append(to: try StreamID("pet-\(i % 5)"), events(3, prefix: noise(100)))
        }
        do {
            let store = try #require(h.store as? FileEventStore)
            let stats = try store.stats()
            #expect(stats.events == 60)
            #expect(stats.streams == 5)
            #expect(stats.firstPosition == 0)
            #expect(stats.lastPosition == 59)
            #expect(stats.segments == (try store.segmentNames().count))
            let report = try store.verify()
            #expect(report.isOK, "\(report.problems)")
            #expect(report.events == 60)
        }
        try h.reopen()
        let reopened = try #require(h.store as? FileEventStore)
        #expect(reopened.recovery == nil, "a cleanly written store needs no repair")
        #expect(try reopened.verify().isOK)
    }

    @Test
    func failedAppendsLeaveNothingOnDisk() async throws {
        let h = try Harness(.fileSmallSegments)
        try await h.store.append(to: "pet-1", events(2))
        await expectError(.wrongExpectedVersion(stream: "pet-1", expected: .noStream, actual: 1)) {
            try await h.store.append(to: "pet-1", expected: .noStream, events(3))
        }
        await expectInvalidRequest { try await h.store.append(to: "pet-1", [event("bad type")]) }
        try h.reopen()
        #expect(try await h.store.lastPosition() == 1)
        #expect(try await h.store.append(to: "pet-1", expected: .exact(1), events(1)).firstPosition == 2)
    }

    /// Two store instances on one directory behave like two processes: each sees what the other commits, and
    /// optimistic concurrency holds across them.
    @Test
    func twoInstancesOnOneDirectorySeeEachOthersAppends() async throws {
        let h = try Harness(.fileSmallSegments)
        let other = try FileEventStore.open(path: h.directory, options: Harness.options(.fileSmallSegments))
        try await h.store.append(to: "pet-1", expected: .noStream, [event("A")])
        #expect(try await other.waitForAppends(after: nil, timeout: .seconds(20)))
        #expect(try await other.streamVersion(of: "pet-1") == 0)
        #expect(try await other.events(of: "pet-1").map(\.type) == ["A"])
        // The other instance appends with the version it read; the first sees it and is refused the same slot.
        try await other.append(to: "pet-1", expected: .exact(0), [event("B")])
        await expectError(.wrongExpectedVersion(stream: "pet-1", expected: .exact(0), actual: 1)) {
            try await h.store.append(to: "pet-1", expected: .exact(0), [event("C")])
        }
        #expect(try await h.store.events(of: "pet-1").map(\.type) == ["A", "B"])
        #expect(try await h.store.lastPosition() == 1)
        // Idempotency spans instances too.
        let e = event("D")
        try await h.store.append(to: "pet-2", [e])
        #expect(try await other.append(to: "pet-2", [e]).wasAlreadyCommitted)
        await expectIdempotencyConflict { try await other.append(to: "pet-3", [e]) }
    }

    @Test
    func writersOnTwoInstancesRacingOnOneStreamLoseNothing() async throws {
        let h = try Harness(.fileSmallSegments)
        let stores: [any EventStore] = [
            h.store, try FileEventStore.open(path: h.directory, options: Harness.options(.fileSmallSegments)),
        ]
        let perWriter = 10
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<6 {
                let store = stores[w % 2]
                group.addTask {
                    for i in 0..<perWriter {
                        let e = event("Inc", "{\"w\":\(w),\"i\":\(i),\"pad\":\"\(noise(300))\"}")
                        while true {
                            let v = try await store.streamVersion(of: "counter-1")
                            do {
                                try await store.append(to: "counter-1", expected: v.map { .exact($0) } ?? .noStream, [e])
                                break
                            } catch EventStoreError.Code.wrongExpectedVersion {
                                continue
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for store in stores {
            let read = try await store.events(of: "counter-1")
            #expect(read.map(\.version) == Array(0..<60))
            #expect(read.map(\.position) == Array(0..<60))
            #expect(Set(read.map(\.id)).count == 60)
        }
        try h.reopen()
        #expect(try await h.store.readAll().count == 60)
    }
}
