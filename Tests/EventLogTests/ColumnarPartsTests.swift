@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// ``ColumnarParts``, the stored form of format 3's columnar frames: one part for a block, several for a large commit
/// (split over two cores); every stored form decodes back to exactly the rows, whole and part by part, and damaged
/// directories throw.
@Suite struct ColumnarPartsTests {
    /// One commit of `count` pet-care-like events, as the committer encodes it.
    private func commit(_ count: Int, delta: Int64 = 0) -> [UInt8] {
        var w = ByteWriter()
        CommitCodec.encodeCommitHeader(recordedAtDelta: delta, eventCount: count, into: &w)
        for i in 0..<count {
            let data = #"{"petId":"\#(UUID().uuidString.lowercased())","grams":\#(1000 + i * 7),"at":"2026-06-01T10:\#(String(format: "%02d", i / 60 % 60)):\#(String(format: "%02d", i % 60)).123456Z","note":"walk \#(i)"}"#
            CommitCodec.encodeEvent(
                stream: stream("pet-\(i % 13)"), version: UInt64(i / 13),
                event: ProposedEvent(id: UUID(), type: "Weighed", data: Array(data.utf8), metadata: ["correlationId": UUID().uuidString.lowercased()]),
                into: &w)
        }
        return w.bytes
    }

    private func decode(_ stored: [UInt8], commits: Int, events: Int, rawLength: Int) throws -> [UInt8] {
        var out: [UInt8] = [9, 9]
        try stored.withUnsafeBytes {
            try ColumnarParts.decode($0, commitCount: commits, eventCount: events, rawLength: rawLength, decompressor: ZstdDecompressor(), into: &out)
        }
        return Array(out.prefix(rawLength))
    }

    @Test(arguments: [2, 3, 500, 1001])
    func `a commit split in two parts decodes to its rows`(count: Int) throws {
        let rows = commit(count, delta: -42)
        let stored = try #require(try rows.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: 2, compressor: ZstdCompressor(), helper: ZstdCompressor(), level: 1)
        })
        #expect(stored.first == 2, "two parts, even for a commit of \(count)")
        #expect(try decode(stored, commits: 1, events: count, rawLength: rows.count) == rows)
        // The event count and length come from the frame header: others are refused.
        #expect(throws: (any Error).self) { try decode(stored, commits: 1, events: count + 1, rawLength: rows.count) }
        #expect(throws: (any Error).self) { try decode(stored, commits: 1, events: count, rawLength: rows.count - 1) }
        #expect(throws: (any Error).self) { try decode(stored, commits: 2, events: count, rawLength: rows.count) }
    }

    @Test func `a commit of one event is one part; without a helper its parts are made on one thread`() throws {
        let one = commit(1)
        let single = try #require(try one.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: 2, compressor: ZstdCompressor(), helper: ZstdCompressor(), level: 1)
        })
        #expect(single.first == 1)
        #expect(try decode(single, commits: 1, events: 0, rawLength: one.count) == one)
        let rows = commit(40)
        let split = try #require(try rows.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: 3, compressor: ZstdCompressor(), helper: nil, level: 1)
        })
        #expect(split.first == 3)
        #expect(try decode(split, commits: 1, events: 40, rawLength: rows.count) == rows)
    }

    /// The events of a commit's rows, as (stream, version, id) in order.
    private func events(_ rows: [UInt8]) throws -> [String] {
        var out: [String] = []
        try rows.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            _ = try r.readSignedVarint()
            let count = try r.readVarint()
            for _ in 0..<count {
                let e = try CommitCodec.parseEvent(raw, &r, position: 0, recordedAt: Timestamp(microsecondsSinceEpoch: 0))
                out.append("\(String(decoding: e.stream, as: UTF8.self)) \(e.version) \(e.id) \(String(decoding: e.data, as: UTF8.self))")
            }
            #expect(r.isAtEnd)
        }
        return out
    }

    @Test(arguments: [2, 5, 16, 40])
    func `a commit in many parts decodes whole, and part by part to the events each part holds`(parts: Int) throws {
        let rows = commit(203, delta: 77)
        let stored = try #require(try rows.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: parts, compressor: ZstdCompressor(), helper: ZstdCompressor(), level: 1)
        })
        let made = min(parts, ColumnarParts.maxParts)
        #expect(Int(stored.first!) == made)
        #expect(try decode(stored, commits: 1, events: 203, rawLength: rows.count) == rows)
        let all = try events(rows)
        let decompressor = ZstdDecompressor()
        var seen: [Int] = []
        for event in 0..<203 {
            var buffer: [UInt8] = [7]
            let found = try #require(try stored.withUnsafeBytes {
                try ColumnarParts.decodePart(
                    $0, commitCount: 1, eventCount: 203, rawLength: rows.count, holding: event, decompressor: decompressor, into: &buffer)
            })
            #expect(found.starts.count == made && found.starts.first == 0)
            let first = found.starts[found.part]
            #expect(first <= event && event < first + found.events, "event \(event) is in the part returned")
            // The part's rows are a commit of its events alone, with the commit's time.
            let part = Array(buffer[..<found.rowLength])
            #expect(try events(part) == Array(all[first..<(first + found.events)]))
            #expect(try part.withUnsafeBytes { raw in
                var r = ByteReader(raw)
                return try r.readSignedVarint()
            } == 77)
            seen.append(found.part)
        }
        #expect(Set(seen).count == made)
        #expect(seen == seen.sorted())
        // An event the commit does not hold is refused.
        var buffer: [UInt8] = []
        for event in [-1, 203] {
            #expect(throws: (any Error).self) {
                try stored.withUnsafeBytes {
                    _ = try ColumnarParts.decodePart(
                        $0, commitCount: 1, eventCount: 203, rawLength: rows.count, holding: event, decompressor: decompressor, into: &buffer)
                }
            }
        }
    }

    @Test func `a commit of one part is decoded whole, not by part`() throws {
        let rows = commit(30)
        let stored = try #require(try rows.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: 1, compressor: ZstdCompressor(), helper: nil, level: 1)
        })
        var buffer: [UInt8] = []
        #expect(try stored.withUnsafeBytes {
            try ColumnarParts.decodePart($0, commitCount: 1, eventCount: 30, rawLength: rows.count, holding: 3, decompressor: ZstdDecompressor(), into: &buffer)
        } == nil)
    }

    @Test func `parts follow the commit's size`() {
        #expect(ColumnarParts.parts(forCommitOf: 64 << 10) == 1)
        #expect(ColumnarParts.parts(forCommitOf: ColumnarParts.partRowBytes * 3 + 5) == 3)
        #expect(ColumnarParts.parts(forCommitOf: 100 << 20) == ColumnarParts.maxParts)
        // A commit is split (and its parts shared with the helper's core) exactly from FrameIO's parallel threshold.
        #expect(ColumnarParts.parts(forCommitOf: FrameIO.parallelThreshold - 1) == 1)
        #expect(ColumnarParts.parts(forCommitOf: FrameIO.parallelThreshold) == 2)
    }

    @Test func `a block of several commits is one part and round-trips`() throws {
        let rows = commit(30) + commit(1, delta: 5) + commit(200, delta: 9)
        let stored = try #require(try rows.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 3, parts: 2, compressor: ZstdCompressor(), helper: ZstdCompressor(), level: 6)
        })
        #expect(stored.first == 1)
        #expect(try decode(stored, commits: 3, events: 231, rawLength: rows.count) == rows)
        #expect(stored.count < rows.count / 2)
    }

    @Test func `what does not parse as rows is not laid out`() throws {
        let junk: [UInt8] = [0, 5, 1, 2, 3]
        #expect(try junk.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: 2, compressor: ZstdCompressor(), helper: ZstdCompressor(), level: 1)
        } == nil)
    }

    @Test func `every cut of the stored bytes fails with an error`() throws {
        let rows = commit(60)
        let stored = try #require(try rows.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: 2, compressor: ZstdCompressor(), helper: ZstdCompressor(), level: 1)
        })
        for cut in 0..<stored.count {
            #expect(throws: (any Error).self, "cut at \(cut)") {
                try decode(Array(stored[..<cut]), commits: 1, events: 60, rawLength: rows.count)
            }
        }
    }

    @Test func `hostile directories fail with an error`() throws {
        let rows = commit(20)
        let stored = try #require(try rows.withUnsafeBytes {
            try ColumnarParts.store($0, commitCount: 1, parts: 1, compressor: ZstdCompressor(), helper: nil, level: 1)
        })
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        var cases: [[UInt8]] = [[], [0], [17], huge, [1] + huge, [1, 0] + huge, [1, 0, 5] + huge]
        // A mode that does not exist, in place of the first group's.
        // The directory: part count, event count, row length, columnar length, then the first group's mode.
        let modeAt = try stored.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            for _ in 0..<4 { _ = try r.readVarint() }
            return r.offset
        }
        var badMode = stored
        badMode[modeAt] = 7
        cases.append(badMode)
        // One byte more or less of stored groups than the directory says.
        cases.append(stored + [0])
        for bytes in cases {
            #expect(throws: (any Error).self, "\(bytes.prefix(12))") { try decode(bytes, commits: 1, events: 20, rawLength: rows.count) }
        }
        // Sound bytes still decode, so the cases above fail for what was changed.
        #expect(try decode(stored, commits: 1, events: 20, rawLength: rows.count) == rows)
    }

    @Test func `stored bytes damaged many times over fail with an error or decode to the frame's length`() throws {
        let rows = commit(80, delta: 3)
        let compressor = ZstdCompressor()
        let forms = try [1, 2, 5].map { parts in
            try #require(try rows.withUnsafeBytes {
                try ColumnarParts.store($0, commitCount: 1, parts: parts, compressor: compressor, helper: ZstdCompressor(), level: 1)
            })
        }
        var rng = SystemRandomNumberGenerator()
        let interesting: [[UInt8]] = [[0xFF], [0x80], [0x00], [0x7F], [0x02], [0x10], [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]]
        let decompressor = ZstdDecompressor()
        for round in 0..<6_000 {
            var damaged = forms[round % 3]
            for _ in 0..<Int.random(in: 1...6, using: &rng) where !damaged.isEmpty {
                let at = Int.random(in: 0..<damaged.count, using: &rng)
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: damaged[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
                case 1: damaged[at] = UInt8.random(in: 0...255, using: &rng)
                case 2: damaged.replaceSubrange(at..<min(damaged.count, at + 2), with: interesting.randomElement(using: &rng)!)
                case 3: damaged.insert(contentsOf: interesting.randomElement(using: &rng)!, at: at)
                default: damaged.removeSubrange(at..<min(damaged.count, at + Int.random(in: 1...16, using: &rng)))
                }
            }
            let commits = Int.random(in: 0...3, using: &rng) == 0 ? 2 : 1
            let events = Bool.random(using: &rng) ? 80 : Int.random(in: 0...200, using: &rng)
            var out: [UInt8] = []
            let decoded = damaged.withUnsafeBytes {
                (try? ColumnarParts.decode($0, commitCount: commits, eventCount: events, rawLength: rows.count, decompressor: decompressor, into: &out)) != nil
            }
            // What decodes fills exactly the frame's length (the frame's checksum is what tells damage from data).
            if decoded { #expect(out.count >= rows.count) }
            // A lookup's decode of one part fails or fills the part's length, never traps.
            let event = Int.random(in: -1...81, using: &rng)
            let part = damaged.withUnsafeBytes {
                try? ColumnarParts.decodePart(
                    $0, commitCount: commits, eventCount: events, rawLength: rows.count, holding: event, decompressor: decompressor, into: &out)
            }
            if let found = part ?? nil { #expect(out.count >= found.rowLength && found.starts[found.part] <= event) }
        }
    }
}
