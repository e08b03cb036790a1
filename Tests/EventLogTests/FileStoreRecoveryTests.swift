import EventLog
@testable import EventLogTestKit
import EventLogFile
import Foundation
import Testing

extension Array {
    /// The elements in consecutive groups of `size`.
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}

/// Crash recovery and corruption handling of the file store, by cutting and damaging its files directly.
@Suite struct FileStoreRecoveryTests {
    private func readAll(_ store: FileEventStore) async throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        try await store.forEachPage(.all, pageSize: 1000) { all += $0; return true }
        return all
    }

    private func segmentPath(_ dir: TemporaryDirectory, _ name: String) -> String { dir.path + "/segments/" + name }

    /// Appends `commits` commits of 3 events each to a fresh store.
    private func makeStore(_ dir: TemporaryDirectory, commits: Int, segmentSize: Int = 64 << 20) async throws -> [[RecordedEvent]] {
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, segmentSize: segmentSize))
        for c in 0..<commits {
            let events = (0..<3).map { k in ProposedEvent.json("PetWeighed", #"{"commit":\#(c),"k":\#(k),"grams":\#(4000 + c * 10 + k)}"#) }
            _ = try await store.append(AppendRequest(entries: events.enumerated().map { .init(stream: stream("pet-\($0.offset)"), event: $0.element) }))
        }
        store.close()
        let all = try await readAll(store)
        return stride(from: 0, to: all.count, by: 3).map { Array(all[$0..<($0 + 3)]) }
    }

    @Test func `a cut at every byte of the last commit recovers exactly the earlier commits`() async throws {
        let dir = TemporaryDirectory()
        _ = try await makeStore(dir, commits: 3)
        // The head as it was while the last commit was being written: it moves only after the flush.
        let head = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/head"))
        let writer = try FileEventStore.open(path: dir.path)
        _ = try await writer.append(AppendRequest(entries: (0..<3).map { k in
            .init(stream: stream("pet-\(k)"), event: .json("PetWeighed", #"{"commit":3,"k":\#(k)}"#))
        }))
        writer.close()
        let commits = try await readAll(writer).chunked(3)
        let probe = try FileEventStore.open(path: dir.path)
        let name = try #require(try probe.segmentNames().last)
        let inspection = try probe.inspect(segment: name)
        let last = try #require(inspection.frames.last)
        probe.close()
        let path = segmentPath(dir, name)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let dataEnd = Int(last.offset + last.length)
        // Past the data the writer keeps zeros it wrote ahead of time.
        #expect(original.count >= dataEnd && original[dataEnd...].allSatisfy { $0 == 0 })
        let earlier = commits.dropLast().flatMap { $0 }

        // Two shapes of a crash during the last commit: the file cut short, or the commit's first bytes
        // written over the zeros ahead of it (the rest still zeros).
        for zeroFilled in [false, true] {
            for cut in Int(last.offset)..<dataEnd {
                var torn = original.prefix(cut)
                if zeroFilled { torn.append(Data(count: original.count - cut)) }
                try torn.write(to: URL(fileURLWithPath: path))
                // The head as the crash left it (before the torn commit), or lost with a power loss.
                if zeroFilled {
                    try? FileManager.default.removeItem(atPath: dir.path + "/head")
                } else {
                    try head.write(to: URL(fileURLWithPath: dir.path + "/head"))
                }
                let store = try FileEventStore.open(path: dir.path)
                // Torn bytes that are all zeros are indistinguishable from the zeros ahead: nothing to cut.
                let tornBytesWritten = original[Int(last.offset)..<cut].contains { $0 != 0 }
                if !zeroFilled && cut > Int(last.offset) || zeroFilled && tornBytesWritten {
                    let report = try #require(store.recovery, "cut at \(cut), zero-filled \(zeroFilled)")
                    #expect(report.truncatedAt == last.offset)
                    #expect(report.bytesRemoved == UInt64(torn.count) - last.offset)
                } else {
                    #expect(store.recovery == nil, "cut at \(cut), zero-filled \(zeroFilled)")
                }
                let all = try await readAll(store)
                #expect(all.map(\.id) == earlier.map(\.id), "cut at \(cut), zero-filled \(zeroFilled)")
                #expect(try store.verify().isOK, "cut at \(cut), zero-filled \(zeroFilled)")
                // Closed before the next cut rewrites the file under it.
                store.close()
            }
        }
        // After recovery the log takes new commits at the next position.
        let store = try FileEventStore.open(path: dir.path)
        let r = try await store.append(AppendRequest(stream: stream("pet-0"), events: [.json("PetWeighed", "{}")]))
        #expect(r.firstPosition == UInt64(earlier.count))
        #expect(r.streams.first?.version == 3)
    }

    @Test func `garbage after the last commit is cut off and reported, without the head file too`() async throws {
        let dir = TemporaryDirectory()
        let commits = try await makeStore(dir, commits: 3)
        let probe = try FileEventStore.open(path: dir.path)
        let name = try #require(try probe.segmentNames().last)
        let last = try #require(try probe.inspect(segment: name).frames.last)
        let path = segmentPath(dir, name)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let dataEnd = Int(last.offset + last.length)
        let garbage = Data([0x55, 0x00, 0x00, 0x00] + [UInt8](repeating: 0xAB, count: 40))
        if bytes.count < dataEnd + garbage.count { bytes.append(Data(count: dataEnd + garbage.count - bytes.count)) }
        bytes.replaceSubrange(dataEnd..<(dataEnd + garbage.count), with: garbage)
        try bytes.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: dir.path + "/head")
        let store = try FileEventStore.open(path: dir.path)
        #expect(store.recovery?.truncatedAt == UInt64(dataEnd))
        #expect(store.recovery?.bytesRemoved == UInt64(bytes.count - dataEnd))
        #expect(try await readAll(store).map(\.id) == commits.flatMap { $0 }.map(\.id))
    }

    @Test func `a flipped bit in a sealed segment is found by verify and fails the reads of that commit`() async throws {
        let dir = TemporaryDirectory()
        let commits = try await makeStore(dir, commits: 40, segmentSize: 1024)
        let store = try FileEventStore.open(path: dir.path)
        store.close()
        let names = try store.segmentNames()
        #expect(names.count > 3)
        let victim = names[1]
        let inspection = try store.inspect(segment: victim)
        #expect(inspection.state == "compacted" || inspection.state == "sealed")
        let frame = try #require(inspection.frames.first)
        let path = segmentPath(dir, victim)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let at = Int(frame.offset) + Int(frame.length) - 6
        bytes[at] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: path))

        let reopened = try FileEventStore.open(path: dir.path)
        let report = try reopened.verify()
        #expect(!report.isOK)
        #expect(report.problems.contains { $0.file == victim && $0.offset == frame.offset })
        // Reading the damaged commit fails with an error naming the segment and the frame's offset...
        do {
            _ = try await reopened.read(ReadRequest(source: .all, from: frame.firstPosition, limit: 1))
            Issue.record("read of a damaged commit returned data")
        } catch let error as EventStoreError where error.code == .corrupted {
            #expect(error.location?.hasSuffix(victim) == true)
            #expect(error.offset == frame.offset)
        }
        // ...while commits in other segments still read.
        let firstSegment = try await reopened.read(ReadRequest(source: .all, from: 0, limit: 3))
        #expect(firstSegment.events.map(\.id) == commits[0].map(\.id))
    }

    @Test func `damage inside acknowledged data of the active segment is reported, never cut off`() async throws {
        let dir = TemporaryDirectory()
        _ = try await makeStore(dir, commits: 5)
        let probe = try FileEventStore.open(path: dir.path)
        let name = try #require(try probe.segmentNames().last)
        let frames = try probe.inspect(segment: name).frames
        let path = segmentPath(dir, name)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let size = bytes.count
        bytes[Int(frames[1].offset) + 20] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))

        let store = try FileEventStore.open(path: dir.path)
        #expect(store.recovery == nil)
        #expect(FileStoreRecoveryTests.fileSize(path) == size)
        let ok = try await store.read(ReadRequest(source: .all, from: 0, limit: 3))
        #expect(ok.events.count == 3)
        await #expect(throws: EventStoreError.self) { _ = try await store.read(ReadRequest(source: .all, from: 0, limit: 100)) }
        await #expect(throws: EventStoreError.self) {
            _ = try await store.append(AppendRequest(stream: stream("pet-0"), events: [.json("PetWeighed", "{}")]))
        }
        #expect(FileStoreRecoveryTests.fileSize(path) == size)
        let report = try store.verify()
        #expect(report.problems.contains { $0.file == name && $0.offset == frames[1].offset })
    }

    /// Past the last commit an open reads the preallocated zeros a chunk at a time: a commit far beyond them (past
    /// the first chunks) still shows the zeros are damage, not the end of the data, and zeros alone are a clean end.
    @Test func `a commit found past long zeros makes them damage, and zeros alone end the data`() async throws {
        for withLaterCommit in [true, false] {
            let dir = TemporaryDirectory()
            _ = try await makeStore(dir, commits: 3)
            let probe = try FileEventStore.open(path: dir.path)
            let name = try #require(try probe.segmentNames().last)
            let frames = try probe.inspect(segment: name).frames
            probe.close()
            let path = segmentPath(dir, name)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            // The first commit, 200 KiB of zeros, then (or not) the second commit, whole.
            let firstEnd = Int(frames[0].offset + frames[0].length)
            var damaged = bytes.prefix(firstEnd) + Data(count: 200 << 10)
            if withLaterCommit { damaged += bytes[Int(frames[1].offset)..<Int(frames[1].offset + frames[1].length)] }
            damaged += Data(count: 4096)
            try damaged.write(to: URL(fileURLWithPath: path))
            // Without the head, nothing says the zeros were acknowledged.
            try FileManager.default.removeItem(atPath: dir.path + "/head")
            let store = try FileEventStore.open(path: dir.path)
            defer { store.close() }
            #expect(FileStoreRecoveryTests.fileSize(path) == damaged.count, "nothing is cut off")
            if withLaterCommit {
                await #expect(throws: EventStoreError.self) { _ = try await store.read(ReadRequest(source: .all, from: 0, limit: 100)) }
                #expect(try store.verify().problems.contains { $0.file == name && $0.offset == UInt64(firstEnd) })
            } else {
                #expect(try await readAll(store).count == 3)
                #expect(try await store.append(AppendRequest(stream: stream("pet-0"), events: [.json("PetWeighed", "{}")])).firstPosition == 3)
            }
        }
    }

    @Test func `deleted index files are rebuilt on open`() async throws {
        let dir = TemporaryDirectory()
        let commits = try await makeStore(dir, commits: 30, segmentSize: 1024)
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path + "/segments") where name.hasSuffix("idx") {
            try FileManager.default.removeItem(atPath: dir.path + "/segments/" + name)
        }
        let store = try FileEventStore.open(path: dir.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/segments").contains { $0.hasSuffix(".sidx") })
        let pet1 = try await store.read(ReadRequest(source: .stream(stream("pet-1")), limit: 1000))
        #expect(pet1.events.map(\.id) == commits.map { $0[1].id })
        #expect(try await store.streamVersion(of: stream("pet-2")) == 29)
        let retry = try await store.append(AppendRequest(stream: commits[0][0].stream, events: [
            ProposedEvent(id: commits[0][0].id, type: commits[0][0].type, data: commits[0][0].data, metadata: commits[0][0].metadata)
        ]))
        #expect(retry.wasAlreadyCommitted)
        #expect(try store.verify().isOK)
    }

    @Test func `the time index finds the last event at or before a moment`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, segmentSize: 2048))
        var marks: [(Timestamp, UInt64?)] = [(Timestamp.now(), nil)]
        for i in 0..<40 {
            try await Task.sleep(for: .milliseconds(2))
            let r = try await store.append(AppendRequest(stream: stream("clock-\(i % 3)"), events: [.json("Tick", #"{"i":\#(i)}"#)]))
            try await Task.sleep(for: .milliseconds(2))
            marks.append((Timestamp.now(), r.lastPosition))
        }
        store.close()
        for (t, expected) in marks {
            #expect(try store.lastPosition(atOrBefore: t) == expected)
        }
        #expect(try store.stats().compactedSegments >= 1)
    }

    @Test func `a file shorter than its acknowledged commits is damage, not a torn tail`() async throws {
        let dir = TemporaryDirectory()
        _ = try await makeStore(dir, commits: 4)
        let probe = try FileEventStore.open(path: dir.path)
        let name = try #require(try probe.segmentNames().last)
        let last = try #require(try probe.inspect(segment: name).frames.last)
        let path = segmentPath(dir, name)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: last.offset + 5)
        try handle.close()
        let store = try FileEventStore.open(path: dir.path)
        #expect(store.recovery == nil)
        await #expect(throws: EventStoreError.self) { _ = try await readAll(store) }
        await #expect(throws: EventStoreError.self) {
            _ = try await store.append(AppendRequest(stream: stream("pet-0"), events: [.json("PetWeighed", "{}")]))
        }
        #expect(FileStoreRecoveryTests.fileSize(path) == Int(last.offset) + 5)
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? -1
    }
}
