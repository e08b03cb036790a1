import EventLog
import EventLogFile
import Foundation
@testable import PawtrailCLI
import Testing

/// Commands run in process against an in-memory store: exit statuses, outputs and error shapes.
@Suite struct CommandTests {
    let cli = InProcessCLI()

    func append(_ stream: String, _ extra: String...) async -> CommandOutcome {
        await cli.run(["log", "append", "--stream", stream, "--type", "PetNoted", "--data", #"{"n":1}"#] + extra)
    }

    /// Parses a line of JSON output (for shape checks only; the CLI itself never round-trips data).
    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func appendPrintsASentenceAndJSON() async throws {
        let first = await append("order-42")
        #expect(first.status == 0)
        #expect(first.stdout == "Appended 1 event to order-42 at version 0 (position 0).\n")
        let second = await append("order-42", "--json")
        #expect(second.stdout == #"{"firstPosition":1,"lastPosition":1,"streams":[{"stream":"order-42","version":1}]}"# + "\n")
    }

    @Test func expectedVersionMatrix() async throws {
        #expect(await append("pet-1", "--expected-version", "no-stream").status == 0)

        let again = await append("pet-1", "--expected-version", "no-stream", "--json")
        #expect(again.status == 75)
        #expect(again.stdout == #"{"error":"wrong-expected-version","stream":"pet-1","expected":"no-stream","actual":0}"# + "\n")

        #expect(await append("pet-1", "--expected-version", "0").status == 0)
        let wrong = await append("pet-1", "--expected-version", "5")
        #expect(wrong.status == 75)
        #expect(wrong.stderr == "Error: wrong expected version for stream 'pet-1': expected 5, but the stream is at version 1\n")
        let wrongJSON = await append("pet-1", "--expected-version", "0", "--json")
        #expect(try object(wrongJSON.lines[0])["actual"] as? Int == 1)
        #expect(try object(wrongJSON.lines[0])["expected"] as? Int == 0)

        let missing = await append("pet-2", "--expected-version", "stream-exists", "--json")
        #expect(missing.status == 75)
        #expect(missing.stdout == #"{"error":"wrong-expected-version","stream":"pet-2","expected":"stream-exists","actual":"no-stream"}"# + "\n")
        #expect(await append("pet-1", "--expected-version", "stream-exists").status == 0)
        #expect(await append("pet-1", "--expected-version", "any").status == 0)
        #expect(await append("pet-3", "--expected-version", "any").status == 0)
        #expect(await append("pet-1", "--expected-version", "sometimes").status == 64)
    }

    @Test func idempotentRetryByEventID() async throws {
        let id = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
        let first = await append("booking-1", "--event-id", id)
        #expect(first.status == 0)
        let retry = await append("booking-1", "--event-id", id, "--json")
        #expect(retry.status == 0)
        #expect(try object(retry.lines[0])["alreadyCommitted"] as? Bool == true)
        #expect((await append("booking-1", "--event-id", id)).stdout.hasPrefix("Already committed: 1 event to booking-1 at version 0"))

        let conflict = await cli.run(
            ["log", "append", "--stream", "booking-1", "--type", "PetNoted", "--data", #"{"n":2}"#, "--event-id", id, "--json"])
        #expect(conflict.status == 65)
        let json = try object(conflict.lines[0])
        #expect(json["error"] as? String == "idempotency-conflict")
        #expect(json["eventId"] as? String == id.lowercased())
        #expect(conflict.stderr.hasPrefix("Error: event id \(id.lowercased()) conflicts"))
    }

    @Test func badInputIsExit65AndNamesTheProblem() async {
        let badJSON = await cli.run(["log", "append", "--stream", "a", "--type", "T", "--data", "{\"a\":}"])
        #expect(badJSON.status == 65)
        #expect(badJSON.stderr.hasPrefix("Error: --data is not valid JSON: expected a JSON value, found '}' (column 6)"))
        let badStream = await cli.run(["log", "append", "--stream", "has space", "--type", "T", "--data", "1"])
        #expect(badStream.status == 65)
        #expect(badStream.stderr.hasPrefix("Error: stream id 'has space' contains whitespace"))
        let badType = await cli.run(["log", "append", "--stream", "a", "--type", "9lives", "--data", "1", "--json"])
        #expect(badType.status == 65)
        #expect(badType.stdout.hasPrefix(#"{"error":"invalid-request","message":"event type '9lives' must start"#))
    }

    @Test func usageErrorsAreExit64WithUsage() async {
        let unknown = await cli.run(["log", "append", "--stream", "a", "--bogus"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: unknown option '--bogus'\n\nUsage: pawtrail log append "))
        #expect(unknown.stderr.hasSuffix("See 'pawtrail log append --help'.\n"))
        #expect(await cli.run(["log", "append", "--type", "T", "--data", "1"]).status == 64)
        #expect(await cli.run(["log", "append", "--stream", "a", "--type", "T"]).status == 64)
        #expect(await cli.run(["log", "append", "--stream", "a", "--type", "T", "--data", "1", "--data-file", "x"]).status == 64)
        #expect(await cli.run(["log", "append", "--batch", "-", "--stream", "a"]).status == 64)
        #expect(await cli.run(["log", "append", "--stream", "a", "--type", "T", "--data", "1", "--event-id", "x"]).status == 64)
        #expect(await cli.run(["log", "append", "--stream", "a", "--type", "T", "--data", "1", "--meta", "novalue"]).status == 64)
        let json = await cli.run(["log", "read", "--json"])
        #expect(json.status == 64)
        #expect(json.stdout.hasPrefix(#"{"error":"usage","message":"#))
    }

    @Test func dataIsStoredAsGivenTrimmed() async throws {
        _ = await cli.run(["log", "append", "--stream", "a", "--type", "T", "--data", "  {\"b\":1.50,\"a\":[1, 2]}\n"])
        let events = try await cli.opener.store.read(ReadRequest(source: .all))
        #expect(String(decoding: events.events[0].data, as: UTF8.self) == "{\"b\":1.50,\"a\":[1, 2]}")
    }

    @Test func metadataIsKept() async throws {
        _ = await cli.run(["log", "append", "--stream", "a", "--type", "T", "--data", "1", "--meta", "actor=sam", "--meta", "note=a=b"])
        let e = try await cli.opener.store.read(ReadRequest(source: .all)).events[0]
        #expect(e.metadata.dictionary == ["actor": "sam", "note": "a=b"])
    }

    @Test func readJSONLinesShape() async throws {
        _ = await cli.run(["log", "append", "--stream", "order-1", "--type", "OrderNoted", "--data", "{ \"z\": 1.0,\n \"a\": 2 }", "--meta", "actor=sam"])
        _ = await cli.run(["log", "append", "--stream", "pet-1", "--type", "PetNoted", "--data", "\"plain\""])
        let out = await cli.run(["log", "read", "--all", "--json"])
        #expect(out.status == 0)
        #expect(out.lines.count == 2)
        #expect(out.lines[0].hasPrefix(#"{"position":0,"stream":"order-1","version":0,"type":"OrderNoted","eventId":""#))
        #expect(out.lines[0].hasSuffix(#","metadata":{"actor":"sam"},"data":{"z":1.0,"a":2}}"#))
        let keys = try object(out.lines[1]).keys.sorted()
        #expect(keys == ["data", "eventId", "metadata", "position", "recordedAt", "stream", "type", "version"])
        #expect(try object(out.lines[0])["recordedAt"] as? String == "2026-11-30T00:53:20.000000Z")
    }

    @Test func readSourcesDirectionsLimitsAndTypes() async throws {
        for (stream, type) in [("order-1", "A"), ("inventory-x", "B"), ("order-1", "B"), ("order-2", "A"), ("order-1", "A")] {
            _ = await cli.run(["log", "append", "--stream", stream, "--type", type, "--data", "{}"])
        }
        func positions(_ args: String...) async -> [String] {
            await cli.run(["log", "read", "--json"] + args).lines.map { String($0.dropFirst(12).prefix { $0 != "," }) }
        }
        #expect(await positions("--stream", "order-1") == ["0", "2", "4"])
        #expect(await positions("--stream", "order-1", "--from", "1") == ["2", "4"])
        #expect(await positions("--stream", "order-1", "--backward") == ["4", "2", "0"])
        #expect(await positions("--category", "order") == ["0", "2", "3", "4"])
        #expect(await positions("--all", "--limit", "2") == ["0", "1"])
        #expect(await positions("--all", "--backward", "--limit", "2") == ["4", "3"])
        #expect(await positions("--all", "--type", "B") == ["1", "2"])
        #expect(await positions("--all", "--from", "3") == ["3", "4"])
        let human = await cli.run(["log", "read", "--stream", "order-2"])
        #expect(human.stdout == "      3  2026-11-30T00:53:20.000003Z  order-2@0  A  {}\n")
    }

    @Test func humanReadTruncatesLongData() async {
        let long = "{\"text\":\"" + String(repeating: "x", count: 300) + "\"}"
        _ = await cli.run(["log", "append", "--stream", "a", "--type", "T", "--data", long])
        let line = await cli.run(["log", "read", "--all"]).lines[0]
        #expect(line.count == EventFormatter.lineWidth)
        #expect(line.hasSuffix("…"))
    }

    @Test func batchIsOneAtomicAppend() async throws {
        let dir = try TemporaryDirectory()
        _ = await cli.run(["log", "append", "--stream", "inventory-litter", "--type", "StockCounted", "--data", "{}"])
        let ok = try dir.write("ok.jsonl", """
            {"stream":"order-1","type":"OrderNoted","data":{"total":1},"expectedVersion":"no-stream"}
            {"stream":"inventory-litter","type":"StockHeld","data":{"q":1},"expectedVersion":0}
            {"stream":"pet-1","expectedVersion":"no-stream","check":true}
            """)
        let done = await cli.run(["log", "append", "--batch", ok])
        #expect(done.status == 0)
        #expect(done.stdout == "Appended 2 events (positions 1-2): order-1 at version 0, inventory-litter at version 1.\n")

        let failing = try dir.write("fail.jsonl", """
            {"stream":"order-2","type":"OrderNoted","data":{"total":1},"expectedVersion":"no-stream"}
            {"stream":"inventory-litter","type":"StockHeld","data":{"q":1},"expectedVersion":1}
            {"stream":"pet-1","expectedVersion":"stream-exists","check":true}
            """)
        let refused = await cli.run(["log", "append", "--batch", failing, "--json"])
        #expect(refused.status == 75)
        #expect(refused.stdout == #"{"error":"wrong-expected-version","stream":"pet-1","expected":"stream-exists","actual":"no-stream"}"# + "\n")
        #expect(await cli.run(["log", "read", "--all", "--json"]).lines.count == 3)

        let bad = try dir.write("bad.jsonl", "{\"stream\":\"a\",\"type\":\"T\",\"data\":1}\n{\"stream\":\"a\",\"type\":\"T\",\"data\":nope}\n")
        let badRun = await cli.run(["log", "append", "--batch", bad])
        #expect(badRun.status == 65)
        #expect(badRun.stderr.hasPrefix("Error: line 2: invalid JSON"))
        #expect(await cli.run(["log", "append", "--batch", dir.path("missing.jsonl")]).status == 74)
    }

    @Test func checkOnlyBatchReportsChecks() async throws {
        let dir = try TemporaryDirectory()
        let checks = try dir.write("c.jsonl", #"{"stream":"pet-9","expectedVersion":"no-stream","check":true}"#)
        let out = await cli.run(["log", "append", "--batch", checks, "--json"])
        #expect(out.status == 0)
        #expect(out.stdout == #"{"firstPosition":null,"lastPosition":null,"streams":[]}"# + "\n")
    }

    @Test func missingStoreOnReadIs74() async {
        let out = await cli.run(["log", "read", "--all", "--json"])
        #expect(out.status == 74)
        #expect(out.stdout.hasPrefix(#"{"error":"store-not-found","message":"no store at ./pawtrail-data"#))
    }

    /// `--store ''` is a usage error naming the option (not "no store at  " for reads, nor "mkdir failed for : No
    /// such file or directory" for appends).
    @Test func anEmptyStorePathIsAUsageError() async {
        for arguments in [["log", "read", "--all"], ["log", "append", "--stream", "a", "--type", "T", "--data", "1"], ["log", "verify"]] {
            let out = await cli.run(["--store", ""] + arguments)
            #expect(out.status == 64)
            #expect(out.stderr.hasPrefix("Error: the value '' is invalid for '--store': expected the store directory's path\n"), "\(out.stderr)")
        }
    }

    @Test func tailPrintsTheLastTen() async {
        for n in 0..<12 { _ = await cli.run(["log", "append", "--stream", "s-\(n)", "--type", "T", "--data", "\(n)"]) }
        let out = await cli.run(["log", "tail", "--json"])
        #expect(out.lines.count == 10)
        #expect(out.lines.first?.hasPrefix(#"{"position":2,"#) == true)
        #expect(await cli.run(["log", "tail", "--from", "11"]).lines.count == 1)
    }

    @Test func demoPlaysTheDayOnceAndThenOnlyTellsIt() async throws {
        let first = await cli.run(["demo", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let summary = try object(first.lines[0])
        let types = try #require(summary["eventTypes"] as? [String: Int])
        #expect(types["ProductListed"] == 19, "the catalog is seeded exactly once although the script seeds twice")
        #expect(types["AccountSignedUp"] == 11)
        #expect(types["FavouritesMerged"] == 1)
        let refusals = try #require(summary["refusals"] as? [String: Int])
        #expect((refusals["stock-short"] ?? 0) >= 1, "six buyers want 8 of the last 5 carrier bags")
        #expect(refusals["invalid-command"] == nil, "the script itself sends only well-formed commands")
        // Which buyers win the race may vary; the stock arithmetic may not: 5 bags before the race, 20 restocked.
        let scarce = try #require(summary["scarceProduct"] as? [String: Any])
        let n = { (key: String) in scarce[key] as? Int ?? -1 }
        #expect(n("reservedByOrders") >= 4 && n("reservedByOrders") <= 5)
        #expect(n("onHand") == 25 - n("shipped") + n("returned"))
        #expect(n("returned") >= 1, "a carrier bag comes back, returned or refused at the door")
        #expect(n("reserved") == n("reservedByOrders") - n("releasedByCancellations") - n("shipped"))
        #expect(n("available") == n("onHand") - n("reserved") && n("available") >= 0)
        let count = try await cli.opener.store.lastPosition()
        let second = await cli.run(["demo"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.lines.first == "This store holds the demo's day already; what happened:")
        #expect(try await cli.opener.store.lastPosition() == count)
    }

    @Test func demoRefusesAStoreThatHoldsSomethingElse() async throws {
        _ = await cli.run(["log", "append", "--stream", "x", "--type", "T", "--data", "1"])
        let out = await cli.run(["demo"])
        #expect(out.status == 1)
        #expect(out.stderr.hasPrefix("Error: the demo plays its day on an empty store, and ./pawtrail-data holds 1 events"))
    }

    @Test func statsAndVerifyFormatting() {
        let stats = LogStats(
            segments: 3, compactedSegments: 2, events: 1200, streams: 40, firstPosition: 0, lastPosition: 1199,
            firstRecordedAt: Timestamp(microsecondsSinceEpoch: 0), lastRecordedAt: nil, rawBytes: 1000, diskBytes: 300,
            segmentBytes: 250, indexBytes: 50, dictionaries: 1)
        let json = LogStatsCommand.json(stats).serialized
        #expect(json.hasPrefix(#"{"segments":3,"compactedSegments":2,"events":1200,"streams":40,"firstPosition":0"#))
        #expect(json.contains(#""lastRecordedAt":null,"rawBytes":1000,"diskBytes":300"#))
        #expect(json.hasSuffix(#""dictionaries":1,"compressionRatio":3.33}"#))
        #expect(LogStatsCommand.lines(stats).contains("compression ratio:  3.33"))

        let ok = VerifyReport(segments: 3, events: 1200, indexEntries: 2400, problems: [])
        #expect(LogVerifyCommand.lines(ok) == ["OK: 3 segments, 1200 events, 2400 index entries checked."])
        let bad = VerifyReport(segments: 1, events: 5, indexEntries: 5, problems: [.init(file: "a.seg", offset: 12, message: "bad crc")])
        #expect(LogVerifyCommand.lines(bad) == ["Found 1 problem (1 segment, 5 events, 5 index entries checked):", "  a.seg at offset 12: bad crc"])
        #expect(LogVerifyCommand.json(bad).serialized
            == #"{"ok":false,"segments":1,"events":5,"indexEntries":5,"problems":[{"file":"a.seg","offset":12,"message":"bad crc"}]}"#)
    }
}

extension CommandTests {
    @Test func eventsListNeedsNoStore() async throws {
        let out = await cli.run(["events", "list", "--json"])
        #expect(out.status == 0)
        #expect(try object(out.lines[0])["type"] as? String == "AccountSignedUp")
        #expect(await cli.run(["events", "list"]).lines.first?.hasPrefix("TYPE") == true)
    }
}
