@testable import EventLogFile
import EventLog
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// `log verify`'s version checks on damaged data: each gap reported once, gaps before damage still reported, and no
/// crash on frames whose positions go back.
@Suite struct StoreVerifierVersionDamageTests {
    static let at = Timestamp(microsecondsSinceEpoch: 1_700_000_000_000_000)

    /// A commit frame of one event at a position, its payload stored as it is.
    static func frame(position: UInt64, stream: String, version: UInt64, id: UUID) -> [UInt8] {
        var payload = ByteWriter()
        CommitCodec.encodeCommitHeader(recordedAtDelta: 0, eventCount: 1, into: &payload)
        CommitCodec.encodeEvent(
            stream: StreamID(unchecked: stream), version: version, event: .json("Noted", #"{"n":1}"#, id: id), into: &payload)
        var bytes: [UInt8] = []
        FrameIO.encode(
            type: .commit, firstPosition: position, eventCount: 1, commitCount: 1, firstRecordedAt: at, lastRecordedAt: at,
            stored: .init(codec: .none, dictionaryID: 0, bytes: payload.bytes, rawLength: payload.count), into: &bytes)
        return bytes
    }

    /// A store whose only (active) segment holds exactly these frames, the head at their end.
    static func storeWithActiveSegment(_ dir: TemporaryDirectory, frames: [[UInt8]], nextPosition: UInt64) async throws {
        let store = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(createIfMissing: true, durability: .noSync))
        try await store.append(to: "x-1", [.json("Noted", "{}")])
        store.close()
        let path = dir.path + "/segments/" + LogFormat.segmentName(firstPosition: 0)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(LogFormat.segmentHeaderSize))
        for f in frames { bytes += f }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let head = HeadFile(activeFirstPosition: 0, endOffset: UInt64(bytes.count), nextPosition: nextPosition, lastRecordedAt: at)
        try Data(head.encoded()).write(to: URL(fileURLWithPath: dir.path + "/" + LogFormat.headName))
    }

    /// Verifies as a reader that leaves the files as they are.
    static func verify(_ dir: TemporaryDirectory) throws -> VerifyReport {
        let state = LogState(root: dir.path, options: FileEventStoreOptions())
        try state.refresh(writer: false)
        return try StoreVerifier(state: state).run()
    }

    @Test func `a gap inside a segment is reported once, not at every version after it`() async throws {
        let dir = TemporaryDirectory()
        let versions: [UInt64] = [0, 1, 5, 6, 7]
        let frames = versions.enumerated().map { Self.frame(position: UInt64($0.offset), stream: "a-1", version: $0.element, id: uuid($0.offset + 1)) }
        try await Self.storeWithActiveSegment(dir, frames: frames, nextPosition: UInt64(frames.count))
        let report = try Self.verify(dir)
        #expect(report.problems.map(\.message) == ["stream 'a-1' has version 5 at position 2, expected 2"])
    }

    @Test func `a gap inside a sealed segment is not reported again where the stream goes on in the next segment`() async throws {
        let dir = TemporaryDirectory()
        let versions: [UInt64] = [0, 1, 5, 6]
        let frames = versions.enumerated().map { Self.frame(position: UInt64($0.offset), stream: "a-1", version: $0.element, id: uuid($0.offset + 1)) }
        try await Self.storeWithActiveSegment(dir, frames: frames, nextPosition: UInt64(frames.count))
        // A writer seals the segment as it is (footer and index files from its data), then writes into the next.
        let options = FileEventStoreOptions(maxSegmentEvents: 4, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)
        let store = try FileEventStore.open(path: dir.path, options: options)
        try await store.append(to: "b-1", [.json("Noted", "{}")])
        store.close()
        // The next segment's events replaced: `a-1` goes on from the last version the sealed segment holds (6).
        let path = dir.path + "/segments/" + LogFormat.segmentName(firstPosition: 4)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(LogFormat.segmentHeaderSize))
        bytes += Self.frame(position: 4, stream: "a-1", version: 7, id: uuid(10))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let head = HeadFile(activeFirstPosition: 4, endOffset: UInt64(bytes.count), nextPosition: 5, lastRecordedAt: Self.at)
        try Data(head.encoded()).write(to: URL(fileURLWithPath: dir.path + "/" + LogFormat.headName))
        let report = try Self.verify(dir)
        #expect(report.problems.map(\.message) == ["stream 'a-1' has version 5 at position 2, expected 2"], "\(report)")
    }

    /// A damaged frame in a sealed segment is reported, but not the intact next segment as well ("segment starts at
    /// position 4, expected 0 (gap or overlap)"), though the damaged segment's events go uncounted.
    @Test func `damage in a sealed segment is reported once, not again as a gap before the next segment`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for n in 0..<10 { try await store.append(to: "a-1", [.json("Noted", #"{"n":\#(n)}"#)]) }
        store.close()
        let path = dir.path + "/segments/" + LogFormat.segmentName(firstPosition: 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // A byte of the first frame's payload.
        bytes[LogFormat.segmentHeaderSize + 60] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path))
        let report = try Self.verify(dir)
        #expect(report.problems.map(\.file) == [LogFormat.segmentName(firstPosition: 0)], "\(report)")
        #expect(!report.problems.contains { $0.message.contains("gap or overlap") }, "\(report)")
    }

    /// A damaged header is reported by its reason, not as "X.seg at offset 0: corrupt data in X.seg at offset 0:
    /// not a Pawtrail segment (bad magic)".
    @Test func `a damaged segment header is reported by its reason, naming the file once`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 4, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)
        let store = try FileEventStore.open(path: dir.path, options: options)
        for n in 0..<10 { try await store.append(to: "a-1", [.json("Noted", #"{"n":\#(n)}"#)]) }
        store.close()
        let name = LogFormat.segmentName(firstPosition: 4)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/segments/" + name))
        bytes[0] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: dir.path + "/segments/" + name))
        // The store no longer opens: `log verify` checks the files without opening it.
        let report = try FileEventStore.verifyWithoutOpening(path: dir.path)
        #expect(report.problems.first == .init(file: name, offset: 0, message: "not a Pawtrail segment (bad magic)"), "\(report)")
        // The next segment is not reported as a gap: where the damaged one ended is unknown.
        #expect(!report.problems.contains { $0.message.contains("gap or overlap") }, "\(report)")
    }

    @Test func `a version gap in a segment before damaged data in it is still reported`() async throws {
        let a = TemporaryDirectory()
        let b = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 2, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0)
        // a: segment 0 holds a-1 versions 0 and 1; b: segment 2 holds a-1 versions 0 and 1, a commit each.
        let sa = try FileEventStore.open(path: a.path, options: options)
        try await sa.append(to: "a-1", [.json("Noted", #"{"n":1}"#), .json("Noted", #"{"n":2}"#)])
        try await sa.append(to: "b-1", [.json("Noted", #"{"n":1}"#)])
        try await sa.append(to: "b-1", [.json("Noted", #"{"n":2}"#)])
        sa.close()
        let sb = try FileEventStore.open(path: b.path, options: options)
        try await sb.append(to: "c-1", [.json("Noted", #"{"n":1}"#), .json("Noted", #"{"n":2}"#)])
        try await sb.append(to: "a-1", [.json("Noted", #"{"n":1}"#)])
        try await sb.append(to: "a-1", [.json("Noted", #"{"n":2}"#)])
        sb.close()
        let name = String(LogFormat.segmentName(firstPosition: 2).dropLast(4))
        for suffix in [".seg", ".sidx", ".eidx"] {
            let target = a.path + "/segments/" + name + suffix
            try FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: b.path + "/segments/" + name + suffix, toPath: target)
        }
        // Damage the segment's second frame: its first, where a-1 starts again at version 0, stays readable.
        let path = a.path + "/segments/" + name + ".seg"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let firstLength = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: LogFormat.segmentHeaderSize, as: UInt32.self).littleEndian) }
        let second = LogFormat.segmentHeaderSize + 4 + firstLength + 4
        bytes[second + 4 + LogFormat.frameHeaderSize] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let report = try Self.verify(a)
        let versionProblems = report.problems.filter { $0.message.hasPrefix("stream ") }
        #expect(versionProblems.map(\.message) == ["stream 'a-1' has version 0 at position 2, expected 2"], "\(report)")
        #expect(versionProblems.map(\.file) == [name + ".seg"])
        #expect(report.problems.contains { $0.file == name + ".seg" && $0.offset == UInt64(second) }, "\(report)")
    }

    @Test func `a frame repeated in the active segment is reported, not a crash`() async {
        await #expect(processExitsWith: .success) {
            let dir = TemporaryDirectory()
            let first = Self.frame(position: 0, stream: "a-1", version: 0, id: uuid(1))
            let frames = [first, Self.frame(position: 1, stream: "a-1", version: 1, id: uuid(2)), first]
            try await Self.storeWithActiveSegment(dir, frames: frames, nextPosition: 3)
            let report = try Self.verify(dir)
            #expect(report.problems.contains { $0.message == "frame starts at position 0, expected 2" }, "\(report)")
        }
    }
}
