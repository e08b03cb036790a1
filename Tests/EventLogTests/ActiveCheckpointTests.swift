import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// The active segment's checkpoint: written by the writer's upkeep every `checkpointInterval` events, taken up by
/// every open so that only the frames after it are scanned, and passed over whenever it is not exactly what the
/// segment's frames give (damaged, of another file, covering more than is durable, or planted with a valid
/// checksum). A store opened from a checkpoint answers exactly as one opened by scanning.
@Suite struct ActiveCheckpointTests {
    static let options = FileEventStoreOptions(createIfMissing: true, durability: .noSync, checkpointInterval: 10)

    static func checkpointPath(_ dir: TemporaryDirectory) -> String { dir.path + "/segments/00000000000000000000.ckpt" }

    /// The events covered by the checkpoint a store started from (`nil` without one).
    static func adoptedEvents(_ store: FileEventStore) throws -> UInt64? {
        try store.withState(writer: false) { $0.active?.checkpoint?.content.eventCount }
    }

    /// 41 events to 5 streams, in appends of 1 and 3 events; ids `uuid(1)`... in order.
    static func fill(_ store: FileEventStore) async throws {
        var n = 0
        for k in 0..<15 {
            let count = k % 3 == 0 ? 3 : 1
            let batch = (0..<count).map { _ in
                n += 1
                return event("Fed", "{\"n\":\(n)}", id: uuid(n))
            }
            try await store.append(to: stream("pet-\(k % 5)"), batch)
        }
        precondition(n == 25)
        for k in 0..<16 { try await store.append(to: stream("toy-\(k % 2)"), [event("Bought", "{\"k\":\(k)}", id: uuid(100 + k))]) }
    }

    /// A fresh store filled (see `fill`) and closed.
    static func filled(_ options: FileEventStoreOptions = options) async throws -> TemporaryDirectory {
        try await filledStore(options, fill)
    }

    /// A store filled and closed, with its checkpoint's path, its segment and the checkpoint decoded: where the
    /// planted checkpoints start from.
    static func checkpointed() async throws -> (dir: TemporaryDirectory, path: String, segment: FileDescriptor, checkpoint: ActiveCheckpoint) {
        let dir = try await filled()
        let path = checkpointPath(dir)
        let fd = try FileDescriptor.open(dir.path + "/segments/00000000000000000000.seg", .readOnly)
        let checkpoint = try #require(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()))
        return (dir, path, fd, checkpoint)
    }

    /// Writes a checkpoint of the content given, with a valid checksum, in place of the store's.
    static func plant(_ content: ActiveCheckpoint.Content, ids: [(key: UInt64, position: UInt64)], at path: String, segment: FileDescriptor) throws {
        let bytes = try #require(ActiveCheckpoint.encode(content, ids: ids, file: try segment.fileID()))
        try FileSystem.writeAtomically(bytes, to: path, sync: false)
    }

    /// Everything a store answers about its events: the log, each stream's events and version.
    static func answers(_ store: FileEventStore) async throws -> [String] {
        var out = try await store.readAll().map { "\($0.position) \($0.stream) \($0.version) \($0.id) \($0.recordedAt)" }
        for s in (0..<5).map({ "pet-\($0)" }) + ["toy-0", "toy-1", "none-1"] {
            let version = try await store.streamVersion(of: stream(s))
            out.append("\(s) at \(version.map(String.init) ?? "none"): \(try await store.events(of: stream(s)).map(\.position))")
            let backward = try await store.readAll(.stream(stream(s)), direction: .backward).map(\.position)
            out.append("\(s) backward: \(backward)")
        }
        return out
    }

    @Test func `a reopened store starts from the checkpoint and answers as a full scan does`() async throws {
        let dir = try await Self.filled()
        #expect(FileManager.default.fileExists(atPath: Self.checkpointPath(dir)))

        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        let covered = try #require(try Self.adoptedEvents(reopened))
        #expect(covered >= 31 && covered <= 41, "the last checkpoint lies within one interval of the end: \(covered)")
        // The same store scanned from its frames, beside it.
        try FileManager.default.removeItem(atPath: Self.checkpointPath(dir))
        let scanned = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { scanned.close() }
        #expect(try Self.adoptedEvents(scanned) == nil)
        #expect(try await Self.answers(reopened) == (try await Self.answers(scanned)))

        // Retries of events the checkpoint covers (their ids live in it), conflicts, and appends after it.
        let retry = try await reopened.append(
            to: stream("pet-0"), [event("Fed", "{\"n\":1}", id: uuid(1)), event("Fed", "{\"n\":2}", id: uuid(2)), event("Fed", "{\"n\":3}", id: uuid(3))])
        #expect(retry.firstPosition == 0 && retry.lastPosition == 2)
        let late = try await reopened.append(to: stream("toy-1"), [event("Bought", "{\"k\":15}", id: uuid(115))])
        #expect(late.lastPosition == 40)
        await expectIdempotencyConflict { try await reopened.append(to: stream("pet-0"), [event("Fed", "{\"other\":1}", id: uuid(1))]) }
        await expectError(.wrongExpectedVersion(stream: stream("toy-0"), expected: .exact(3), actual: 7)) {
            try await reopened.append(to: stream("toy-0"), expected: .exact(3), [event()])
        }
        #expect(try await reopened.append(to: stream("toy-0"), expected: .exact(7), [event(id: uuid(500))]).lastPosition == 41)
        #expect(try await reopened.append(to: stream("toy-0"), [event(id: uuid(500))]).lastPosition == 41, "a retry of an id after the checkpoint")
        #expect(try await Self.answers(reopened) == (try await Self.answers(scanned)))
        #expect(try reopened.verify().isOK)
    }

    @Test func `a process that appended many events leaves a checkpoint at close, one that appended few does not`() async throws {
        let options = FileEventStoreOptions(createIfMissing: true, durability: .noSync, checkpointInterval: 100_000)
        let bulk = Int(FileEventStore.checkpointAtCloseEvents) + 76
        let dir = try await filledStore(options) { store in
            for k in 0..<(bulk / 100) { try await store.append(to: stream("pet-\(k % 3)"), events(100)) }
        }
        let reopened = try FileEventStore.open(path: dir.path, options: options)
        #expect(try Self.adoptedEvents(reopened) == UInt64(bulk / 100 * 100), "the bulk is covered, though the interval is far off")
        try await reopened.append(to: stream("pet-0"), events(10))
        reopened.close()
        let again = try FileEventStore.open(path: dir.path, options: options)
        defer { again.close() }
        #expect(try Self.adoptedEvents(again) == UInt64(bulk / 100 * 100), "ten events more are left to a later checkpoint")
        #expect(try await again.streamVersion(of: stream("pet-0")) == UInt64((bulk / 100 + 2) / 3 * 100 + 9))
        #expect(try again.verify().isOK)
    }

    @Test func `a checkpoint added to step by step is the one built from the first frame`() async throws {
        let dir = try await Self.filled()
        let onDisk = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.checkpointPath(dir))))
        let mapped = try MappedFile(path: Self.checkpointPath(dir))
        let end = try #require(onDisk.withUnsafeBytes { ActiveCheckpoint.coveredEnd(ofEncoded: $0) })
        let fd = try FileDescriptor.open(dir.path + "/segments/00000000000000000000.seg", .readOnly)
        let rebuilt = try ActiveCheckpoint.build(
            segment: "segment", fd: fd, firstPosition: 0, upTo: end, previous: nil, decompressor: ZstdDecompressor(),
            dictionaries: DictionarySet(directory: dir.path + "/dictionaries", commitLevel: 1, blockLevel: 6))
        #expect(rebuilt == onDisk)
        #expect(ActiveCheckpoint.decode(mapped, firstPosition: 0, file: try fd.fileID()) != nil)
        #expect(ActiveCheckpoint.decode(mapped, firstPosition: 1, file: try fd.fileID()) == nil, "another segment's")
        let other = FileID(device: try fd.fileID().device, inode: try fd.fileID().inode + 1)
        #expect(ActiveCheckpoint.decode(mapped, firstPosition: 0, file: other) == nil, "another file's")
        #expect(ActiveCheckpoint.load(path: Self.checkpointPath(dir), firstPosition: 0, fd: fd, durableEnd: end) != nil)
        #expect(ActiveCheckpoint.load(path: Self.checkpointPath(dir), firstPosition: 0, fd: fd, durableEnd: end - 1) == nil,
            "covers more than the head says is durable")
        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        #expect(try reopened.verify().isOK)
    }

    @Test func `a damaged checkpoint is passed over, reported by verify, and removed by the next writer`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        try await Self.fill(store)
        let expected = try await Self.answers(store)
        store.close()
        let fd = try FileDescriptor.open(Self.checkpointPath(dir), .readWrite)
        var byte = try fd.read(at: 100, count: 1)
        byte[0] ^= 0x10
        try fd.write(byte, at: 100)

        let report = try FileEventStore.verifyWithoutOpening(path: dir.path)
        #expect(!report.isOK)
        #expect(report.problems.contains { $0.file.hasSuffix(".ckpt") }, "\(report)")
        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        #expect(try Self.adoptedEvents(reopened) == nil)
        #expect(try await Self.answers(reopened) == expected)
        #expect(!FileManager.default.fileExists(atPath: Self.checkpointPath(dir)), "the recovering writer removes it")
        #expect(try reopened.verify().isOK)
    }

    @Test func `a copy of the store passes over the checkpoints of the files it was copied from`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        try await Self.fill(store)
        let expected = try await Self.answers(store)
        store.close()
        let copy = TemporaryDirectory()
        try FileManager.default.removeItem(atPath: copy.path)
        try FileManager.default.copyItem(atPath: dir.path, toPath: copy.path)
        #expect(FileManager.default.fileExists(atPath: copy.path + "/segments/00000000000000000000.ckpt"))
        let opened = try FileEventStore.open(path: copy.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { opened.close() }
        #expect(try Self.adoptedEvents(opened) == nil)
        #expect(try await Self.answers(opened) == expected)
    }

    @Test(arguments: PlantedCheckpoint.allCases)
    func `a checkpoint planted with a valid checksum but a wrong structure is refused`(_ planted: PlantedCheckpoint) async throws {
        let (dir, path, fd, good) = try await Self.checkpointed()
        var content = good.fullContent()
        var ids = (0..<good.idCount).map { good.idEntry(at: $0) }
        switch planted {
        case .frameMissing: content.frames.removeFirst()
        case .positionTwice: content.streams[stream("pet-1")]!.positions[0] = content.streams[stream("pet-2")]!.positions[0]
        case .positionOutside: content.streams[stream("pet-1")]!.positions.append(1_000)
        case .idsUnsorted: ids.swapAt(0, 1)
        case .idMissing: ids.removeLast()
        case .endPastLastFrame: content.coveredEnd += 1
        }
        try Self.plant(content, ids: ids, at: path, segment: fd)
        #expect(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()) == nil)
        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { reopened.close() }
        #expect(try Self.adoptedEvents(reopened) == nil)
        #expect(try await reopened.readAll().count == 41)
    }

    enum PlantedCheckpoint: CaseIterable, Sendable {
        case frameMissing, positionTwice, positionOutside, idsUnsorted, idMissing, endPastLastFrame
    }

    /// The streams stay in the mapped checkpoint, found by bisecting their ids' bytes, so their order and their
    /// bytes are checked at load as the dictionary's keys were: planted here byte by byte (the encoder cannot write
    /// either), with the checksum made valid again.
    /// (toy-1, the last id, keeps its place with its last byte 0xFF: only the UTF-8 check refuses it.)
    @Test(arguments: [("pet-1", UInt8(ascii: "3")), ("toy-1", 0xFF)])
    func `a checkpoint whose stream ids are out of order or not UTF-8 is refused`(_ id: String, lastByte: UInt8) async throws {
        let (dir, path, fd, _) = try await Self.checkpointed()
        defer { withExtendedLifetime(dir) {} }
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        let name = Array(id.utf8)
        let at = try #require((0...(bytes.count - name.count)).first { Array(bytes[$0..<($0 + name.count)]) == name && bytes[$0 - 1] == 5 })
        bytes[at + 4] = lastByte
        var crc = CRC32C()
        bytes.withUnsafeBytes { b in
            crc.update(UnsafeRawBufferPointer(rebasing: b[..<(ActiveCheckpoint.headerSize - 4)]))
            crc.update(UnsafeRawBufferPointer(rebasing: b[ActiveCheckpoint.headerSize...]))
        }
        withUnsafeBytes(of: crc.value.littleEndian) { for (i, v) in $0.enumerated() { bytes[ActiveCheckpoint.headerSize - 4 + i] = v } }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()) == nil)
    }

    /// An open from a checkpoint decodes no stream: a lookup reads the one it asks for from the mapped file, and the
    /// first event indexed after the checkpoint for a stream copies that stream out, alone.
    @Test func `streams stay in the checkpoint until an append copies out its own`() async throws {
        let dir = try await Self.filled()
        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { reopened.close() }
        func recent() throws -> [String] {
            try reopened.withState(writer: false) { s in s.active!.recentStreams.keys.map(\.rawValue).sorted() }
        }
        let covered = try #require(try Self.adoptedEvents(reopened))
        // Those after the checkpoint are indexed from the frames, the rest stay in the file.
        let after = try await reopened.readAll(.all, from: covered).map(\.stream.rawValue)
        #expect(try recent() == Set(after).sorted())
        #expect(try await reopened.streamVersion(of: stream("pet-3")) == 4)
        #expect(try await reopened.events(of: stream("pet-3")).map(\.version) == [0, 1, 2, 3, 4])
        #expect(try reopened.stats().streams == 7)

        let appended = try await reopened.append(to: stream("pet-3"), expected: .exact(4), [event()])
        #expect(appended.streams.first?.version == 5)
        #expect(try recent() == (Set(after).union(["pet-3"])).sorted(), "pet-3 copied out, with its versions")
        _ = try await reopened.append(to: stream("bowl-1"), expected: .noStream, [event()])
        #expect(try reopened.stats().streams == 8, "each stream counted once, wherever it is")
        #expect(try await reopened.events(of: stream("pet-3")).map(\.version) == [0, 1, 2, 3, 4, 5])
        #expect(try reopened.verify().isOK)
    }

    @Test func `a checkpoint that passes its checks but not the data is reported by verify`() async throws {
        let (dir, path, fd, good) = try await Self.checkpointed()
        var content = good.fullContent()
        // pet-1's versions said to start at 2 (its first event is at position 3, so a version up to 3 is possible):
        // every check of the file's own structure still holds.
        content.streams[stream("pet-1")]!.firstVersion = 2
        try Self.plant(content, ids: (0..<good.idCount).map { good.idEntry(at: $0) }, at: path, segment: fd)
        #expect(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()) != nil)
        let report = try FileEventStore.verifyWithoutOpening(path: dir.path)
        #expect(report.problems.map(\.file) == ["00000000000000000000.ckpt"], "\(report)")
    }

    @Test func `a checkpoint whose stream versions leave no room for the next event is refused, not trapped on`() async throws {
        let (dir, path, fd, good) = try await Self.checkpointed()
        var content = good.fullContent()
        // toy-1's versions said to end at UInt64.max - 1: the decoder's overflow check holds, but the next event
        // of the stream (the one after the checkpoint, or the next append) has no version. Found by
        // ActiveCheckpointFuzzTests (streamFirstVersion): `lastVersion` and the append planner's next version
        // trapped on an arithmetic overflow.
        let count = UInt64(content.streams[stream("toy-1")]!.positions.count)
        content.streams[stream("toy-1")]!.firstVersion = UInt64.max - count
        try Self.plant(content, ids: (0..<good.idCount).map { good.idEntry(at: $0) }, at: path, segment: fd)
        #expect(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()) == nil)
        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { reopened.close() }
        #expect(try Self.adoptedEvents(reopened) == nil)
        #expect(try await reopened.streamVersion(of: stream("toy-1")) == 7)
        #expect(try await reopened.append(to: stream("toy-1"), [event(), event()]).lastPosition == 42)
        #expect(try await reopened.events(of: stream("toy-1")).map(\.version) == Array(0...9))
    }

    @Test func `a checkpoint whose raw bytes exceed what its frames can hold is refused, not trapped on`() async throws {
        let (dir, path, fd, good) = try await Self.checkpointed()
        let expected = try {
            let scanned = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
            defer { scanned.close() }
            return try scanned.stats().rawBytes
        }()
        var content = good.fullContent()
        // Each frame's raw length is 32 bits: a total past frames × UInt32.max is not one the frames give. Found by
        // ActiveCheckpointFuzzTests (rawBytes): the next frame indexed (scanned after the checkpoint, or appended)
        // trapped on an arithmetic overflow adding its raw length, as did `stats`.
        content.rawBytes = UInt64.max - 10
        try Self.plant(content, ids: (0..<good.idCount).map { good.idEntry(at: $0) }, at: path, segment: fd)
        #expect(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()) == nil)
        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { reopened.close() }
        #expect(try Self.adoptedEvents(reopened) == nil)
        #expect(try reopened.stats().rawBytes == expected)
        #expect(try await reopened.append(to: stream("toy-1"), [event()]).lastPosition == 41)
        #expect(try reopened.stats().rawBytes > expected)
    }

    @Test func `a checkpoint whose last recorded-at is not its last frame's is refused`() async throws {
        let (dir, path, fd, good) = try await Self.checkpointed()
        var content = good.fullContent()
        // Far in the future, planted with a valid checksum: taken up, every append after it would be recorded then.
        // Found by ActiveCheckpointFuzzTests (lastRecordedAt): such a checkpoint passed every check.
        content.lastRecordedAt = Timestamp(microsecondsSinceEpoch: Timestamp.now().microsecondsSinceEpoch + 86_400_000_000 * 365)
        try Self.plant(content, ids: (0..<good.idCount).map { good.idEntry(at: $0) }, at: path, segment: fd)
        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { reopened.close() }
        #expect(try Self.adoptedEvents(reopened) == nil)
        let appended = try await reopened.append(to: stream("pet-9"), [event()])
        let recorded = try #require(try await reopened.readAll(from: appended.firstPosition).first?.recordedAt)
        #expect(recorded.microsecondsSinceEpoch < Timestamp.now().microsecondsSinceEpoch + 60_000_000, "recorded far in the future: \(recorded)")
    }

    @Test func `sealing removes the checkpoint, and a recovering writer removes one of a sealed segment`() async throws {
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 16, durability: .noSync, compactSealedSegments: false, checkpointInterval: 5)
        let dir = try await Self.filled(options)
        let segments = dir.path + "/segments/"
        let names = try FileManager.default.contentsOfDirectory(atPath: segments).sorted()
        let bases = names.filter { $0.hasSuffix(".seg") }.map { String($0.dropLast(4)) }
        try #require(bases.count == 3, "\(names)")
        #expect(names.filter { $0.hasSuffix(".ckpt") } == [bases[2] + ".ckpt"], "\(names)")
        // As if written while its segment was being sealed.
        try FileManager.default.copyItem(atPath: segments + bases[2] + ".ckpt", toPath: segments + bases[1] + ".ckpt")
        let reopened = try FileEventStore.open(path: dir.path, options: options)
        defer { reopened.close() }
        #expect(!FileManager.default.fileExists(atPath: segments + bases[1] + ".ckpt"))
        #expect(FileManager.default.fileExists(atPath: segments + bases[2] + ".ckpt"))
        #expect(try Self.adoptedEvents(reopened) != nil)
        #expect(try await reopened.readAll().count == 41)
        #expect(try reopened.verify().isOK)
    }

    @Test func `a torn commit after the checkpoint is cut off, and acknowledged data lost under it is damage`() async throws {
        let dir = try await Self.filled()
        let segment = dir.path + "/segments/00000000000000000000.seg"
        let fd = try FileDescriptor.open(segment, .readWrite)
        let covered = try #require(try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.checkpointPath(dir)))).withUnsafeBytes {
            ActiveCheckpoint.coveredEnd(ofEncoded: $0)
        })
        // A commit half-written past the head: a crash mid-write.
        let head = try #require(try HeadFile.read(fd: try FileDescriptor.open(dir.path + "/head", .readOnly)))
        try fd.write([40, 0, 0, 0, 1, 2, 3], at: head.endOffset)
        let recovered = try FileEventStore.open(path: dir.path, options: Self.options)
        #expect(recovered.recovery != nil)
        #expect(try Self.adoptedEvents(recovered) != nil)
        #expect(try await recovered.readAll().count == 41)
        recovered.close()

        // The file cut inside what the checkpoint covers: acknowledged commits are gone.
        try fd.truncate(to: covered - 3)
        let damaged = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { damaged.close() }
        #expect(try Self.adoptedEvents(damaged) == nil)
        await #expect(throws: EventStoreError.self) { try await damaged.append(to: stream("pet-9"), [event()]) }
        #expect(!(try damaged.verify().isOK))
    }
    @Test func `a checkpoint whose header figures are damaged is passed over, not taken into the stats and footers`() async throws {
        let dir = TemporaryDirectory()
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        try await Self.fill(store)
        let expected = try store.stats()
        store.close()
        // The raw bytes (offset 48) and the last recorded-at (offset 56) of the header: a flipped bit in either, far
        // into the future for the time; the frames, streams and ids after the header are untouched.
        let fd = try FileDescriptor.open(Self.checkpointPath(dir), .readWrite)
        var raw = try fd.read(at: 48, count: 16)
        raw[2] ^= 0x01
        raw[8 + 6] ^= 0x10
        try fd.write(raw, at: 48)

        let reopened = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { reopened.close() }
        let stats = try reopened.stats()
        #expect(stats.rawBytes == expected.rawBytes)
        #expect(stats.lastRecordedAt == expected.lastRecordedAt)
        let appended = try await reopened.append(to: stream("pet-9"), [event()])
        let recorded = try #require(try await reopened.readAll(from: appended.firstPosition).first?.recordedAt)
        #expect(recorded.microsecondsSinceEpoch < Timestamp.now().microsecondsSinceEpoch + 60_000_000, "recorded far in the future: \(recorded)")
        #expect(try reopened.verify().isOK)
    }

    @Test func `reads through a checkpoint whose frames disagree with the file's fail as damage, and do not trap`() async throws {
        let (dir, path, fd, good) = try await Self.checkpointed()
        var content = good.fullContent()
        // The first commit holds 3 events and the second 1: planted as 1 and 3, every total and the last frame hold.
        try #require(content.frames[0].eventCount == 3 && content.frames[1].eventCount == 1)
        content.frames[0].eventCount = 1
        content.frames[1].eventCount = 3
        try Self.plant(content, ids: (0..<good.idCount).map { good.idEntry(at: $0) }, at: path, segment: fd)

        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(checkpointInterval: 0))
        defer { reopened.close() }
        #expect(try Self.adoptedEvents(reopened) != nil, "the planted checkpoint passes every check made when it is taken up")
        // Position 1 is said to be in the second commit, whose header starts at position 3.
        #expect(throws: EventStoreError.self) { try reopened.withState(writer: false) { try $0.event(at: 1) } }
        await #expect(throws: EventStoreError.self) { try await reopened.readAll(direction: .backward, from: 2) }
        #expect(!(try reopened.verify().isOK))
    }

    @Test func `damage inside what a checkpoint covers stops the seal and every append after it`() async throws {
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 45, durability: .noSync, checkpointInterval: 10)
        let dir = try await Self.filled(options)
        // A byte of the first commit's payload, which only the checkpoint vouches for after the next open.
        let segment = try FileDescriptor.open(dir.path + "/segments/00000000000000000000.seg", .readWrite)
        let offset = UInt64(LogFormat.segmentHeaderSize + 4 + LogFormat.frameHeaderSize + 2)
        var byte = try segment.read(at: offset, count: 1)
        byte[0] ^= 0x04
        try segment.write(byte, at: offset)

        let reopened = try FileEventStore.open(path: dir.path, options: options)
        defer { reopened.close() }
        #expect(try Self.adoptedEvents(reopened) != nil)
        // Four more events fill the segment: its seal reads the covered frames first, and finds the damage.
        for k in 0..<4 { try await reopened.append(to: stream("toy-\(k)"), [event()]) }
        #expect(try reopened.segmentNames().count == 1, "not sealed over damaged data")
        let error = await #expect(throws: EventStoreError.self) { try await reopened.append(to: stream("toy-9"), [event()]) }
        guard let error, error.code == .corrupted, let file = error.location else {
            Issue.record("expected corrupted, got \(String(describing: error))")
            return
        }
        #expect(file.hasSuffix("00000000000000000000.seg"))
        #expect(!(try reopened.verify().isOK))
    }
}
