import Foundation
import Testing

/// Edge cases of the `pawtrail log` verbs, through the built binary.
@Suite(.ownThreads) struct LogReviewProcessTests {
    func run(_ arguments: String..., stdin: String = "") throws -> CommandOutcome {
        try PawtrailProcess.run(arguments, stdin: stdin)
    }

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// A store of two single-event commits to stream `a`, and its one (active) segment's path.
    func storeOfTwoCommits(_ dir: TemporaryDirectory) throws -> (store: String, segment: String) {
        let store = dir.path("s")
        for n in 1...2 {
            let out = try run("--store", store, "log", "append", "--stream", "a", "--type", "T", "--data", "\(n)")
            #expect(out.status == 0, "\(out.stderr)")
        }
        return (store, store + "/segments/00000000000000000000.seg")
    }

    /// docs/design.md (Recovery): acknowledged data lost from the active segment, "a file shorter than the head says", is
    /// never cut off or skipped: stats fail, appends are refused, `log verify` reports it. A cut that lands on a
    /// frame boundary looked like a clean end: the head was rewritten, the lost event forgotten, and its position
    /// given to the next append.
    @Test func activeSegmentCutAtAFrameBoundaryIsDamageNotAShorterLog() throws {
        let dir = try TemporaryDirectory()
        let (store, segment) = try storeOfTwoCommits(dir)
        let inspection = try object(try run("--store", store, "log", "inspect", "0", "--json").lines.first ?? "")
        let frames = try #require(inspection["frames"] as? [[String: Any]])
        #expect(frames.count == 2)
        let firstEnd = try #require(frames[0]["offset"] as? Int) + (try #require(frames[0]["length"] as? Int))
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        try handle.truncate(atOffset: UInt64(firstEnd))
        try handle.close()

        let stats = try run("--store", store, "log", "stats", "--json")
        #expect(stats.status == 74, "\(stats.stdout)")
        #expect(stats.stderr.hasPrefix("Error: corrupt data in \(segment) at offset \(firstEnd): "))
        let verify = try run("--store", store, "log", "verify", "--json")
        #expect(verify.status == 1, "\(verify.stdout)")
        let report = try object(verify.lines.first ?? "")
        #expect(report["ok"] as? Bool == false)
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.contains { ($0["message"] as? String)?.hasPrefix("head says the log ends before position 2") == true })
        let append = try run("--store", store, "log", "append", "--stream", "b", "--type", "T", "--data", "3")
        #expect(append.status == 74, "\(append.stdout)")
        #expect(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int == firstEnd)
        #expect(try run("--store", store, "log", "read", "--all").status == 74)
    }

    /// The same with the whole active segment gone: the head names it, but nothing noticed it was missing, so the
    /// log read as empty, verify said OK, and the next append took position 0 again.
    @Test func missingActiveSegmentIsDamageNotAnEmptyLog() throws {
        let dir = try TemporaryDirectory()
        let (store, segment) = try storeOfTwoCommits(dir)
        try FileManager.default.removeItem(atPath: segment)

        let read = try run("--store", store, "log", "read", "--all")
        #expect(read.status == 74, "\(read.stdout)")
        #expect(read.stderr.hasPrefix("Error: corrupt data in \(segment) at offset 0: "))
        let verify = try run("--store", store, "log", "verify", "--json")
        #expect(verify.status == 1, "\(verify.stdout)")
        let report = try object(verify.lines.first ?? "")
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.contains { ($0["message"] as? String)?.hasPrefix("head says the log ends before position 2") == true })
        let append = try run("--store", store, "log", "append", "--stream", "b", "--type", "T", "--data", "3", "--json")
        #expect(append.status == 74, "\(append.stdout)")
        #expect(!FileManager.default.fileExists(atPath: segment))
    }

    /// A store path that is a file: reads said "no store at PATH (... appending creates a store)", when appending
    /// there fails; every verb now names the actual problem.
    @Test func storePathThatIsAFileIsNamedAsSuch() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("f", "not a store\n")
        for verb in [["log", "read", "--all"], ["log", "stats"], ["log", "verify"], ["log", "tail"], ["log", "inspect", "0"],
            ["log", "append", "--stream", "a", "--type", "T", "--data", "1"]]
        {
            let out = try PawtrailProcess.run(["--store", file] + verb)
            #expect(out.status == 74, "\(verb)")
            #expect(out.stderr == "Error: \(file) exists and is not a directory\n", "\(verb)")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "not a store\n")
    }

    /// Output that cannot be written (`log read --all --json > backup.jsonl` on a full disk) was dropped in
    /// silence and the command exited 0: a script could not tell its backup was cut short.
    @Test func unwritableStandardOutputIsAnIOError() throws {
        let dir = try TemporaryDirectory()
        let (store, _) = try storeOfTwoCommits(dir)
        for verb in [["log", "read", "--all", "--json"], ["log", "stats"], ["log", "append", "--stream", "a", "--type", "T", "--data", "3"]] {
            let errPath = dir.path("stderr")
            _ = FileManager.default.createFile(atPath: errPath, contents: nil)
            let process = Process()
            process.executableURL = PawtrailProcess.executable
            process.arguments = ["--store", store] + verb
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            process.standardError = FileHandle(forWritingAtPath: errPath)
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 74, "\(verb)")
            let stderr = try String(contentsOfFile: errPath, encoding: .utf8)
            #expect(stderr == "Error: cannot write to standard output: No space left on device (errno 28)\n", "\(verb)")
        }
    }

    /// A malformed '--at' (or '--at' with '--at-position') is a usage error (64) whether or not the store exists;
    /// it was checked only after opening the store, so without one it came out as "no store" (74).
    @Test func badStoryOptionsAreUsageErrorsBeforeTheStoreIsOpened() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.path("none")
        let bad = try run("--store", missing, "log", "read", "--stream", "a", "--at", "yesterday")
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: the value 'yesterday' is invalid for '--at': expected a UTC ISO-8601 time\n"))
        let both = try run("--store", missing, "log", "read", "--stream", "a", "--at-position", "1", "--at", "2026-01-01T00:00:00Z")
        #expect(both.status == 64)
        #expect(both.stderr.hasPrefix("Error: give '--at' or '--at-position', not both\n"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// A stream's story as JSON gave `"data":null` for events appended with `log append`, whose data is plain JSON:
    /// only the domain's binary events were shown.
    @Test func storyJSONShowsTheDataOfRawEvents() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        #expect(try run("--store", store, "log", "append", "--stream", "a", "--type", "T", "--data", #"{"x": 1}"#).status == 0)
        #expect(try run("--store", store, "log", "append", "--stream", "a", "--type", "T", "--data", "7").status == 0)
        let story = try run("--store", store, "log", "read", "--stream", "a", "--at-position", "5", "--json")
        #expect(story.status == 0, "\(story.stderr)")
        #expect(story.lines.count == 2)
        #expect(story.lines.first?.contains(#","data":{"x":1},"changes":"#) == true, "\(story.stdout)")
        #expect(story.lines.last?.contains(#","data":7,"changes":"#) == true, "\(story.stdout)")
    }

    /// `log verify` exits 1 with a report on any problem; damage that keeps the store from opening (here a segment
    /// header that fails its checksum) gave no report at all, only the open's error and exit 74.
    @Test func verifyReportsDamageThatKeepsTheStoreFromOpening() throws {
        let dir = try TemporaryDirectory()
        let (store, segment) = try storeOfTwoCommits(dir)
        let handle = try #require(FileHandle(forUpdatingAtPath: segment))
        try handle.seek(toOffset: 20)
        try handle.write(contentsOf: Data([0xFF, 0xFF, 0xFF, 0xFF]))
        try handle.close()
        #expect(try run("--store", store, "log", "read", "--all").status == 74)

        let verify = try run("--store", store, "log", "verify", "--json")
        #expect(verify.status == 1, "\(verify.stdout) \(verify.stderr)")
        let report = try object(verify.lines.first ?? "")
        #expect(report["ok"] as? Bool == false)
        let problems = try #require(report["problems"] as? [[String: Any]])
        #expect(problems.contains { $0["file"] as? String == "00000000000000000000.seg" && $0["offset"] as? Int == 0 })
        let text = try run("--store", store, "log", "verify")
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("Found "))
    }

    /// `log inspect N` takes a position the segment holds; a position past the end of the log named the last
    /// segment as if it held it, and an empty store's error listed "segments: " and nothing.
    @Test func inspectByPositionNamesTheSegmentHoldingItOrSaysThereIsNone() throws {
        let dir = try TemporaryDirectory()
        let (store, _) = try storeOfTwoCommits(dir)
        let held = try run("--store", store, "log", "inspect", "1", "--json")
        #expect(held.status == 0, "\(held.stderr)")
        #expect(try object(held.lines.first ?? "")["name"] as? String == "00000000000000000000.seg")
        let past = try run("--store", store, "log", "inspect", "99999999")
        #expect(past.status == 65, "\(past.stdout)")
        #expect(past.stderr == "Error: no segment holds position 99999999 in \(store): the log holds positions 0 to 1\n")
        // A position is decimal digits only, as everywhere else ('+1' and '-0' are not positions).
        for spelled in ["+1", "-0"] {
            let odd = try run("--store", store, "log", "inspect", "--", spelled)
            #expect(odd.status == 65 && odd.stderr.hasPrefix("Error: no segment '\(spelled)' in "), "\(odd.stdout)\(odd.stderr)")
        }
        // A store whose segments and head were removed holds no segment at all.
        for name in try FileManager.default.contentsOfDirectory(atPath: store + "/segments") {
            try FileManager.default.removeItem(atPath: store + "/segments/" + name)
        }
        try FileManager.default.removeItem(atPath: store + "/head")
        let none = try run("--store", store, "log", "inspect", "0")
        #expect(none.stderr.hasSuffix("the store has no segments yet\n"), "\(none.stderr)")
    }

    /// Appending made a store in any directory, among whatever files it held; reads of it then said it was not a
    /// store. A store is made only in a new or empty directory.
    @Test func appendingDoesNotMakeAStoreAmongOtherFiles() throws {
        let dir = try TemporaryDirectory()
        let folder = dir.path("documents")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try dir.write("documents/notes.txt", "mine")
        let append = try run("--store", folder, "log", "append", "--stream", "a-1", "--type", "T", "--data", "1")
        #expect(append.status == 74)
        #expect(append.stderr == "Error: \(folder) is not a Pawtrail store and is not empty (it holds notes.txt); a store is created only in a new or empty directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
        let empty = dir.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try run("--store", empty, "log", "append", "--stream", "a-1", "--type", "T", "--data", "1").status == 0)
    }

    /// `PAWTRAIL_SEGMENT_EVENTS` and `PAWTRAIL_INDEX_RUN_SEGMENTS` make rolls and index runs come within a few events,
    /// for fault injection; a value out of range is bad input naming the variable.
    @Test func segmentAndRunSizesFromTheEnvironment() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        let small = ["PAWTRAIL_SEGMENT_EVENTS": "2", "PAWTRAIL_INDEX_RUN_SEGMENTS": "2"]
        for n in 1...9 {
            let out = try PawtrailProcess.run(
                ["--store", store, "log", "append", "--stream", "a-\(n % 3)", "--type", "T", "--data", "\(n)"], environment: small)
            #expect(out.status == 0, "\(out.stderr)")
        }
        let stats = try object(try run("--store", store, "log", "stats", "--json").lines.first ?? "")
        #expect(stats["segments"] as? Int == 5)
        #expect(stats["indexRuns"] as? Int == 2)
        #expect(try run("--store", store, "log", "verify").status == 0)
        let bad = try PawtrailProcess.run(["--store", store, "log", "stats"], environment: ["PAWTRAIL_SEGMENT_EVENTS": "1"])
        #expect(bad.status == 65)
        #expect(bad.stderr == "Error: PAWTRAIL_SEGMENT_EVENTS must be a number from 2 to 131072, not '1'\n")
    }
}
