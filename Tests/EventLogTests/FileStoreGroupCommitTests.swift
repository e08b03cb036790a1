@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// The committer's fast paths: commits prepared by the appending task, small commits stored uncompressed under
/// load, and the writer lock kept across back-to-back groups.
@Suite struct FileStoreGroupCommitTests {
    private func readAll(_ store: FileEventStore) async throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        try await store.forEachPage(.all) { page in
            all += page
            return true
        }
        return all
    }

    private func request(_ entries: [(String, ExpectedVersion?)], checks: [(String, ExpectedVersion)] = []) -> AppendRequest {
        var expectations: [AppendRequest.Expectation] = []
        for (s, e) in entries {
            if let e, !expectations.contains(where: { $0.stream == stream(s) }) {
                expectations.append(.init(stream: stream(s), expected: e))
            }
        }
        for (s, e) in checks { expectations.append(.init(stream: stream(s), expected: e, checkOnly: true)) }
        return AppendRequest(
            entries: entries.map { .init(stream: stream($0.0), event: .json("Noted", "{\"note\":\"\(String(repeating: "abc", count: 40))\"}")) },
            expectations: expectations)
    }

    // MARK: - Prepared commits

    @Test func `versions are guessed from exact and no-stream expectations, in entry order`() throws {
        let r = request([("a-1", .exact(4)), ("b-1", .noStream), ("a-1", .exact(4)), ("a-1", nil)], checks: [("c-1", .exact(9))])
        let p = try #require(PreparedCommit.prepare(r, sizeLimit: 1 << 20, underLoad: true, level: 1, dictionary: { nil }, compressors: CompressorPool(keep: 1)))
        #expect(p.versions == [5, 0, 6, 7])
        #expect(p.stored.codec == .none)
        #expect(p.stored.bytes == p.payload)
        #expect(p.stored.rawLength == p.payload.count)
    }

    @Test func `a guess holds only for exactly the versions the plan gave`() throws {
        let r = request([("a-1", .exact(1)), ("a-1", .exact(1))])
        let p = try #require(PreparedCommit.prepare(r, sizeLimit: 1 << 20, underLoad: true, level: 1, dictionary: { nil }, compressors: CompressorPool(keep: 1)))
        let planned = { (versions: [UInt64]) in
            zip(r.entries, versions).map { AppendPlanner.PlannedEvent(stream: $0.0.stream, version: $0.1, event: $0.0.event) }
        }
        #expect(p.matches(planned([2, 3])))
        #expect(!p.matches(planned([3, 4])))
        #expect(!p.matches(planned([2])))
    }

    @Test(arguments: [ExpectedVersion.any, .streamExists])
    func `no guess without a known version`(expected: ExpectedVersion) {
        let r = request([("a-1", .exact(1)), ("b-1", expected)])
        #expect(PreparedCommit.prepare(r, sizeLimit: 1 << 20, underLoad: true, level: 1, dictionary: { nil }, compressors: CompressorPool(keep: 1)) == nil)
    }

    @Test func `no guess for a stream written without an expectation, or a commit over the size limit`() {
        let unexpected = AppendRequest(
            entries: [.init(stream: stream("a-1"), event: .json("Noted", "{}"))],
            expectations: [.init(stream: stream("b-1"), expected: .exact(0))])
        #expect(PreparedCommit.prepare(unexpected, sizeLimit: 1 << 20, underLoad: true, level: 1, dictionary: { nil }, compressors: CompressorPool(keep: 1)) == nil)
        let small = request([("a-1", .noStream)])
        #expect(PreparedCommit.prepare(small, sizeLimit: 100, underLoad: true, level: 1, dictionary: { nil }, compressors: CompressorPool(keep: 1)) == nil)
    }

    /// Slots are found by a scan among a few streams and through a dictionary among more: both give each stream's
    /// versions in entry order.
    @Test(arguments: [1, StreamSlots.scanLimit, StreamSlots.scanLimit + 1, 40])
    func `a guess follows each stream's versions however many streams`(streamCount: Int) throws {
        var entries: [(String, ExpectedVersion?)] = []
        var versions: [UInt64] = []
        for round in 0..<2 {
            for i in 0..<streamCount {
                entries.append(("s-\(i)", i % 2 == 0 ? .exact(UInt64(i)) : .noStream))
                versions.append((i % 2 == 0 ? UInt64(i) + 1 : 0) + UInt64(round))
            }
        }
        let pool = CompressorPool(keep: 1)
        let guess = try #require(PreparedCommit.prepare(request(entries), sizeLimit: 1 << 20, underLoad: true, level: 1, dictionary: { nil }, compressors: pool))
        #expect(guess.versions == versions)
    }

    @Test func `a compressed prepared payload decompresses to exactly the encoded commit`() throws {
        let r = request([("a-1", .noStream), ("a-1", .noStream), ("b-1", .exact(2))])
        let p = try #require(PreparedCommit.prepare(
            r, sizeLimit: 1 << 20, underLoad: false, level: 1, dictionary: { nil }, compressors: CompressorPool(keep: 1)))
        #expect(p.stored.codec == .zstd)
        #expect(p.stored.bytes.count < p.payload.count)
        var expected = ByteWriter()
        CommitCodec.encodeCommitHeader(recordedAtDelta: 0, eventCount: 3, into: &expected)
        for (entry, version) in zip(r.entries, [UInt64(0), 1, 3]) {
            CommitCodec.encodeEvent(stream: entry.stream, version: version, event: entry.event, into: &expected)
        }
        #expect(p.payload == expected.bytes)
        var out: [UInt8] = []
        try p.stored.bytes.withUnsafeBytes { raw in
            try ZstdDecompressor().decompress(raw, size: p.stored.rawLength, dictionary: nil, into: &out)
        }
        #expect(out == p.payload)
    }

    // MARK: - Through the store

    @Test func `a lone writer's small commits are compressed`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        for i in 0..<5 {
            _ = try await store.append(request([("a-1", i == 0 ? .noStream : .exact(UInt64(i - 1)))]))
        }
        store.close()
        let segment = try #require(try store.segmentNames().first)
        let frames = try store.inspect(segment: segment).frames
        #expect(frames.count == 5)
        #expect(frames.allSatisfy { $0.codec == "zstd" && $0.length < UInt64($0.rawLength) })
    }

    @Test func `commits written under concurrent load, compressed or not, read back exactly after reopening`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        let writers = 16
        let appends = 12
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<writers {
                group.addTask {
                    for i in 0..<appends {
                        // Half the writers name exact versions (prepared by the caller), half append with `any`.
                        let expected: ExpectedVersion = w % 2 == 1 ? .any : (i == 0 ? .noStream : .exact(UInt64(i - 1)))
                        let e = ProposedEvent.json("Noted", "{\"writer\":\(w),\"i\":\(i),\"pad\":\"\(String(repeating: "xyz", count: 50))\"}")
                        _ = try await store.append(AppendRequest(stream: stream("w-\(w)"), expected: expected, events: [e]))
                    }
                }
            }
            try await group.waitForAll()
        }
        store.close()
        let reopened = try FileEventStore.open(path: dir.path)
        let all = try await readAll(reopened)
        #expect(all.map(\.position) == Array(0..<UInt64(writers * appends)))
        for w in 0..<writers {
            let mine = all.filter { $0.stream == stream("w-\(w)") }
            #expect(mine.map(\.version) == Array(0..<UInt64(appends)))
            let texts = mine.map { String(decoding: $0.data, as: UTF8.self) }
            #expect(texts.enumerated().allSatisfy { i, t in t.hasPrefix("{\"writer\":\(w),\"i\":\(i),") })
        }
        #expect(try reopened.verify().isOK)
    }

    @Test func `an acknowledged append is visible at once, in this process and to another store`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        let other = try FileEventStore.open(path: dir.path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<8 {
                group.addTask {
                    let s = stream("seen-\(w)")
                    for i in 0..<20 {
                        let r = try await store.append(
                            AppendRequest(stream: s, expected: i == 0 ? .noStream : .exact(UInt64(i - 1)), events: [.json("Noted", "{\"i\":\(i)}")]))
                        // Acknowledged appends are published before the callers resume: no read may miss them,
                        // neither another store's (which reads the head file) nor this one's (its index).
                        #expect(try await other.streamVersion(of: s) == UInt64(i))
                        let page = try await other.read(ReadRequest(source: .all, from: r.lastPosition!, limit: 1))
                        #expect(page.events.first?.stream == s)
                        #expect(try await store.streamVersion(of: s) == UInt64(i))
                    }
                }
            }
            try await group.waitForAll()
        }
        store.close()
    }

    /// Batched commits under load stay compressed: storing them as they are would flush several pages for one.
    @Test func `under load only commits of less than a page go uncompressed`() async throws {
        let dir = NSTemporaryDirectory() + "pawtrail-batched-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try FileEventStore.open(path: dir, options: FileEventStoreOptions(createIfMissing: true, compactSealedSegments: false))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<4 {
                group.addTask {
                    for i in 0..<20 {
                        let events = (0..<100).map { k in
                            ProposedEvent(type: "OrderPlaced", data: Array("{\"order\":\"o-\(w)-\(i)-\(k)\",\"sku\":\"litter-\(k % 7)\",\"qty\":\(k % 3 + 1),\"note\":\"deliver to the back door please\"}".utf8))
                        }
                        _ = try await store.append(AppendRequest(stream: stream("orders-\(w)"), events: events))
                    }
                }
            }
            try await group.waitForAll()
        }
        store.close()
        let frames = try store.inspect(segment: try store.segmentNames()[0]).frames
        let raw = frames.filter { $0.codec == "none" }
        #expect(raw.allSatisfy { $0.length <= 4096 }, "an uncompressed commit under load writes more than one page")
    }

    @Test func `two stores on one directory see each other's appends between their groups`() async throws {
        let dir = TemporaryDirectory()
        let a = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        let b = try FileEventStore.open(path: dir.path)
        let s = stream("shared-1")
        for round in 0..<10 {
            let (first, second) = round % 2 == 0 ? (a, b) : (b, a)
            let v = try await first.streamVersion(of: s)
            _ = try await first.append(AppendRequest(stream: s, expected: v.map { .exact($0) } ?? .noStream, events: [.json("Noted", "{}")]))
            // `second` last wrote before `first` did: its expectation is stale and must fail with the real version.
            let stale: ExpectedVersion = v.map { .exact($0) } ?? .noStream
            await #expect(throws: EventStoreError.wrongExpectedVersion(stream: s, expected: stale, actual: UInt64(round))) {
                _ = try await second.append(AppendRequest(stream: s, expected: stale, events: [.json("Noted", "{}")]))
            }
        }
        a.close()
        b.close()
        let all = try await readAll(try FileEventStore.open(path: dir.path))
        #expect(all.map(\.version) == Array(0..<10))
    }

    @Test func `a store appending without pause still lets another writer in`() async throws {
        let dir = TemporaryDirectory()
        let busy = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        let other = try FileEventStore.open(path: dir.path)
        let started = AsyncStream<Void>.makeStream()
        // Four writers keep the busy store's queue from ever running dry.
        let busyLast = Task {
            try await withThrowingTaskGroup(of: UInt64.self) { group in
                for w in 0..<4 {
                    group.addTask {
                        var last: UInt64 = 0
                        for i in 0..<150 {
                            let r = try await busy.append(AppendRequest(stream: stream("busy-\(w)"), events: [.json("Noted", "{\"i\":\(i)}")]))
                            last = r.lastPosition!
                            if w == 0 && i == 10 { started.continuation.yield() }
                        }
                        return last
                    }
                }
                var last: UInt64 = 0
                for try await l in group { last = max(last, l) }
                return last
            }
        }
        for await _ in started.stream { break }
        var otherPositions: [UInt64] = []
        for _ in 0..<3 {
            let r = try await other.append(AppendRequest(stream: stream("other-1"), events: [.json("Noted", "{}")]))
            otherPositions.append(r.lastPosition!)
        }
        let last = try await busyLast.value
        // The busy store hands the lock over between groups, so the other writer does not wait for it to finish
        // (the first of its appends is enough: how the kernel hands a lock over is not ours to time).
        #expect(otherPositions[0] < last)
        busy.close()
        other.close()
    }

    /// An expected version at the top of the range is a plain conflict for the planner; the caller's guess must
    /// not overflow computing the versions after it.
    @Test func `an exact expectation of UInt64.max - 1 is a wrong expected version, not a crash`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true))
        let s = stream("huge-1")
        await #expect(throws: EventStoreError.wrongExpectedVersion(stream: s, expected: .exact(UInt64.max - 1), actual: nil)) {
            _ = try await store.append(AppendRequest(stream: s, expected: .exact(UInt64.max - 1), events: [.json("Noted", "{}")]))
        }
        store.close()
    }

    /// The training thread samples events exactly as the log encodes them, type names included (a store keeps its
    /// first dictionary for good, so one trained on events without their types would stay with it).
    @Test func `the trained dictionary is trained on events as the log encodes them`() async throws {
        let dir = TemporaryDirectory()
        let type = "WarehouseInventoryAdjustedForCycleCount"
        let options = FileEventStoreOptions(
            createIfMissing: true, durability: .noSync, dictionaryTrainingThreshold: 32 << 10, compactSealedSegments: false)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for i in 0..<300 {
            var entries: [AppendRequest.Entry] = []
            for k in 0..<10 {
                let n = i * 10 + k
                entries.append(.init(stream: stream("sku-\(n % 50)"), event: .json(type, "{\"qty\":\(n % 97),\"bin\":\"B\(n % 13)\"}")))
            }
            _ = try await store.append(AppendRequest(entries: entries))
        }
        store.close()
        let dictDir = dir.path + "/" + LogFormat.dictionariesDirectory
        let names = try FileSystem.contentsOfDirectory(dictDir).filter { $0.hasSuffix(".zdict") }
        let name = try #require(names.first)
        let dictionary = Array(try FileSystem.readFile(dictDir + "/" + name)[24...])
        let typeBytes = Array(type.utf8)
        let containsType = (0...(dictionary.count - typeBytes.count)).contains { Array(dictionary[$0..<($0 + typeBytes.count)]) == typeBytes }
        #expect(containsType, "the dictionary never saw the events' type name")

        // What a lone writer's next commit costs with it, against a dictionary trained on the log's own encoding.
        let all = try await store.read(ReadRequest(source: .all, direction: .backward, from: nil, limit: 3000)).events
        var samples: [UInt8] = []
        var sizes: [Int] = []
        for e in all {
            var w = ByteWriter()
            CommitCodec.encodeEvent(stream: e.stream, version: e.version, event: ProposedEvent(id: e.id, type: e.type, data: e.data, metadata: e.metadata), into: &w)
            samples += w.bytes
            sizes.append(w.count)
        }
        let proper = try ZstdDictionary(bytes: try ZstdDictionary.train(samples: samples, sizes: sizes, capacity: min(64 << 10, samples.count / 16)), level: 1)
        let shipped = try ZstdDictionary(bytes: dictionary, level: 1)
        var payload = ByteWriter()
        CommitCodec.encodeCommitHeader(recordedAtDelta: 0, eventCount: 1, into: &payload)
        CommitCodec.encodeEvent(stream: stream("sku-7"), version: 99, event: .json(type, "{\"qty\":5,\"bin\":\"B3\"}"), into: &payload)
        func size(_ d: ZstdDictionary) throws -> Int {
            var out: [UInt8] = []
            try payload.bytes.withUnsafeBytes { try ZstdCompressor().compress($0, level: 1, dictionary: d, appendingTo: &out) }
            return out.count
        }
        let withShipped = try size(shipped)
        let withProper = try size(proper)
        #expect(withShipped <= withProper + 8, "commit of \(payload.count) bytes: \(withShipped) with the store's dictionary, \(withProper) with one trained on the log's encoding")
    }

    @Test func `two stores racing on shared streams with closes in between lose nothing and never hang`() async throws {
        let dir = TemporaryDirectory()
        let a = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 97, compactSealedSegments: true))
        let b = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(maxSegmentEvents: 97, compactSealedSegments: true))
        let stores = [a, b]
        let done = TaskCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for w in 0..<8 {
                group.addTask {
                    for i in 0..<60 {
                        let store = stores[(w + i) % 2]
                        let s = stream("race-\(i % 3)")
                        while true {
                            let v = try await store.streamVersion(of: s)
                            do {
                                _ = try await store.append(AppendRequest(stream: s, expected: v.map { .exact($0) } ?? .noStream, events: [.json("Noted", "{\"w\":\(w),\"i\":\(i)}")]))
                                break
                            } catch EventStoreError.Code.wrongExpectedVersion {}
                        }
                        if i % 17 == 0 { store.close() }
                    }
                    done.add()
                }
            }
            group.addTask {
                while done.value < 8 {
                    a.close()
                    try await Task.sleep(for: .milliseconds(3))
                    b.close()
                }
            }
            try await group.waitForAll()
        }
        a.close()
        b.close()
        let reopened = try FileEventStore.open(path: dir.path)
        var all: [RecordedEvent] = []
        try await reopened.forEachPage(.all) { page in
            all += page
            return true
        }
        #expect(all.count == 8 * 60)
        #expect(all.map(\.position) == Array(0..<UInt64(all.count)))
        for k in 0..<3 {
            #expect(all.filter { $0.stream == stream("race-\(k)") }.map(\.version) == Array(0..<UInt64(all.filter { $0.stream == stream("race-\(k)") }.count)))
        }
        #expect(try reopened.verify().isOK)
    }
}

/// A count shared by tasks.
private final class TaskCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
