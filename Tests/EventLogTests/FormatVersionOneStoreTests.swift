@testable import EventLog
@testable import EventLogFile
@testable import EventLogTestKit
import Foundation
import PawtrailIO
import Testing

/// A store written by format 1 (blocks of rows only) opens, reads, compacts its sealed segments into columnar
/// blocks and verifies under this build, its old blocks and new ones side by side.
@Suite struct FormatVersionOneStoreTests {
    /// Rewrites the manifest's and every segment header's versions to 1, with their checksums (and a sealed
    /// segment's whole-file checksum), as format 1 wrote them.
    private func downgrade(_ root: String) throws {
        let manifest = root + "/pawtrail.store"
        var m = try FileSystem.readFile(manifest)
        m.replaceSubrange(8..<12, with: [1, 0, 1, 0])
        withUnsafeBytes(of: CRC32C.checksum(Array(m[0..<40])).littleEndian) { m.replaceSubrange(40..<44, with: $0) }
        try FileSystem.writeAtomically(m, to: manifest, sync: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/segments") where name.hasSuffix(".seg") {
            let path = root + "/segments/" + name
            var bytes = try FileSystem.readFile(path)
            bytes.replaceSubrange(8..<12, with: [1, 0, 1, 0])
            withUnsafeBytes(of: CRC32C.checksum(Array(bytes[0..<60])).littleEndian) { bytes.replaceSubrange(60..<64, with: $0) }
            let fd = try FileDescriptor.open(path, .readOnly)
            if let trailer = try SegmentFooter.readTrailer(fd: fd, fileSize: UInt64(bytes.count)) {
                var footer = try SegmentFooter.read(fd: fd, file: path, footerOffset: trailer.footerOffset, footerLength: trailer.footerLength)
                footer.checksum = CRC32C.checksum(Array(bytes[0..<Int(footer.dataEnd)]))
                bytes.replaceSubrange(Int(footer.dataEnd)..., with: footer.encodedWithTrailer())
            }
            try FileSystem.writeAtomically(bytes, to: path, sync: false)
        }
    }

    private func blockCodecs(_ store: FileEventStore) throws -> Set<String> {
        var codecs: Set<String> = []
        for name in try store.segmentNames() {
            for f in try store.inspect(segment: name).frames where f.kind == "block" {
                codecs.insert(f.codec)
            }
        }
        return codecs
    }

    @Test func `a format 1 store reads, compacts into columns and verifies`() async throws {
        let dir = TemporaryDirectory()
        let old = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 40, compactSealedSegments: false, columnarBlocks: false)
        var written: [ProposedEvent] = []
        func batch(_ range: Range<Int>) -> [ProposedEvent] {
            range.map { i in
                event(
                    "Weighed",
                    #"{"petId":"pet-\#(i % 7)","grams":\#(1000 + i),"at":"2026-06-01T00:00:\#(String(format: "%02d", i % 60)).000001Z","id":"\#(UUID().uuidString.lowercased())"}"#,
                    metadata: ["correlationId": UUID().uuidString.lowercased()])
            }
        }
        let store = try FileEventStore.open(path: dir.path, options: old)
        for chunk in [0..<60, 60..<120] {
            let events = batch(chunk)
            written += events
            try await store.append(to: stream("pet-\(chunk.lowerBound)"), events)
        }
        #expect(try !store.compact().isEmpty)
        for chunk in [120..<180, 180..<250] {
            let events = batch(chunk)
            written += events
            try await store.append(to: stream("pet-\(chunk.lowerBound)"), events)
        }
        #expect(try blockCodecs(store) == ["zstd"])
        store.close()
        try downgrade(dir.path)

        let reopened = try FileEventStore.open(path: dir.path, options: FileEventStoreOptions(maxSegmentEvents: 40, compactSealedSegments: false))
        #expect(try await reopened.readAll().map(\.id) == written.map(\.id))
        #expect(try !reopened.compact().isEmpty)
        #expect(try blockCodecs(reopened) == ["zstd", "columns+zstd by groups"])
        let all = try await reopened.readAll()
        #expect(all.map(\.id) == written.map(\.id))
        #expect(all.map(\.data) == written.map(\.data))
        #expect(all.map(\.metadata) == written.map(\.metadata))
        // Stream reads and reads by position go through single blocks, not the scan.
        for first in [0, 60, 120, 180] {
            let events = try await reopened.events(of: stream("pet-\(first)"))
            #expect(events.map(\.id) == all.filter { $0.stream == stream("pet-\(first)") }.map(\.id))
            #expect(events.map(\.data) == all.filter { $0.stream == stream("pet-\(first)") }.map(\.data))
        }
        let backward = try await reopened.readAll(.all, direction: .backward, pageSize: 7)
        #expect(backward.map(\.id) == written.map(\.id).reversed())
        let report = try reopened.verify()
        #expect(report.isOK, "\(report.problems)")
        reopened.close()
    }
}
