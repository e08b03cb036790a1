@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// Commits stored uncompressed under load (codec none), through sealing, compaction, reopening, catch-up by
/// another store, `verify`, `inspect` and `stats`.
@Suite struct FileStoreUncompressedLifecycleTests {
    private func readAll(_ store: FileEventStore) async throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        try await store.forEachPage(.all, pageSize: 500) { page in
            all += page
            return true
        }
        return all
    }

    private func codecs(_ store: FileEventStore) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in try store.segmentNames() {
            for f in try store.inspect(segment: name).frames {
                counts["\(f.kind) \(f.codec.hasPrefix("zstd+dictionary") ? "zstd+dictionary" : f.codec)", default: 0] += 1
                #expect(f.checksumOK)
                if f.codec == "none" { #expect(f.length == UInt64(f.rawLength + 52), "a stored frame is header + payload + 8") }
            }
        }
        return counts
    }

    @Test func `commits stored as they are under load survive sealing, compaction, catch-up and reopening`() async throws {
        let dir = NSTemporaryDirectory() + "pawtrail-none-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = FileEventStoreOptions(
            createIfMissing: true, maxSegmentEvents: 64, dictionaryTrainingThreshold: 128 << 10, compactSealedSegments: false)
        let store = try FileEventStore.open(path: dir, options: options)
        let watcher = try FileEventStore.open(path: dir, options: FileEventStoreOptions(compactSealedSegments: false))
        let writers = 12
        let appends = 80
        struct Ack: Sendable { var ids: [UUID]; var result: AppendResult }
        let concurrentAcks = try await withThrowingTaskGroup(of: [Ack].self) { group in
            for w in 0..<writers {
                group.addTask {
                    var mine: [Ack] = []
                    var version: UInt64? = nil
                    for i in 0..<appends {
                        let s = stream("w\(w)-x")
                        let pad = String(repeating: "abcdefgh\(i % 10)", count: 20)
                        let n = 1 + (i % 3)
                        var events = (0..<n).map { k in ProposedEvent(type: "Noted", data: Array("{\"w\":\(w),\"i\":\(i),\"k\":\(k),\"p\":\"\(pad)\"}".utf8)) }
                        if i == 17 && w == 3 {
                            // One large commit (over the dictionary limit): compressed by the committer, never guessed.
                            events = [ProposedEvent(type: "Big", data: Array("{\"p\":\"\(String(repeating: "zyxwvu", count: 20_000))\"}".utf8))]
                        }
                        let expected: ExpectedVersion
                        switch w % 3 {
                        case 0: expected = version.map { .exact($0) } ?? .noStream  // prepared by the caller
                        case 1: expected = .any  // encoded by the committer
                        default: expected = version == nil ? .noStream : .streamExists
                        }
                        var request = AppendRequest(stream: s, expected: expected, events: events)
                        if i % 5 == 0 { request.expectations.append(.init(stream: stream("never-\(w)"), expected: .noStream, checkOnly: true)) }
                        let r = try await store.append(request)
                        version = r.streams.first { $0.stream == s }?.version
                        mine.append(Ack(ids: events.map(\.id), result: r))
                        if i % 7 == 0 { _ = try await watcher.read(ReadRequest(source: .stream(s), limit: 100)) }
                    }
                    return mine
                }
            }
            var all: [Ack] = []
            for try await a in group { all += a }
            return all
        }
        // Training (started past the threshold) finishes; then a lone writer, whose commits use the dictionary.
        store.close()
        var acks2 = concurrentAcks
        var v: UInt64? = nil
        for i in 0..<30 {
            let e = ProposedEvent(type: "Noted", data: Array("{\"lone\":\(i),\"p\":\"\(String(repeating: "abcdefgh", count: 20))\"}".utf8))
            let r = try await store.append(AppendRequest(stream: stream("lone-1"), expected: v.map { .exact($0) } ?? .noStream, events: [e]))
            v = r.streams[0].version
            acks2.append(Ack(ids: [e.id], result: r))
        }
        let acks = acks2
        // Positions the store acknowledged, by event id.
        var expected: [UUID: UInt64] = [:]
        for a in acks {
            for (k, id) in a.ids.enumerated() { expected[id] = a.result.firstPosition! + UInt64(k) }
        }
        let total = expected.count
        func check(_ s: FileEventStore, _ label: String) async throws {
            let all = try await readAll(s)
            #expect(all.count == total, "\(label)")
            #expect(all.map(\.position) == Array(0..<UInt64(total)), "\(label)")
            for e in all { #expect(expected[e.id] == e.position, "\(label)") }
            var versions: [StreamID: UInt64] = [:]
            for e in all {
                #expect(e.version == versions[e.stream].map { $0 + 1 } ?? 0, "\(label)")
                versions[e.stream] = e.version
            }
            for a in acks {
                // Single events read back by id, through the indexes.
                let e = try await s.read(ReadRequest(source: .stream(a.result.streams[0].stream), from: a.result.streams[0].version!, limit: 1))
                #expect(e.events.first?.id == a.ids.last, "\(label)")
            }
            let report = try s.verify()
            #expect(report.isOK, "\(label): \(report.problems)")
            #expect(report.events == UInt64(total), "\(label)")
        }
        let before = try codecs(store)
        #expect(before["commit none", default: 0] > 50, "commits stored as they are under load")
        #expect(before["commit zstd+dictionary", default: 0] > 0, "a lone writer's commits use the dictionary")
        try await check(store, "writer")
        try await check(watcher, "watcher (catch-up scans of codec-none frames)")
        let rawBefore = try store.stats().rawBytes
        #expect(try watcher.stats().rawBytes == rawBefore)
        store.close()
        watcher.close()

        let reopened = try FileEventStore.open(path: dir, options: options)
        #expect(try reopened.stats().rawBytes == rawBefore, "the reopened store's scan counts what publish counted")
        try await check(reopened, "reopened")
        let compacted = try reopened.compact()
        #expect(!compacted.isEmpty)
        let after = try codecs(reopened)
        #expect(after.filter { $0.key.hasPrefix("block ") && $0.key.contains("zstd") }.values.reduce(0, +) > 0, "\(after)")
        try await check(reopened, "compacted")
        reopened.close()
        let last = try FileEventStore.open(path: dir)
        try await check(last, "compacted and reopened")
        let stats = try last.stats()
        #expect(stats.events == UInt64(total) && stats.rawBytes == rawBefore, "\(stats)")
        last.close()
    }
}
