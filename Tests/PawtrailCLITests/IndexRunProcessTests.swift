import EventLog
import EventLogFile
import Foundation
import Testing

/// `log compact` does the writer's upkeep now, index runs included, and `log stats`, `log verify` and reads
/// see the runs, all through the built binary.
@Suite(.ownThreads) struct IndexRunProcessTests {
    /// The versions of the events a `log read --json` printed, in order.
    static func versions(_ read: CommandOutcome) -> [Int] {
        read.lines.compactMap { line in (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["version"] as? Int }
    }

    @Test func `log compact builds index runs that stats report, verify checks and reads use`() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("s")
        // 40 sealed segments of 3 events, neither compacted nor indexed in runs: the CLI's upkeep does both.
        do {
            let store = try FileEventStore.open(
                path: path,
                options: FileEventStoreOptions(
                    createIfMissing: true, maxSegmentEvents: 3, durability: .noSync, compactSealedSegments: false, indexRunSegments: 0))
            for k in 0..<40 {
                _ = try await store.append(AppendRequest(entries: (0..<3).map { i in
                    .init(stream: try StreamID("pet-\((k * 3 + i) % 7)"), event: ProposedEvent(type: "PetWeighed", data: Array("{\"k\":\(k),\"i\":\(i)}".utf8)))
                }))
            }
            store.close()
        }
        let compact = try PawtrailProcess.run(["--store", path, "log", "compact", "--json"])
        #expect(compact.status == 0, "\(compact.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(compact.stdout.utf8)) as? [String: Any])
        #expect((answer["compacted"] as? [String])?.count == 40)
        #expect(answer["indexRuns"] as? Int == 2)
        #expect(answer["indexedSegments"] as? Int == 32)

        let again = try PawtrailProcess.run(["--store", path, "log", "compact"])
        #expect(again.status == 0)
        #expect(again.stdout == "Nothing to compact: every sealed segment is already compacted.\n2 index runs over 32 sealed segments.\n")

        let stats = try PawtrailProcess.run(["--store", path, "log", "stats"])
        #expect(stats.stdout.contains("index runs:         2\n"), "\(stats.stdout)")
        #expect(stats.stdout.contains("indexed segments:   32\n"), "\(stats.stdout)")
        let verify = try PawtrailProcess.run(["--store", path, "log", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)")
        #expect(verify.stdout.hasPrefix("OK: 41 segments, 120 events"))

        // pet-3 has an event in every segment but a few: its read crosses both runs and the segments after them.
        let read = try PawtrailProcess.run(["--store", path, "log", "read", "--stream", "pet-3", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        let versions = Self.versions(read)
        #expect(versions == Array(0..<17))
        let conflict = try PawtrailProcess.run(
            ["--store", path, "log", "append", "--stream", "pet-3", "--type", "PetWeighed", "--data", "{}", "--expected-version", "no-stream"])
        #expect(conflict.status == 75)
        #expect(conflict.stderr.contains("16"), "\(conflict.stderr)")
    }

    /// Index files are checked at first use, not at open, so damage in them reaches the CLI as it is: `log verify`
    /// names the file (rather than an open rebuilding it unseen), reads and appends answer rightly all the same (a
    /// segment's `.sidx` rebuilt from the data, a run's `.ridx` passed over for its segments and built again by the
    /// next writer), and `log verify` is clean after them.
    @Test func `damaged index files are reported by log verify, answered around, and mended by later commands`() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("s")
        do {
            let store = try FileEventStore.open(
                path: path, options: FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 3, durability: .noSync))
            for k in 0..<20 {
                _ = try await store.append(AppendRequest(entries: (0..<3).map { i in
                    .init(stream: try StreamID("pet-\((k * 3 + i) % 7)"), event: ProposedEvent(type: "PetWeighed", data: Array("{\"k\":\(k),\"i\":\(i)}".utf8)))
                }))
            }
            store.close()
        }
        // 20 sealed segments of 3 events: a run over the first 16 (as the CLI builds them), and 4 segments beyond it.
        let sidx = path + "/segments/00000000000000000051.sidx"
        let ridx = path + "/runs/00000000000000000000-00000000000000000047.ridx"
        for file in [sidx, ridx] {
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
            bytes[bytes.count - 1] ^= 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        }
        let verify = try PawtrailProcess.run(["--store", path, "log", "verify"])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("00000000000000000051.sidx"), "\(verify.stdout)")
        #expect(verify.stdout.contains("runs/00000000000000000000-00000000000000000047.ridx"), "\(verify.stdout)")

        // pet-3 has events in the run's segments and in the damaged segment beyond it (positions 3, 10, ... 52, 59).
        let read = try PawtrailProcess.run(["--store", path, "log", "read", "--stream", "pet-3", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        let versions = Self.versions(read)
        #expect(versions == Array(0..<9))
        let append = try PawtrailProcess.run(
            ["--store", path, "log", "append", "--stream", "pet-3", "--type", "PetWeighed", "--data", "{}", "--expected-version", "8"])
        #expect(append.status == 0, "\(append.stderr)")
        let stats = try PawtrailProcess.run(["--store", path, "log", "stats", "--json"])
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(figures["streams"] as? Int == 7)
        #expect(figures["indexRuns"] as? Int == 1, "the run built again by the append's upkeep")
        let again = try PawtrailProcess.run(["--store", path, "log", "verify"])
        #expect(again.status == 0, "\(again.stdout)")
    }
}
