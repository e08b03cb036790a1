import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// Index runs: the merged indexes of consecutive sealed segments that appends and stream reads ask instead of
/// each segment. Every answer must be the one the segments give.
@Suite struct FileStoreIndexRunTests {
    /// Six events a segment, a run every three sealed segments, no flush (the tests are about lookups).
    static let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, indexRunSegments: 3)

    /// The options of a process that uses the runs it finds but builds none, so that no upkeep builds a run again
    /// behind a test's checks.
    static var usingRuns: FileEventStoreOptions {
        var o = options
        o.indexRunSegments = 0
        return o
    }

    /// Flips the lowest bit of a file's last byte (in a run file, a segment list or an id entry: the body, not the header).
    static func flipLastByte(_ path: String) throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[bytes.count - 1] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// What a workload appended: each stream's event ids in version order, and every request with its result.
    struct Written {
        var streams: [StreamID: [UUID]] = [:]
        var appends: [(request: AppendRequest, result: AppendResult)] = []
    }

    /// 40 commits: two events to one of nine busy streams and one to a stream of its own, so runs hold streams
    /// spread over many segments and streams that appear once.
    static func fill(_ store: FileEventStore) async throws -> Written {
        var written = Written()
        for k in 0..<40 {
            let busy = stream("busy-\(k % 9)")
            let lonely = stream("lonely-\(k)")
            let entries: [AppendRequest.Entry] = [
                .init(stream: busy, event: event("Ticked", "{\"k\":\(k),\"i\":0}")),
                .init(stream: busy, event: event("Ticked", "{\"k\":\(k),\"i\":1}")),
                .init(stream: lonely, event: event("Started", "{\"k\":\(k)}")),
            ]
            let request = AppendRequest(entries: entries)
            let result = try await store.append(request)
            for e in entries { written.streams[e.stream, default: []].append(e.event.id) }
            written.appends.append((request, result))
        }
        return written
    }

    /// Fills a new store in a directory and closes it (its upkeep done).
    static func filledStore(_ dir: TemporaryDirectory) async throws -> Written {
        let store = try FileEventStore.open(path: dir.path, options: options)
        let written = try await fill(store)
        store.close()
        return written
    }

    /// Checks every stream's version and events, retries of old appends, and conflicts, against what was written.
    static func expectAnswers(_ store: FileEventStore, _ written: Written, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (s, ids) in written.streams {
            #expect(try await store.streamVersion(of: s) == UInt64(ids.count - 1), "\(s)", sourceLocation: sourceLocation)
            let read = try await store.events(of: s)
            #expect(read.map(\.id) == ids, "\(s)", sourceLocation: sourceLocation)
            #expect(read.map(\.version) == (0..<UInt64(ids.count)).map { $0 }, "\(s)", sourceLocation: sourceLocation)
            let backward = try await store.readAll(.stream(s), direction: .backward, pageSize: 2)
            #expect(backward.map(\.id) == ids.reversed(), "\(s)", sourceLocation: sourceLocation)
        }
        // Retries of appends long sealed away return their first result and write nothing.
        let before = try await store.lastPosition()
        for k in [0, 1, 17, 39] {
            let (request, result) = written.appends[k]
            let retried = try await store.append(request)
            #expect(retried.wasAlreadyCommitted, "append \(k)", sourceLocation: sourceLocation)
            #expect(retried.firstPosition == result.firstPosition && retried.lastPosition == result.lastPosition, sourceLocation: sourceLocation)
        }
        #expect(try await store.lastPosition() == before, sourceLocation: sourceLocation)
    }

    @Test func `runs cover the sealed segments and every lookup answers as the segments do`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        let written = try await Self.fill(store)
        store.close()
        let stats = try store.stats()
        // 120 events in segments of 6: 20 sealed (and an empty active one), 6 runs of 3 cover 18 of them.
        #expect(stats.segments == 21)
        #expect(stats.indexRuns == 6)
        #expect(stats.indexedSegments == 18)
        // Counted through the runs' stream indexes and the segments beyond them.
        #expect(stats.streams == UInt64(written.streams.count))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/runs/00000000000000000000-00000000000000000017.ridx"))
        #expect(FileManager.default.fileExists(atPath: dir.path + "/runs/00000000000000000000-00000000000000000017.eidx"))
        try await Self.expectAnswers(store, written)

        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(try reopened.stats().indexRuns == 6)
        try await Self.expectAnswers(reopened, written)
        #expect(try reopened.verify().problems == [])
    }

    @Test func `appends find old streams and ids through the runs`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        let written = try await Self.fill(store)
        store.close()
        #expect(try store.stats().indexedSegments == 18)

        // A stream that appears once, in the first segment, exists.
        await expectError(.wrongExpectedVersion(stream: "lonely-0", expected: .noStream, actual: 0)) {
            try await store.append(to: "lonely-0", expected: .noStream, [event()])
        }
        // A busy stream's version is the one in its newest segment.
        let busy0 = written.streams["busy-0"]!
        let appended = try await store.append(to: "busy-0", expected: .exact(UInt64(busy0.count - 1)), [event()])
        #expect(appended.streams == [.init(stream: "busy-0", version: UInt64(busy0.count))])
        // An id from the first segment with other content is refused, whatever stream it names.
        let oldID = written.streams["lonely-0"]![0]
        await expectIdempotencyConflict {
            try await store.append(to: "fresh", [event("Started", "{\"other\":true}", id: oldID)])
        }
        #expect(try await store.streamVersion(of: "fresh") == nil)
    }

    @Test func `deleted runs are built again and lookups work without them meanwhile`() async throws {
        let dir = TemporaryDirectory()
        let written = try await Self.filledStore(dir)
        try FileManager.default.removeItem(atPath: dir.path + "/runs")
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(try store.stats().indexRuns == 0)
        try await Self.expectAnswers(store, written)

        // The next append's upkeep builds them again.
        let more = try await store.append(to: "busy-1", [event()])
        store.close()
        #expect(try store.stats().indexedSegments == 18)
        #expect(try await store.streamVersion(of: "busy-1") == more.streams[0].version)
        #expect(try store.verify().problems == [])
    }

    /// A header that does not fit (here the segments' identity) is seen at open: the run is passed over.
    @Test func `a run whose header does not fit is passed over at open, reported by verify, and built again`() async throws {
        let dir = TemporaryDirectory()
        let written = try await Self.filledStore(dir)
        let runs = dir.path + "/runs/"
        let second = runs + "00000000000000000018-00000000000000000035.ridx"
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: second)))
        bytes[32] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: second))

        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        // Runs are taken up from the first segment on: the first run only, the rest waits for the second.
        let stats = try store.stats()
        #expect(stats.indexRuns == 1)
        #expect(stats.indexedSegments == 3)
        let problems = try store.verify().problems
        #expect(problems.map(\.file) == ["runs/00000000000000000018-00000000000000000035.ridx"])
        #expect(problems.first?.message.contains("does not match its segments") == true)
        // Before any append (whose upkeep builds the run again), lookups ask the segments the damaged run covers.
        for (s, ids) in written.streams { #expect(try await store.streamVersion(of: s) == UInt64(ids.count - 1)) }
        try await Self.expectAnswers(store, written)

        _ = try await store.append(to: "busy-2", [event()])
        store.close()
        #expect(try store.stats().indexedSegments == 18)
        #expect(try store.verify().problems == [])
    }

    /// The body of a `.ridx` (about 32 bytes a stream the run holds) is checked at the first stream lookup, not at
    /// open. Damaged there, lookups ask the run's segments, the file is removed, and the writer's next upkeep passes
    /// the run over and builds it again, within the same process.
    @Test func `a run's stream index is checked at the first stream lookup, and when damaged the segments answer and it is built again`() async throws {
        let dir = TemporaryDirectory()
        let written = try await Self.filledStore(dir)
        let ridx = dir.path + "/runs/00000000000000000018-00000000000000000035.ridx"
        try Self.flipLastByte(ridx)

        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        func checked() throws -> [Bool] { try store.withState(writer: false) { s in s.runs.map { $0.streams != nil } } }
        #expect(try checked() == Array(repeating: false, count: 6), "the open reads the headers only")
        let problems = try store.verify().problems
        #expect(problems.map(\.file) == ["runs/00000000000000000018-00000000000000000035.ridx"])

        for (s, ids) in written.streams {
            #expect(try await store.streamVersion(of: s) == UInt64(ids.count - 1))
            #expect(try await store.events(of: s).map(\.id) == ids)
        }
        #expect(try checked() == [true, false, true, true, true, true])
        #expect(try store.withState(writer: false) { s in s.runs[1].isUnusable })
        #expect(!FileManager.default.fileExists(atPath: ridx), "removed, so that no open takes the run up")
        #expect(try store.stats().streams == UInt64(written.streams.count), "counted through the run's segments")
        try await Self.expectAnswers(store, written)

        // The next append's upkeep passes the run over and builds it again.
        _ = try await store.append(to: "busy-2", [event()])
        store.close()
        #expect(try store.withState(writer: false) { s in s.runs.contains(where: \.isUnusable) } == false)
        #expect(try store.stats().indexedSegments == 18)
        #expect(try store.verify().problems == [])
        #expect(FileManager.default.fileExists(atPath: ridx))
    }

    /// A run's `.eidx` is the largest index file (about 6.5 bytes an event it covers), and only id lookups (appends)
    /// need it, so an open reads its header alone and the first lookup checks the rest. Damaged there, the lookup
    /// asks the run's segments, and the file is removed so that the next open passes the run over and the upkeep
    /// builds it again (a writer's own upkeep does so at once, as the next test shows for the `.ridx`).
    @Test func `a run's id index is checked at the first id lookup, and when damaged the segments answer and it is built again`() async throws {
        let dir = TemporaryDirectory()
        let written = try await Self.filledStore(dir)
        let eidx = dir.path + "/runs/00000000000000000018-00000000000000000035.eidx"
        try Self.flipLastByte(eidx)

        let store = try FileEventStore.open(path: dir.path, options: Self.usingRuns)
        func checked() throws -> [Bool] { try store.withState(writer: false) { s in s.runs.map { $0.ids != nil } } }
        #expect(try store.stats().indexRuns == 6, "the header fits, so the run is taken up")
        for (s, ids) in written.streams { #expect(try await store.events(of: s).map(\.id) == ids) }
        #expect(try checked() == Array(repeating: false, count: 6), "reads leave the id indexes unread")
        #expect(try store.verify().problems.map(\.file) == ["runs/00000000000000000018-00000000000000000035.eidx"])

        // The retry of an append inside the damaged run finds it through the run's segments.
        let (request, result) = written.appends[8]
        let retried = try await store.append(request)
        #expect(retried.wasAlreadyCommitted && retried.firstPosition == result.firstPosition)
        #expect(try checked() == [true, false, true, true, true, true])
        #expect(try store.withState(writer: false) { s in s.runs[1].idsFile.failed })
        #expect(!FileManager.default.fileExists(atPath: eidx), "removed, for the upkeep to build again")
        await expectIdempotencyConflict { try await store.append(to: "fresh", [event("Started", "{\"other\":true}", id: written.streams["lonely-7"]![0])]) }
        try await Self.expectAnswers(store, written)
        store.close()

        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(try reopened.stats().indexRuns == 1, "passed over from the damaged run on")
        _ = try await reopened.append(to: "busy-2", [event()])
        reopened.close()
        #expect(try reopened.stats().indexedSegments == 18)
        #expect(try reopened.verify().problems == [])
        #expect(try await reopened.append(request).wasAlreadyCommitted, "found through the run built again")
        #expect(try reopened.withState(writer: false) { s in s.runs[1].ids != nil })
    }

    @Test func `a run over a damaged segment is not built and lookups ask the segments`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(
            createIfMissing: true, maxSegmentEvents: 6, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)
        let written: Written
        do {
            let store = try FileEventStore.open(path: dir.path, options: options)
            written = try await Self.fill(store)
            store.close()
        }
        // Damage the data of the fifth segment (positions 24-29), beyond the first run.
        let segment = dir.path + "/segments/00000000000000000024.seg"
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[LogFormat.segmentHeaderSize + 20] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: segment))

        var withRuns = Self.options
        withRuns.compactSealedSegments = false
        let store = try FileEventStore.open(path: dir.path, options: withRuns)
        _ = try await store.append(to: "busy-3", [event()])
        store.close()
        let stats = try store.stats()
        #expect(stats.indexRuns == 1, "the run over segments 3-5 reads the damaged one and is not built")
        #expect(stats.indexedSegments == 3)
        // Streams that do not reach the damage read as before; the damaged one's stream read fails, as without runs.
        #expect(try await store.events(of: "lonely-0").map(\.id) == written.streams["lonely-0"]!)
        #expect(try await store.streamVersion(of: "lonely-39") == 0)
    }

    @Test func `runs left from another store with the same segment layout are not taken up`() async throws {
        let first = TemporaryDirectory()
        let second = TemporaryDirectory()
        var written: [Written] = []
        for dir in [first, second] {
            let store = try FileEventStore.open(path: dir.path, options: Self.options)
            written.append(try await Self.fill(store))
            store.close()
        }
        // Both stores have the same positions, segments and counts; only their events (and times) differ.
        let runs = try FileManager.default.contentsOfDirectory(atPath: second.path + "/runs").sorted()
        #expect(runs.count == 12)
        #expect(runs == (try FileManager.default.contentsOfDirectory(atPath: first.path + "/runs").sorted()))
        try FileManager.default.removeItem(atPath: second.path + "/runs")
        try FileManager.default.copyItem(atPath: first.path + "/runs", toPath: second.path + "/runs")

        let store = try FileEventStore.open(path: second.path, options: Self.options)
        #expect(try store.stats().indexRuns == 0)
        for (s, ids) in written[1].streams { #expect(try await store.streamVersion(of: s) == UInt64(ids.count - 1)) }
        // The first store's ids are unknown here: appending one is a new event, not a retry.
        let foreign = written[0].appends[0].request
        #expect(try await store.append(foreign).wasAlreadyCommitted == false)
    }

    @Test func `a run checked outside the state lock is taken up only where it continues the runs in use`() async throws {
        let dir = TemporaryDirectory()
        _ = try await Self.filledStore(dir)
        try FileManager.default.moveItem(atPath: dir.path + "/runs", toPath: dir.path + "/runs-aside")
        let view = LogState(root: dir.path, options: Self.options)
        try view.refresh(writer: false)
        #expect(view.runs.isEmpty)
        try FileManager.default.moveItem(atPath: dir.path + "/runs-aside", toPath: dir.path + "/runs")
        let first = try #require(IndexRun.load(directory: view.runsDirectory, segments: view.sealed[0..<3]))
        let third = try #require(IndexRun.load(directory: view.runsDirectory, segments: view.sealed[6..<9]))
        #expect(view.adopt(third) == false, "a gap before it")
        #expect(view.adopt(first))
        #expect(view.adopt(first) == false, "already covered")
        #expect(view.coveredSegments == 3)
        // Lookups go through it: the first segment's streams are found.
        #expect(try view.currentVersion(stream("lonely-0")) == 0)
    }
}
