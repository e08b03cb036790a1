import Foundation
import Testing

/// Checkpoints of the active segment through the built binary: appends write them, `log inspect` shows what the one
/// on disk covers, later processes start from it, and `log verify` checks it.
@Suite(.ownThreads) struct CheckpointProcessTests {
    @Test func `appends write a checkpoint that inspect shows, and reads and verify agree with it`() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("s")
        let environment = ["PAWTRAIL_CHECKPOINT_EVENTS": "4"]
        var batch = ""
        for k in 0..<6 { batch += "{\"stream\":\"pet-\(k % 2)\",\"type\":\"PetFed\",\"data\":{\"k\":\(k)}}\n" }
        let first = try PawtrailProcess.run(["--store", path, "log", "append", "--batch", "-"], stdin: batch, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let none = try PawtrailProcess.run(["--store", path, "log", "inspect", "0"])
        #expect(!none.stdout.contains("Checkpoint: none"), "6 events against an interval of 4: \(none.stdout)")
        #expect(none.stdout.contains("Checkpoint: 6 events, up to byte "), "\(none.stdout)")

        let second = try PawtrailProcess.run(
            ["--store", path, "log", "append", "--stream", "pet-0", "--type", "PetFed", "--data", "{}", "--expected-version", "2"],
            environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let inspect = try PawtrailProcess.run(["--store", path, "log", "inspect", "0", "--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect(answer["checkpointEvents"] as? Int == 6, "one event more is less than an interval: \(inspect.stdout)")
        #expect(answer["checkpointEnd"] as? Int != nil)

        let read = try PawtrailProcess.run(["--store", path, "log", "read", "--stream", "pet-0", "--json"])
        #expect(read.lines.count == 4, "\(read.stdout)")
        let conflict = try PawtrailProcess.run(
            ["--store", path, "log", "append", "--stream", "pet-1", "--type", "PetFed", "--data", "{}", "--expected-version", "0"])
        #expect(conflict.status == 75)
        #expect(conflict.stderr.contains("2"), "\(conflict.stderr)")
        let verify = try PawtrailProcess.run(["--store", path, "log", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)")

        let bad = try PawtrailProcess.run(["--store", path, "log", "stats"], environment: ["PAWTRAIL_CHECKPOINT_EVENTS": "lots"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("PAWTRAIL_CHECKPOINT_EVENTS must be a number from 0 to 131072, not 'lots'"), "\(bad.stderr)")
    }

    @Test func `inspect says when the active segment has no checkpoint`() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("s")
        let append = try PawtrailProcess.run(["--store", path, "log", "append", "--stream", "pet-1", "--type", "PetFed", "--data", "{}"])
        #expect(append.status == 0, "\(append.stderr)")
        let inspect = try PawtrailProcess.run(["--store", path, "log", "inspect", "0"])
        #expect(inspect.stdout.contains("Checkpoint: none (opens scan the whole segment)\n"), "\(inspect.stdout)")
        let json = try PawtrailProcess.run(["--store", path, "log", "inspect", "0", "--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(answer["checkpointEvents"] is NSNull)
    }
}
