@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// Commits of 64 KiB or more are laid out by columns in the active segment (format 3), read back exactly, through an
/// open that scans them, verify and compaction; a segment an older build created keeps its commits as rows.
@Suite struct ColumnarCommitsTests {
    /// `count` events of about 230 bytes of JSON each, with a correlation id.
    private func batch(_ count: Int, from start: Int = 0) -> [ProposedEvent] {
        (start..<(start + count)).map { i in
            event(
                "Weighed",
                #"{"petId":"\#(UUID().uuidString.lowercased())","grams":\#(1000 + i),"at":"2026-06-01T00:00:\#(String(format: "%02d", i % 60)).000001Z","note":"weighed at the clinic, calm, ate well afterwards"}"#,
                metadata: ["correlationId": UUID().uuidString.lowercased(), "actor": "staff-\(i % 9)"])
        }
    }

    private func commitCodecs(_ store: FileEventStore) throws -> [String] {
        var codecs: [String] = []
        for name in try store.segmentNames() {
            for f in try store.inspect(segment: name).frames where f.kind == "commit" { codecs.append(f.codec) }
        }
        return codecs
    }

    @Test(arguments: [true, false])
    func `a large commit is laid out as the option says and reads back`(columnar: Bool) async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, columnarBlocks: columnar)
        let store = try FileEventStore.open(path: dir.path, options: options)
        // 300 events (about 100 KB: one part) and 1,500 (about 500 KB: two parts, on two cores), then a small one.
        let written = batch(300) + batch(1_500, from: 300) + batch(3, from: 1_800)
        try await store.append(to: stream("pet-1"), Array(written[0..<300]))
        try await store.append(to: stream("pet-2"), Array(written[300..<1_800]))
        try await store.append(to: stream("pet-1"), Array(written[1_800...]))
        let large = columnar ? "columns+zstd by groups" : "zstd"
        #expect(try Array(commitCodecs(store).prefix(2)) == [large, large])
        #expect(try commitCodecs(store).last != "columns+zstd by groups")
        #expect(try await store.readAll().map(\.id) == written.map(\.id))
        store.close()

        // Reopened without the checkpoint, the open scans (and decodes) every frame.
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path + "/segments") where name.hasSuffix(".ckpt") {
            try FileManager.default.removeItem(atPath: dir.path + "/segments/" + name)
        }
        let reopened = try FileEventStore.open(path: dir.path, options: options)
        let all = try await reopened.readAll()
        #expect(all.map(\.id) == written.map(\.id))
        #expect(all.map(\.data) == written.map(\.data))
        #expect(all.map(\.metadata) == written.map(\.metadata))
        let page = try await reopened.read(ReadRequest(source: .stream(stream("pet-2")), from: 700, limit: 3))
        #expect(page.events.map(\.id) == Array(written[1_000..<1_003]).map(\.id))
        #expect(try reopened.verify().isOK)
        reopened.close()
    }

    @Test func `an event of a large commit is read by decoding the part that holds it`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true)
        let store = try FileEventStore.open(path: dir.path, options: options)
        // About 1 MB of rows: several parts of about ColumnarParts.partRowBytes.
        let written = batch(4_000)
        try await store.append(to: stream("pet-2"), written)
        store.close()

        let reopened = try FileEventStore.open(path: dir.path, options: options)
        let frame = try #require(try reopened.inspect(segment: try reopened.segmentNames()[0]).frames.first { $0.kind == "commit" })
        #expect(frame.codec == "columns+zstd by groups")
        let before = reopened.state.lookupBytesDecoded
        let page = try await reopened.read(ReadRequest(source: .stream(stream("pet-2")), from: 2_500, limit: 2))
        #expect(page.events.map(\.id) == written[2_500..<2_502].map(\.id))
        #expect(page.events.map(\.data) == written[2_500..<2_502].map(\.data))
        let decoded = reopened.state.lookupBytesDecoded - before
        #expect(decoded > 0 && decoded <= 2 * ColumnarParts.partRowBytes, "decoded \(decoded) bytes of a frame of \(frame.rawLength)")
        // Every event still reads back, by stream and by position, and the store verifies.
        let all = try await reopened.read(ReadRequest(source: .stream(stream("pet-2")), from: 0, limit: 10_000))
        #expect(all.events.map(\.id) == written.map(\.id))
        #expect(try await reopened.readAll().map(\.metadata) == written.map(\.metadata))
        #expect(try reopened.verify().isOK)
        reopened.close()
    }

    /// Rewrites every segment header's versions to 2, with its checksum, as a format 2 build writes them (in place:
    /// the head names the active segment's file).
    private func makeSegmentsFormatTwo(_ root: String) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/segments") where name.hasSuffix(".seg") {
            let fd = try FileDescriptor.open(root + "/segments/" + name, .readWrite)
            var header = try fd.read(at: 0, count: 64)
            header.replaceSubrange(8..<12, with: [2, 0, 2, 0])
            withUnsafeBytes(of: CRC32C.checksum(Array(header[0..<60])).littleEndian) { header.replaceSubrange(60..<64, with: $0) }
            try fd.write(header, at: 0)
        }
    }

    @Test func `a segment a format 2 build created keeps its commits as rows`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 1_000, compactSealedSegments: false)
        let store = try FileEventStore.open(path: dir.path, options: options)
        let written = batch(2) + batch(400, from: 2) + batch(700, from: 402) + batch(290, from: 1_102)
        try await store.append(to: stream("pet-1"), Array(written[0..<2]))
        store.close()
        try makeSegmentsFormatTwo(dir.path)

        let reopened = try FileEventStore.open(path: dir.path, options: options)
        // Into the format 2 segment: rows, which a format 2 build reads.
        try await reopened.append(to: stream("pet-1"), Array(written[2..<402]))
        // Too many for the segment's 1,000 events: a new segment is started for it, which says it needs format 3. The
        // commit was laid out before, for the segment then active, so it is rows too (one commit after an upgrade).
        try await reopened.append(to: stream("pet-1"), Array(written[402..<1_102]))
        // Laid out for the new segment: by columns.
        try await reopened.append(to: stream("pet-1"), Array(written[1_102...]))
        let names = try reopened.segmentNames()
        #expect(names.count == 2)
        let old = try reopened.inspect(segment: names[0])
        let new = try reopened.inspect(segment: names[1])
        #expect(old.minimumReaderVersion == 2 && new.minimumReaderVersion == 3)
        let oldCodecs = old.frames.filter { $0.kind == "commit" }.map(\.codec)
        #expect(oldCodecs.count == 2 && oldCodecs.last == "zstd" && !oldCodecs.contains("columns+zstd by groups"), "\(oldCodecs)")
        #expect(new.frames.filter { $0.kind == "commit" }.map(\.codec) == ["zstd", "columns+zstd by groups"])
        #expect(try await reopened.readAll().map(\.id) == written.map(\.id))
        #expect(try reopened.verify().isOK)
        reopened.close()
    }

    @Test func `verify reports a frame stored for newer readers than its segment header admits`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, compactSealedSegments: false)
        let store = try FileEventStore.open(path: dir.path, options: options)
        try await store.append(to: stream("pet-1"), batch(300))
        #expect(try commitCodecs(store) == ["columns+zstd by groups"])
        store.close()
        #expect(try store.verify().isOK)
        // What no build writes: a format 3 frame in a segment whose header says a format 2 reader can read it.
        try makeSegmentsFormatTwo(dir.path)
        let report = try FileEventStore.verifyWithoutOpening(path: dir.path)
        #expect(report.problems.map(\.message) == [
            "frame is stored for readers of format 3 or newer, but the segment header admits readers of format 2"
        ])
        #expect(report.problems.first?.offset == UInt64(LogFormat.segmentHeaderSize))
        // Still read here: the problem is for older readers.
        let reopened = try FileEventStore.open(path: dir.path, options: options)
        defer { reopened.close() }
        #expect(try await reopened.readAll().count == 300)
    }
}
