import BenchSupport
import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// A seeded fuzz campaign against the active segment's checkpoint: checkpoints planted with a valid checksum but
/// contents mutated at random (frames, streams, ids, header figures, raw bytes with the checksum fixed up). Each
/// mutant is either refused when taken up, or every read, append, retry, seal, `stats` and `verify` through it
/// succeeds or throws ``EventStoreError``: none traps, hangs, or answers the log with events it does not hold.
///
/// `PAWTRAIL_FUZZ_SEED` and `PAWTRAIL_FUZZ_MUTANTS` run a longer campaign (see `tools/fuzz-checkpoint.sh`); each
/// mutant is described on standard error before it runs, so the last line names the one that trapped.
@Suite struct ActiveCheckpointFuzzTests {
    static let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 45, durability: .noSync, checkpointInterval: 10)

    /// Counts of what the campaign saw.
    final class Tally: @unchecked Sendable {
        var kinds: [String: Int] = [:]
        var refused = 0
        var adopted = 0
        var storeErrors = 0
        var notes: [String: Int] = [:]
    }

    static func describe(_ e: RecordedEvent) -> String {
        "\(e.position) \(e.stream) \(e.version) \(e.id) \(e.type) \(e.recordedAt) \(e.data)"
    }

    /// A value chosen among edge cases and small changes of `v`.
    static func nudge(_ v: UInt64, _ rng: inout SplitMix64) -> UInt64 {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return 0
        case 1: return UInt64.max
        case 2: return UInt64(UInt32.max)
        case 3: return v &+ UInt64.random(in: 1...4, using: &rng)
        case 4: return v &- UInt64.random(in: 1...4, using: &rng)
        case 5: return UInt64.max - UInt64.random(in: 0...64, using: &rng)
        case 6: return v ^ (1 << UInt64.random(in: 0..<64, using: &rng))
        default: return UInt64.random(in: 0...UInt64.max, using: &rng)
        }
    }

    /// One random mutation of a checkpoint: its kind and the bytes to plant (`nil`: not encodable).
    static func mutant(
        _ good: ActiveCheckpoint.Content, ids goodIDs: [(key: UInt64, position: UInt64)], file: FileID, _ rng: inout SplitMix64
    ) -> (kind: String, bytes: [UInt8]?) {
        var c = good
        var ids = goodIDs
        var kinds: [String] = []
        // One to three mutations on top of each other.
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let kind = Int.random(in: 0..<18, using: &rng)
            let f = Int.random(in: 0..<c.frames.count, using: &rng)
            let names = c.streams.keys.sorted()
            switch kind {
            case 0:
                kinds.append("frameOffset")
                c.frames[f].offset = nudge(c.frames[f].offset, &rng)
            case 1:
                kinds.append("frameLength")
                c.frames[f].length = UInt32(truncatingIfNeeded: nudge(UInt64(c.frames[f].length), &rng))
            case 2:
                // Events moved between two frames: every total still holds.
                kinds.append("frameEventsMoved")
                let g = Int.random(in: 0..<c.frames.count, using: &rng)
                guard f != g, c.frames[f].eventCount > 1 else { break }
                let n = UInt32.random(in: 1..<c.frames[f].eventCount, using: &rng)
                c.frames[f].eventCount -= n
                c.frames[g].eventCount += n
                var next = c.firstPosition
                for i in c.frames.indices {
                    c.frames[i].firstPosition = next
                    next += UInt64(c.frames[i].eventCount)
                }
            case 3:
                kinds.append("frameEventCount")
                c.frames[f].eventCount = UInt32(truncatingIfNeeded: nudge(UInt64(c.frames[f].eventCount), &rng))
            case 4:
                kinds.append("frameRecordedAt")
                c.frames[f].recordedAt = Timestamp(microsecondsSinceEpoch: Int64(bitPattern: nudge(UInt64(bitPattern: c.frames[f].recordedAt.microsecondsSinceEpoch), &rng)))
            case 5:
                kinds.append("framesReordered")
                let g = Int.random(in: 0..<c.frames.count, using: &rng)
                c.frames.swapAt(f, g)
            case 6:
                kinds.append(Bool.random(using: &rng) ? "frameDropped" : "frameDuplicated")
                if kinds.last == "frameDropped", c.frames.count > 1 { c.frames.remove(at: f) } else { c.frames.insert(c.frames[f], at: f) }
            case 7:
                kinds.append("streamFirstVersion")
                let s = names.randomElement(using: &rng)!
                let v = nudge(c.streams[s]!.firstVersion, &rng)
                c.streams[s]!.firstVersion = Bool.random(using: &rng) ? v : UInt64.max - UInt64(c.streams[s]!.positions.count) - UInt64.random(in: 0...2, using: &rng)
            case 8:
                // A position handed from one stream to another, both lists kept sorted.
                kinds.append("streamPositionMoved")
                let a = names.randomElement(using: &rng)!
                let b = names.randomElement(using: &rng)!
                guard a != b, c.streams[a]!.positions.count > 1 else { break }
                let p = c.streams[a]!.positions.remove(at: Int.random(in: 0..<c.streams[a]!.positions.count, using: &rng))
                c.streams[b]!.positions.append(p)
                c.streams[b]!.positions.sort()
            case 9:
                kinds.append("streamPositionsSwapped")
                let a = names.randomElement(using: &rng)!
                let b = names.randomElement(using: &rng)!
                let i = Int.random(in: 0..<c.streams[a]!.positions.count, using: &rng)
                let j = Int.random(in: 0..<c.streams[b]!.positions.count, using: &rng)
                let t = c.streams[a]!.positions[i]
                c.streams[a]!.positions[i] = c.streams[b]!.positions[j]
                c.streams[b]!.positions[j] = t
                if Bool.random(using: &rng) {
                    c.streams[a]!.positions.sort()
                    c.streams[b]!.positions.sort()
                }
            case 10:
                kinds.append("streamRenamed")
                let a = names.randomElement(using: &rng)!
                let s = c.streams.removeValue(forKey: a)!
                let to = [names.randomElement(using: &rng)!.rawValue + "x", "", "none-1", String(repeating: "q", count: 300)].randomElement(using: &rng)!
                c.streams[StreamID(unchecked: to)] = s
            case 11:
                kinds.append(Bool.random(using: &rng) ? "streamsMerged" : "streamSplit")
                let a = names.randomElement(using: &rng)!
                let b = names.randomElement(using: &rng)!
                if kinds.last == "streamsMerged", a != b {
                    let s = c.streams.removeValue(forKey: b)!
                    c.streams[a]!.positions = (c.streams[a]!.positions + s.positions).sorted()
                } else if c.streams[a]!.positions.count > 1 {
                    let k = Int.random(in: 1..<c.streams[a]!.positions.count, using: &rng)
                    let tail = Array(c.streams[a]!.positions[k...])
                    c.streams[a]!.positions.removeSubrange(k...)
                    c.streams[StreamID(unchecked: a.rawValue + "-split")] = ActiveSegment.Stream(firstVersion: UInt64(k), positions: tail)
                }
            case 12:
                kinds.append("idKey")
                let i = Int.random(in: 0..<ids.count, using: &rng)
                ids[i].key = nudge(ids[i].key, &rng)
                if Bool.random(using: &rng) { ids.sort { ($0.key, $0.position) < ($1.key, $1.position) } }
            case 13:
                // Positions handed between two ids, keys left in order: the structure still holds.
                kinds.append("idPositionsSwapped")
                let i = Int.random(in: 0..<ids.count, using: &rng)
                let j = Int.random(in: 0..<ids.count, using: &rng)
                let t = ids[i].position
                ids[i].position = ids[j].position
                ids[j].position = t
            case 14:
                kinds.append("idDroppedOrDuplicated")
                let i = Int.random(in: 0..<ids.count, using: &rng)
                if Bool.random(using: &rng) { ids.remove(at: i) } else { ids.insert(ids[i], at: i) }
            case 15:
                kinds.append("coveredEnd")
                c.coveredEnd = nudge(c.coveredEnd, &rng)
            case 16:
                kinds.append("rawBytes")
                c.rawBytes = nudge(c.rawBytes, &rng)
            default:
                kinds.append("lastRecordedAt")
                c.lastRecordedAt = Int.random(in: 0..<4, using: &rng) == 0
                    ? nil : Timestamp(microsecondsSinceEpoch: Int64(bitPattern: nudge(UInt64(bitPattern: c.lastRecordedAt?.microsecondsSinceEpoch ?? 0), &rng)))
            }
        }
        // Positions relative to the segment must fit the encoder's 32 bits; others are not plantable this way.
        guard ids.allSatisfy({ $0.position >= c.firstPosition && $0.position - c.firstPosition <= UInt64(UInt32.max) }),
            c.streams.values.allSatisfy({ s in zip([c.firstPosition] + s.positions, s.positions).allSatisfy { $0.0 <= $0.1 } }),
            let last = c.frames.last, last.eventCount > 0, last.firstPosition <= UInt64.max - UInt64(last.eventCount),
            c.frames.allSatisfy({ $0.offset <= UInt64.max - UInt64($0.length) }),
            zip([UInt64(LogFormat.segmentHeaderSize)] + c.frames.map { $0.offset + UInt64($0.length) }, c.frames).allSatisfy({ $0.0 <= $0.1.offset })
        else { return (kinds.joined(separator: "+"), nil) }
        return (kinds.joined(separator: "+"), ActiveCheckpoint.encode(c, ids: ids, file: file))
    }

    /// Raw bytes of a good checkpoint changed at random, its checksum then fixed up.
    static func rawMutant(_ good: [UInt8], _ rng: inout SplitMix64) -> (kind: String, bytes: [UInt8]) {
        var b = good
        let kind: String
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            kind = "rawBitFlips"
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                b[Int.random(in: 32..<b.count, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            }
        case 1:
            kind = "rawByteSet"
            b[Int.random(in: 32..<b.count, using: &rng)] = [0, 0x7f, 0x80, 0xff].randomElement(using: &rng)!
        case 2:
            kind = "rawHeaderWord"
            let o = [32, 40, 48, 56, 64, 68, 72].randomElement(using: &rng)!
            let n = o >= 64 ? 4 : 8
            for i in 0..<n { b[o + i] = UInt8.random(in: 0...255, using: &rng) }
        default:
            kind = "rawCut"
            let at = Int.random(in: ActiveCheckpoint.headerSize..<b.count, using: &rng)
            b.removeSubrange(at..<min(b.count, at + Int.random(in: 1...16, using: &rng)))
        }
        var crc = CRC32C()
        b.withUnsafeBytes { raw in
            crc.update(UnsafeRawBufferPointer(rebasing: raw[..<(ActiveCheckpoint.headerSize - 4)]))
            crc.update(UnsafeRawBufferPointer(rebasing: raw[ActiveCheckpoint.headerSize...]))
        }
        withUnsafeBytes(of: crc.value.littleEndian) { for i in 0..<4 { b[ActiveCheckpoint.headerSize - 4 + i] = $0[i] } }
        return (kind, b)
    }

    /// Runs `body`, counting an ``EventStoreError`` as an acceptable answer and recording anything else.
    static func step<R>(_ label: String, _ mutant: String, _ tally: Tally, _ body: () async throws -> R) async -> R? {
        do {
            return try await body()
        } catch is EventStoreError {
            tally.storeErrors += 1
            return nil
        } catch {
            Issue.record("mutant \(mutant): \(label) threw \(type(of: error)): \(error)")
            return nil
        }
    }

    /// Every read path, retry, append, seal, `stats` and `verify` through a store holding a planted checkpoint.
    static func exercise(_ path: String, mutant: String, expected: [RecordedEvent], tally: Tally) async throws {
        let store: FileEventStore
        do {
            store = try FileEventStore.open(path: path, options: options)
        } catch is EventStoreError {
            tally.storeErrors += 1
            return
        }
        defer { store.close() }
        guard try ActiveCheckpointTests.adoptedEvents(store) != nil else {
            tally.refused += 1
            return
        }
        tally.adopted += 1
        let all = expected.map(describe)
        let count = UInt64(expected.count)
        func wrong(_ what: String, _ got: [RecordedEvent], _ want: ArraySlice<String>) {
            if got.map(describe) != Array(want) { Issue.record("mutant \(mutant): \(what) answered events the log does not hold: \(got.map(describe))") }
        }
        for from: UInt64 in [0, 1, 17, count - 1] {
            for page in [1000, 7] {
                if let got = await step("readAll forward from \(from)", mutant, tally, { try await store.readAll(from: from, pageSize: page) }) {
                    wrong("readAll forward from \(from)", got, all[Int(from)...])
                }
                if let got = await step("readAll backward from \(from)", mutant, tally, { try await store.readAll(direction: .backward, from: from, pageSize: page) }) {
                    wrong("readAll backward from \(from)", got, ArraySlice(all[...Int(from)].reversed()))
                }
            }
        }
        for p in 0..<count {
            if let got = await step("event at \(p)", mutant, tally, { try store.withState(writer: false) { try $0.event(at: p) } }) {
                wrong("event at \(p)", [got], all[Int(p)...Int(p)])
            }
        }
        let names = Set(expected.map(\.stream.rawValue)).sorted() + ["none-1", "pet-1x", "pet-1-split", String(repeating: "q", count: 300)]
        for name in names {
            let s = StreamID(unchecked: name)
            let want = expected.filter { $0.stream == s }.map(describe)
            if let got = await step("stream \(name) forward", mutant, tally, { try await store.events(of: s) }), got.map(describe) != want {
                tally.notes["stream read misses events (index wrong, every event read is right)", default: 0] += 1
                #expect(got.allSatisfy { e in want.contains(describe(e)) }, "mutant \(mutant): stream \(name) forward answered \(got.map(describe))")
            }
            if let got = await step("stream \(name) backward", mutant, tally, { try await store.readAll(.stream(s), direction: .backward) }),
                got.map(describe) != want.reversed()
            {
                #expect(got.allSatisfy { e in want.contains(describe(e)) }, "mutant \(mutant): stream \(name) backward answered \(got.map(describe))")
            }
            _ = await step("stream \(name) backward paged", mutant, tally, { try await store.readAll(.stream(s), direction: .backward, from: 2, pageSize: 1) })
            _ = await step("stream \(name) forward paged", mutant, tally, { try await store.readAll(.stream(s), from: 1, pageSize: 2) })
            if let v = await step("streamVersion \(name)", mutant, tally, { try await store.streamVersion(of: s) }),
                v != expected.last(where: { $0.stream == s })?.version
            {
                tally.notes["streamVersion wrong"] = (tally.notes["streamVersion wrong"] ?? 0) + 1
            }
        }
        // Retries of known ids: either recognised (the original positions), or an error.
        if let r = await step("retry pet-0", mutant, tally, {
            try await store.append(to: stream("pet-0"), [event("Fed", "{\"n\":1}", id: uuid(1)), event("Fed", "{\"n\":2}", id: uuid(2)), event("Fed", "{\"n\":3}", id: uuid(3))])
        }), r.firstPosition != 0 || r.lastPosition != 2 {
            tally.notes["retry not recognised"] = (tally.notes["retry not recognised"] ?? 0) + 1
        }
        _ = await step("retry toy-1", mutant, tally, { try await store.append(to: stream("toy-1"), [event("Bought", "{\"k\":15}", id: uuid(115))]) })
        _ = await step("stats", mutant, tally, { try store.stats() })
        _ = await step("verify", mutant, tally, { try store.verify() })
        if let v = await step("version pet-0", mutant, tally, { try await store.streamVersion(of: stream("pet-0")) }) {
            _ = await step("append expected", mutant, tally, { try await store.append(to: stream("pet-0"), expected: v.map { .exact($0) } ?? .noStream, [event()]) })
        }
        _ = await step("append new stream", mutant, tally, { try await store.append(to: stream("new-0"), expected: .noStream, [event()]) })
        _ = await step("append to max version", mutant, tally, { try await store.append(to: stream("toy-0"), [event(), event()]) })
        // Enough single appends to fill the segment (45 events) and seal it.
        for k in 0..<8 {
            _ = await step("fill \(k)", mutant, tally, { try await store.append(to: stream("fill-\(k % 3)"), [event()]) })
        }
        _ = await step("readAll after", mutant, tally, { try await store.readAll() })
        _ = await step("readAll backward after", mutant, tally, { try await store.readAll(direction: .backward) })
        _ = await step("stats after", mutant, tally, { try store.stats() })
        _ = await step("verify after", mutant, tally, { try store.verify() })
        _ = await step("verifyWithoutOpening", mutant, tally, { try FileEventStore.verifyWithoutOpening(path: path) })
    }

    @Test func `checkpoints planted with random valid-checksum mutations are refused or fail as damage, and never trap`() async throws {
        let env = ProcessInfo.processInfo.environment
        let seed = env["PAWTRAIL_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5eed_c4e7
        let mutants = env["PAWTRAIL_FUZZ_MUTANTS"].flatMap { Int($0) } ?? 300
        let verbose = env["PAWTRAIL_FUZZ_VERBOSE"] != nil
        let base = try await ActiveCheckpointTests.filled(Self.options)
        let segmentName = "/segments/00000000000000000000.seg"
        let (good, goodIDs, goodBytes): (ActiveCheckpoint.Content, [(key: UInt64, position: UInt64)], [UInt8])
        do {
            let fd = try FileDescriptor.open(base.path + segmentName, .readOnly)
            let checkpoint = try #require(ActiveCheckpoint.decode(try MappedFile(path: ActiveCheckpointTests.checkpointPath(base)), firstPosition: 0, file: try fd.fileID()))
            good = checkpoint.fullContent()
            goodIDs = (0..<checkpoint.idCount).map { checkpoint.idEntry(at: $0) }
            goodBytes = try #require(ActiveCheckpoint.encode(good, ids: goodIDs, file: try fd.fileID()))
        }
        let expected: [RecordedEvent]
        do {
            let scanned = try FileEventStore.open(path: base.path, options: FileEventStoreOptions(checkpointInterval: 0))
            defer { scanned.close() }
            expected = try await scanned.readAll()
            try #require(expected.count == 41)
        }
        let tally = Tally()
        for i in 0..<mutants {
            var rng = SplitMix64(seed: seed &+ UInt64(i) &* 0x1_0000_0001)
            let copy = TemporaryDirectory("pawtrail-fuzz")
            try FileManager.default.removeItem(atPath: copy.path)
            try FileManager.default.copyItem(atPath: base.path, toPath: copy.path)
            let fd = try FileDescriptor.open(copy.path + segmentName, .readOnly)
            let file = try fd.fileID()
            // The good checkpoint's bytes name the base's segment file: rewritten for the copy's.
            var (kind, bytes): (String, [UInt8]?)
            if i % 4 == 3 {
                var raw = try #require(ActiveCheckpoint.encode(good, ids: goodIDs, file: file))
                precondition(raw.count == goodBytes.count)
                (kind, raw) = Self.rawMutant(raw, &rng)
                bytes = raw
            } else {
                (kind, bytes) = Self.mutant(good, ids: goodIDs, file: file, &rng)
            }
            tally.kinds[kind.split(separator: "+").first.map(String.init) ?? kind, default: 0] += 1
            guard let bytes else { continue }
            let label = "seed \(seed) #\(i) \(kind)"
            if verbose { FileHandle.standardError.write(Data("fuzz \(label)\n".utf8)) }
            try FileSystem.writeAtomically(bytes, to: ActiveCheckpointTests.checkpointPath(copy), sync: false)
            // Decoding must never trap, whatever it answers.
            _ = ActiveCheckpoint.decode(try MappedFile(path: ActiveCheckpointTests.checkpointPath(copy)), firstPosition: 0, file: file)
            try await withWatchdog(seconds: 30) {
                try await Self.exercise(copy.path, mutant: label, expected: expected, tally: tally)
            }
        }
        let summary = "fuzz: \(mutants) mutants, \(tally.adopted) taken up, \(tally.refused) refused at open, \(tally.storeErrors) EventStoreErrors; kinds \(tally.kinds.sorted { $0.key < $1.key }); notes \(tally.notes)\n"
        FileHandle.standardError.write(Data(summary.utf8))
        #expect(tally.adopted > 0, "no mutant was ever taken up: the campaign tests nothing past decode")
    }
}
