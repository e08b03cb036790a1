import Foundation
import Testing

/// The built `pawtrail` binary, run as a child process: exit statuses and outputs scripts rely on.
/// Tests marked "file store" need `FileEventStore` (they fail until it is implemented).
@Suite(.ownThreads) struct ProcessTests {
    func run(_ arguments: String..., stdin: String = "", environment: [String: String] = [:]) throws -> CommandOutcome {
        try PawtrailProcess.run(arguments, stdin: stdin, environment: environment)
    }

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    // MARK: Without a store

    @Test(arguments: [["--help"], ["log", "--help"], ["log", "append", "--help"], ["help", "log", "append"], ["log", "read", "-h"]])
    func helpIsOnStdoutWithExit0(_ arguments: [String]) throws {
        let out = try PawtrailProcess.run(arguments)
        #expect(out.status == 0)
        #expect(out.stderr.isEmpty)
        let lines = out.lines
        #expect(lines.first?.hasPrefix("OVERVIEW: ") == true)
        #expect(lines.count > 4 && lines[1] == "")
        let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE: pawtrail") })
        #expect(lines[usage - 1] == "" && lines[usage + 1] == "")
        #expect(lines.contains("OPTIONS:"))
        #expect(lines.contains { $0.hasPrefix("  --store <path>") && $0.contains("(default: ") })
    }

    @Test func appendHelpMatchesHelpCommand() throws {
        #expect(try run("log", "append", "--help").stdout == (try run("help", "log", "append").stdout))
        #expect(try run("--help").stdout.contains("\nSUBCOMMANDS:\n  log "))
    }

    @Test func unknownFlagIs64WithUsage() throws {
        let out = try run("log", "append", "--strem", "a")
        #expect(out.status == 64)
        #expect(out.stdout.isEmpty)
        #expect(out.stderr.hasPrefix("Error: unknown option '--strem'; did you mean '--stream'?\n\nUsage: pawtrail log append "))
        #expect(out.stderr.hasSuffix("\nSee 'pawtrail log append --help'.\n"))
        let command = try run("lgo", "read")
        #expect(command.status == 64)
        #expect(command.stderr.hasPrefix("Error: unknown command 'lgo' for 'pawtrail'; did you mean 'log'?"))
    }

    @Test func badJSONIs65AndCreatesNoStore() throws {
        let dir = try TemporaryDirectory()
        let out = try run("--store", dir.path("s"), "log", "append", "--stream", "a", "--type", "T", "--data", "{\"a\":1,}", "--json")
        #expect(out.status == 65)
        #expect(try object(out.lines[0])["error"] as? String == "invalid-request")
        #expect(out.stderr.hasPrefix("Error: --data is not valid JSON: "))
        #expect(!FileManager.default.fileExists(atPath: dir.path("s")))
    }

    @Test func invalidStreamIDIs65() throws {
        let dir = try TemporaryDirectory()
        let out = try run("log", "append", "--store", dir.path("s"), "--stream", "$system", "--type", "T", "--data", "{}")
        #expect(out.status == 65)
        #expect(out.stderr == "Error: stream id '$system' starts with '$', which is reserved for system streams\n")
    }

    @Test func batchLineErrorNamesTheLine() throws {
        let dir = try TemporaryDirectory()
        let batch = "{\"stream\":\"a\",\"type\":\"T\",\"data\":{}}\n\n{\"stream\":\"b\",\"type\":\"T\"}\n"
        let out = try run("--store", dir.path("s"), "log", "append", "--batch", "-", stdin: batch)
        #expect(out.status == 65)
        #expect(out.stderr == "Error: line 3: missing \"data\"\n")
    }

    /// An argument that is not UTF-8 is refused as bad input (65) before anything is written: Swift's
    /// `CommandLine.arguments` puts U+FFFD in its place, which would store other data, another stream id or another
    /// store directory than the one given. A shell passes the raw bytes, which `Process` cannot.
    @Test(arguments: [
        #"--stream "$(printf 'a-\377')" --data 1"#, #"--stream a-1 --data "$(printf '"\376"')""#,
        #"--stream a-1 --data 1 --meta "$(printf 'k=\377')""#,
    ])
    func anArgumentThatIsNotUTF8Is65AndWritesNothing(_ options: String) throws {
        let dir = try TemporaryDirectory()
        let (status, message) = try Self.shell(#"exec "$0" --store "$1" log append --type T "# + options, dir.path("s"))
        #expect(status == 65, "\(message)")
        #expect(message.hasPrefix("Error: argument ") && message.contains("is not valid UTF-8"), "\(message)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("s")))
    }

    /// Runs a `/bin/sh -c` script with `$0` the built binary and `$1` the argument given: how bytes that are not
    /// UTF-8 reach the binary's arguments and environment (a Swift `String` cannot carry them).
    ///
    /// - Returns: The exit status (-1 for a signal) and standard error.
    static func shell(_ script: String, _ argument: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, PawtrailProcess.executable.path, argument]
        let stderr = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        try process.run()
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason == .exit ? process.terminationStatus : -1, message)
    }

    /// `$PAWTRAIL_STORE` that is not UTF-8 is refused alike: decoded with U+FFFD, it would create a store in
    /// another directory than the one set.
    @Test func aStorePathFromTheEnvironmentThatIsNotUTF8Is65AndCreatesNothing() throws {
        let dir = try TemporaryDirectory()
        let (status, message) = try Self.shell(
            #"PAWTRAIL_STORE="$1/$(printf 's\377')" exec "$0" log append --stream a-1 --type T --data 1"#, dir.url.path)
        #expect(status == 65, "\(message)")
        #expect(message.hasPrefix("Error: $PAWTRAIL_STORE ") && message.contains("is not valid UTF-8"), "\(message)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).isEmpty)
    }

    // MARK: File store

    @Test func missingStoreOnReadIs74() throws {
        let dir = try TemporaryDirectory()
        for verb in [["log", "read", "--all"], ["log", "stats"], ["log", "verify"], ["log", "tail"]] {
            let out = try PawtrailProcess.run(["--store", dir.path("none")] + verb + ["--json"])
            #expect(out.status == 74)
            #expect(out.stderr.hasPrefix("Error: no store at \(dir.path("none"))"), "\(verb): \(out.stderr)")
            #expect(try object(out.lines.first ?? "")["error"] as? String == "store-not-found")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("none")))
    }

    @Test func expectedVersionMatrix() throws {
        let dir = try TemporaryDirectory()
        let env = ["PAWTRAIL_STORE": dir.path("store")]
        func append(_ stream: String, _ expected: String) throws -> CommandOutcome {
            try PawtrailProcess.run(
                ["log", "append", "--stream", stream, "--type", "PetNoted", "--data", #"{"name":"Biscuit"}"#,
                    "--expected-version", expected, "--json"],
                environment: env)
        }
        let created = try append("pet-1", "no-stream")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == #"{"firstPosition":0,"lastPosition":0,"streams":[{"stream":"pet-1","version":0}]}"# + "\n")

        let exists = try append("pet-1", "no-stream")
        #expect(exists.status == 75)
        #expect(exists.stdout == #"{"error":"wrong-expected-version","stream":"pet-1","expected":"no-stream","actual":0}"# + "\n")

        #expect(try append("pet-1", "0").status == 0)
        let wrong = try append("pet-1", "0")
        #expect(wrong.status == 75)
        #expect(wrong.stdout == #"{"error":"wrong-expected-version","stream":"pet-1","expected":0,"actual":1}"# + "\n")
        #expect(wrong.stderr == "Error: wrong expected version for stream 'pet-1': expected 0, but the stream is at version 1\n")

        let missing = try append("pet-2", "stream-exists")
        #expect(missing.status == 75)
        #expect(try object(missing.lines[0])["actual"] as? String == "no-stream")
        #expect(try append("pet-1", "stream-exists").status == 0)
        #expect(try append("pet-1", "any").status == 0)
        #expect(try append("pet-3", "any").status == 0)
    }

    @Test func idempotentRetryWithEventID() throws {
        let dir = try TemporaryDirectory()
        let id = "6ba7b810-9dad-41d1-80b4-00c04fd430c8"
        func append(_ data: String) throws -> CommandOutcome {
            try run("--store", dir.path("s"), "log", "append", "--stream", "booking-7", "--type", "BookingNoted", "--data", data, "--event-id", id)
        }
        #expect(try append(#"{"slot":"10:00"}"#).stdout == "Appended 1 event to booking-7 at version 0 (position 0).\n")
        let retry = try append(#"{"slot":"10:00"}"#)
        #expect(retry.status == 0)
        #expect(retry.stdout == "Already committed: 1 event to booking-7 at version 0 (position 0).\n")
        let conflict = try append(#"{"slot":"11:00"}"#)
        #expect(conflict.status == 65)
        #expect(conflict.stderr.hasPrefix("Error: event id \(id) conflicts with an earlier append"))
    }

    @Test func failedBatchLeavesNoTrace() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        _ = try run("--store", store, "log", "append", "--stream", "inventory-litter", "--type", "StockCounted", "--data", #"{"q":40}"#)
        let batch = """
            {"stream":"order-1","type":"OrderNoted","data":{"total":1},"expectedVersion":"no-stream"}
            {"stream":"inventory-litter","type":"StockHeld","data":{"q":1},"expectedVersion":0}
            {"stream":"inventory-food","expectedVersion":0,"check":true}
            """
        let refused = try run("--store", store, "log", "append", "--batch", "-", "--json", stdin: batch)
        #expect(refused.status == 75)
        #expect(try object(refused.lines[0])["stream"] as? String == "inventory-food")
        #expect(try run("--store", store, "log", "read", "--all", "--json").lines.count == 1)

        let accepted = try run("--store", store, "log", "append", "--batch", "-", stdin: batch.replacingOccurrences(of: #""expectedVersion":0,"check""#, with: #""expectedVersion":"no-stream","check""#))
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout == "Appended 2 events (positions 1-2): order-1 at version 0, inventory-litter at version 1.\n")
        #expect(try run("--store", store, "log", "read", "--all", "--json").lines.count == 3)
    }

    @Test func readJSONShapeKeepsDataBytes() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        _ = try run("--store", store, "log", "append", "--stream", "order-42", "--type", "OrderNoted", "--data", #"{"total":1200,"b":1.50,"a":[]}"#, "--meta", "actor=sam")
        let out = try run("--store", store, "log", "read", "--stream", "order-42", "--json")
        #expect(out.status == 0)
        let line = try #require(out.lines.first)
        #expect(line.hasPrefix(#"{"position":0,"stream":"order-42","version":0,"type":"OrderNoted","eventId":""#))
        #expect(line.hasSuffix(#""metadata":{"actor":"sam"},"data":{"total":1200,"b":1.50,"a":[]}}"#))
        let recordedAt = try #require(try object(line)["recordedAt"] as? String)
        #expect(recordedAt.hasSuffix("Z") && recordedAt.count == 27)
        let human = try run("--store", store, "log", "read", "--all")
        #expect(human.stdout.hasPrefix("      0  "))
        #expect(human.stdout.hasSuffix("  order-42@0  OrderNoted  {\"total\":1200,\"b\":1.50,\"a\":[]}\n"))
    }

    @Test func verifyAndStatsJSONKeys() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        _ = try run("--store", store, "log", "append", "--stream", "pet-1", "--type", "PetNoted", "--data", "{}")
        let verify = try run("--store", store, "log", "verify", "--json")
        #expect(verify.status == 0, "\(verify.stderr)")
        let v = try object(verify.lines.first ?? "")
        #expect(Set(v.keys) == ["ok", "segments", "events", "indexEntries", "problems"])
        #expect(v["ok"] as? Bool == true)
        #expect(try run("--store", store, "log", "verify").stdout.hasPrefix("OK: "))

        let stats = try run("--store", store, "log", "stats", "--json")
        #expect(stats.status == 0, "\(stats.stderr)")
        let s = try object(stats.lines.first ?? "")
        #expect(
            Set(s.keys) == [
                "segments", "compactedSegments", "events", "streams", "firstPosition", "lastPosition", "firstRecordedAt",
                "lastRecordedAt", "rawBytes", "diskBytes", "segmentBytes", "indexBytes", "indexRuns", "indexedSegments", "preallocatedBytes", "dictionaries",
                "compressionRatio",
            ])
        #expect(s["events"] as? Int == 1)
        #expect(s["streams"] as? Int == 1)
    }

    @Test func demoTwiceIsANoOpTheSecondTime() throws {
        let dir = try TemporaryDirectory()
        let first = try run("--store", dir.path("s"), "demo")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("A day at the shop, 2026-12-01: "))
        let events = try run("--store", dir.path("s"), "log", "read", "--all", "--json").lines.count
        #expect(first.stdout.contains("  log       \(events) events from "))
        let second = try run("--store", dir.path("s"), "demo")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("This store holds the demo's day already"))
        #expect(try run("--store", dir.path("s"), "log", "read", "--all", "--json").lines.count == events)
        #expect(try run("--store", dir.path("s"), "log", "verify").status == 0)
    }

    @Test func tailFollowPrintsNewEventsAndExitsZeroOnSIGINT() async throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        _ = try run("--store", store, "log", "append", "--stream", "a", "--type", "T", "--data", "1")
        let outPath = dir.path("tail.out")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        let process = Process()
        process.executableURL = PawtrailProcess.executable
        process.arguments = ["--store", store, "log", "tail", "--follow", "--json"]
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        func lines() -> Int {
            (FileManager.default.contents(atPath: outPath).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .split(separator: "\n").count
        }
        // Each wait has its own generous bound: these are liveness checks, not timings, and a loaded CI machine
        // must not turn a slow start into a failure.
        func wait(until done: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !done() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        }
        try await wait { lines() >= 1 }
        #expect(lines() == 1)
        _ = try run("--store", store, "log", "append", "--stream", "b", "--type", "T", "--data", "2")
        try await wait { lines() >= 2 }
        #expect(lines() == 2)
        kill(process.processIdentifier, SIGINT)
        try await wait { !process.isRunning }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}

extension ProcessTests {
    @Test func recoveryOnOpenIsAWarning() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        _ = try run("--store", store, "log", "append", "--stream", "a", "--type", "T", "--data", "1")
        let segments = try #require(FileManager.default.enumerator(atPath: store)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".seg") })
        let segment = try #require(segments.first)
        // A torn second commit lands right after the first one (the writer preallocates zeros past it).
        let path = store + "/" + segment
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let firstLength = bytes[64..<68].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let dataEnd = 64 + 8 + firstLength
        let torn = Data("a torn tail".utf8)
        if bytes.count < dataEnd + torn.count { bytes.append(Data(count: dataEnd + torn.count - bytes.count)) }
        bytes.replaceSubrange(dataEnd..<(dataEnd + torn.count), with: torn)
        try bytes.write(to: URL(fileURLWithPath: path))
        let out = try run("--store", store, "log", "append", "--stream", "a", "--type", "T", "--data", "2")
        #expect(out.status == 0)
        #expect(out.stderr.hasPrefix("Warning: recovered "))
        #expect(out.stderr.split(separator: "\n").count == 1)
        #expect(try run("--store", store, "log", "read", "--stream", "a", "--json").lines.count == 2)
    }

    @Test func optionBeforeItsVerbGetsAHint() throws {
        let out = try run("--json", "log", "stats")
        #expect(out.status == 64)
        #expect(out.stderr.hasPrefix("Error: unknown option '--json' (options of a command go after its name"))
    }
}
