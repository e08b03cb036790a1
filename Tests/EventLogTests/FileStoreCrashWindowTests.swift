import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

/// Crash windows: what another writer or a power loss can leave behind, and what must never
/// follow from it (acknowledged data dropped, unacknowledged data overwritten into a false history, a store
/// that refuses appends forever).
@Suite struct FileStoreCrashWindowTests {
    private func readAll(_ store: FileEventStore) async throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        try await store.forEachPage(.all, pageSize: 1000) { all += $0; return true }
        return all
    }

    private func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func `an acknowledged commit read back as zeros is damage, never a clean end`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        for i in 0..<3 { _ = try await store.append(AppendRequest(stream: stream("pet-1"), events: [.json("W", #"{"i":\#(i)}"#)])) }
        store.close()
        let name = try #require(try store.segmentNames().last)
        let last = try #require(try store.inspect(segment: name).frames.last)
        let path = dir.path + "/segments/" + name
        var bytes = try data(path)
        bytes.replaceSubrange(Int(last.offset)..<Int(last.offset + last.length), with: Data(count: Int(last.length)))
        try bytes.write(to: URL(fileURLWithPath: path))
        for _ in 0..<2 {
            let reopened = try FileEventStore.open(path: dir.path)
            await #expect(throws: EventStoreError.self) { _ = try await readAll(reopened) }
            await #expect(throws: EventStoreError.self) {
                _ = try await reopened.append(AppendRequest(stream: stream("pet-1"), expected: .exact(1), events: [.json("W", "{}")]))
            }
            #expect(try reopened.verify().problems.contains { $0.offset == last.offset })
        }
    }

    @Test func `an active segment cut inside its header after commits is damage, kept; one torn while created is removed`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 2)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for i in 0..<3 { _ = try await store.append(AppendRequest(stream: stream("pet-1"), events: [.json("W", #"{"i":\#(i)}"#)])) }
        store.close()
        let name = try #require(try store.segmentNames().last)
        let path = dir.path + "/segments/" + name
        // Damage: the head names a commit in the segment, whose file is now shorter than a header. An open must
        // not take it for a crash while the segment was created and remove the file.
        try Data(try data(path).prefix(30)).write(to: URL(fileURLWithPath: path))
        for _ in 0..<2 {
            let reopened = try FileEventStore.open(path: dir.path, options: options)
            #expect(reopened.recoveries.isEmpty)
            await #expect(throws: EventStoreError.self) { _ = try await readAll(reopened) }
            await #expect(throws: EventStoreError.self) {
                _ = try await reopened.append(AppendRequest(stream: stream("pet-1"), expected: .exact(2), events: [.json("W", "{}")]))
            }
            #expect(try data(path).count == 30, "the file is kept as it is")
            reopened.close()
        }
        #expect(try FileEventStore.verifyWithoutOpening(path: dir.path).problems.contains { $0.file == name })

        // A crash while a segment is created: the head still names the one before, and the short file is removed.
        let torn = TemporaryDirectory()
        let first = try FileEventStore.open(path: torn.path, options: options)
        for i in 0..<2 { _ = try await first.append(AppendRequest(stream: stream("pet-1"), events: [.json("W", #"{"i":\#(i)}"#)])) }
        first.close()
        let next = torn.path + "/segments/00000000000000000002.seg"
        try Data(count: 30).write(to: URL(fileURLWithPath: next))
        let recovered = try FileEventStore.open(path: torn.path, options: options)
        defer { recovered.close() }
        #expect(recovered.recoveries.map(\.reason) == ["segment file was created but its header never completed"])
        #expect(!FileManager.default.fileExists(atPath: next))
        #expect(try await readAll(recovered).count == 2)
    }

    @Test func `a second writer's durable commit that never reached the head is kept, not overwritten`() async throws {
        let dir = TemporaryDirectory()
        let a = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        _ = try await a.append(AppendRequest(stream: stream("pet-1"), events: [.json("W", #"{"by":"a"}"#)]))
        let headAfterA = try data(dir.path + "/head")
        let b = try FileEventStore.open(path: dir.path)
        _ = try await b.append(AppendRequest(stream: stream("pet-1"), expected: .exact(0), events: [.json("W", #"{"by":"b"}"#)]))
        b.close()
        // B dies after its flush, before moving the head.
        try headAfterA.write(to: URL(fileURLWithPath: dir.path + "/head"))
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: stream("pet-1"), expected: .exact(0), actual: 1)) {
            _ = try await a.append(AppendRequest(stream: stream("pet-1"), expected: .exact(0), events: [.json("W", #"{"by":"a"}"#)]))
        }
        let r = try await a.append(AppendRequest(stream: stream("pet-1"), expected: .exact(1), events: [.json("W", #"{"by":"a"}"#)]))
        #expect(r.firstPosition == 2)
        a.close()
        let reopened = try FileEventStore.open(path: dir.path)
        #expect(try await readAll(reopened).map(\.version) == [0, 1, 2])
        #expect(try reopened.verify().isOK)
    }

    @Test func `a segment sealed by a writer that died before moving the head is not mistaken for a torn tail`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4, compactSealedSegments: false)
        let a = try FileEventStore.open(path: dir.path, options: options)
        _ = try await a.append(AppendRequest(stream: stream("pet-1"), events: [.json("W", "{}")]))
        let b = try FileEventStore.open(path: dir.path, options: options)
        for _ in 0..<3 { _ = try await b.append(AppendRequest(stream: stream("pet-2"), events: [.json("W", "{}")])) }
        let headBeforeSeal = try data(dir.path + "/head")
        // B's next append seals the full segment and starts the next; then B "dies" before the head moves on.
        _ = try await b.append(AppendRequest(stream: stream("pet-2"), events: [.json("W", "{}")]))
        b.close()
        try headBeforeSeal.write(to: URL(fileURLWithPath: dir.path + "/head"))
        let r = try await a.append(AppendRequest(stream: stream("pet-1"), events: [.json("W", "{}")]))
        #expect(r.firstPosition == 5)
        a.close()
        let reopened = try FileEventStore.open(path: dir.path)
        #expect(try await readAll(reopened).map(\.position) == Array(0...5))
        #expect(try reopened.verify().isOK)
        #expect(try reopened.segmentNames().count == 2)
    }

    @Test func `a group commit torn by a power loss is cut off, even when its later frames reached the disk`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        _ = try await store.append(AppendRequest(stream: stream("first"), events: [.json("W", "{}")]))
        // Many concurrent appends so that groups of several commits form.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<16 {
                group.addTask {
                    for i in 0..<10 { _ = try await store.append(AppendRequest(stream: stream("w-\(w)"), events: [.json("W", #"{"i":\#(i)}"#)])) }
                }
            }
            try await group.waitForAll()
        }
        store.close()
        let name = try #require(try store.segmentNames().last)
        let frames = try store.inspect(segment: name).frames
        // The last group of at least two frames: zero its first frame, as if that page never reached the disk.
        let starts = frames.indices.filter { frames[$0].groupIndex == 0 }
        let groupStart = try #require(starts.last { s in s + 1 < frames.count && frames[s + 1].groupIndex == 1 })
        let groupEnd = starts.first { $0 > groupStart } ?? frames.count
        let victim = frames[groupStart]
        let path = dir.path + "/segments/" + name
        var bytes = try data(path)
        bytes.replaceSubrange(Int(victim.offset)..<Int(victim.offset + victim.length), with: Data(count: Int(victim.length)))
        // Everything after that group is lost too (it was never written: the group was never flushed).
        if groupEnd < frames.count {
            let cut = Int(frames[groupEnd].offset)
            bytes.replaceSubrange(cut..<bytes.count, with: Data(count: bytes.count - cut))
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: dir.path + "/head")
        let reopened = try FileEventStore.open(path: dir.path)
        #expect(reopened.recovery?.truncatedAt == victim.offset)
        #expect(try await readAll(reopened).count == Int(victim.firstPosition))
        let r = try await reopened.append(AppendRequest(stream: stream("after"), events: [.json("W", "{}")]))
        #expect(r.firstPosition == victim.firstPosition)
        #expect(try reopened.verify().isOK)
    }
}
