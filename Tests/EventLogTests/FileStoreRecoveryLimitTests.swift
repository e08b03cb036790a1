@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// Recovery tells a torn tail from damage, when the head lags, by searching the bytes after the bad frame for a
/// later group's first frame. Event data stored verbatim (uncompressed under load, or incompressible) that is
/// shaped like such a frame is taken for one: a known limit (docs/design.md, Recovery), pinned here so that it stays on the
/// safe side, refusing appends and keeping every earlier event, never cutting acknowledged data.
@Suite struct FileStoreRecoveryLimitTests {
    /// Event data that holds a whole, checksummed commit frame (group index 0) for a position just ahead.
    private func frameShapedData() -> [UInt8] {
        var payload = ByteWriter()
        CommitCodec.encodeCommitHeader(recordedAtDelta: 0, eventCount: 1, into: &payload)
        CommitCodec.encodeEvent(
            stream: StreamID(unchecked: "x"), version: 0, event: ProposedEvent(type: "X", data: Array("{}".utf8)), into: &payload)
        var bytes: [UInt8] = Array("{\"blob\":\"".utf8)
        let at = Timestamp(microsecondsSinceEpoch: 1)
        FrameIO.encode(
            type: .commit, firstPosition: 5_000, eventCount: 1, commitCount: 1, firstRecordedAt: at, lastRecordedAt: at,
            stored: .init(codec: .none, dictionaryID: 0, bytes: payload.bytes, rawLength: payload.count), into: &bytes)
        bytes += Array("\"}".utf8)
        return bytes
    }

    private func tornTailRecovers(concurrent: Bool) async throws -> (codec: String, recovered: Bool, appendError: String?, readable: Bool) {
        let dir = NSTemporaryDirectory() + "pawtrail-raw-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = try FileEventStore.open(path: dir, options: FileEventStoreOptions(createIfMissing: true))
        _ = try await store.append(AppendRequest(stream: stream("first"), events: [ProposedEvent(type: "W", data: Array("{}".utf8))]))
        let crafted = frameShapedData()
        var positions: [UInt64] = []
        if concurrent {
            positions = try await withThrowingTaskGroup(of: [UInt64].self) { group in
                for w in 0..<8 {
                    group.addTask {
                        var mine: [UInt64] = []
                        for i in 0..<10 {
                            let data = w == 0 ? crafted : Array("{\"i\":\(i)}".utf8)
                            let r = try await store.append(AppendRequest(stream: stream("w-\(w)"), events: [ProposedEvent(type: "W", data: data)]))
                            if w == 0 { mine.append(r.firstPosition!) }
                        }
                        return mine
                    }
                }
                var all: [UInt64] = []
                for try await p in group { all += p }
                return all
            }
        } else {
            let r = try await store.append(AppendRequest(stream: stream("w-0"), events: [ProposedEvent(type: "W", data: crafted)]))
            positions = [r.firstPosition!]
        }
        store.close()
        let name = try #require(try store.segmentNames().last)
        let frames = try store.inspect(segment: name).frames
        // The last frame holding the crafted event, stored as is if under load.
        let candidates = frames.filter { positions.contains($0.firstPosition) }
        let victim = try #require(candidates.last { concurrent ? $0.codec == "none" : true })
        // A crash mid-write: the victim's last bytes (its checksum) never reached the file, nor anything after it,
        // and the head was never moved past it.
        let path = dir + "/segments/" + name
        let fd = try FileDescriptor.open(path, .readWrite)
        try fd.truncate(to: victim.offset + victim.length - 4)
        try FileManager.default.removeItem(atPath: dir + "/head")
        let reopened = try FileEventStore.open(path: dir)
        var appendError: String?
        do {
            _ = try await reopened.append(AppendRequest(stream: stream("after"), events: [ProposedEvent(type: "W", data: Array("{}".utf8))]))
        } catch {
            appendError = "\(error)"
        }
        // Every event before the torn commit is still there.
        let before = try await reopened.read(ReadRequest(source: .all, from: 0, limit: Int(victim.firstPosition)))
        let readable = before.events.map(\.position) == Array(0..<victim.firstPosition)
        reopened.close()
        return (victim.codec, reopened.recovery?.truncatedAt == victim.offset, appendError, readable)
    }

    @Test func `a torn commit holding a frame-shaped event, compressed, is cut off`() async throws {
        let r = try await tornTailRecovers(concurrent: false)
        #expect(r.recovered)
        #expect(r.appendError == nil)
        #expect(r.readable)
    }

    @Test func `a torn commit holding a frame-shaped event, stored as it is, is refused, and nothing earlier is lost`() async throws {
        let r = try await tornTailRecovers(concurrent: true)
        #expect(r.codec == "none")
        #expect(!r.recovered)
        #expect(r.appendError?.contains(".seg at offset") == true, "\(r.appendError ?? "no error")")
        #expect(r.readable)
    }
}
