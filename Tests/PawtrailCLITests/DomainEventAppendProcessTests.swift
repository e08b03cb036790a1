import Foundation
import Testing

/// An event of the domain's catalog appended by hand (`log append`, a batch line) is stored as its commands store
/// it, so the read models fold it; data that does not fit the event is refused and nothing is appended.
@Suite(.ownThreads) struct DomainEventAppendProcessTests {
    @Test func aDomainEventGivenAsJSONIsFoldedAndOneThatDoesNotFitIsRefused() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        #expect(try PawtrailProcess.run(["--store", store, "demo"]).status == 0)
        let read = try PawtrailProcess.run(["--store", store, "log", "read", "--all", "--type", "OrderPlaced", "--limit", "1", "--json"])
        let line = try #require(read.lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        var data = try #require(object["data"] as? [String: Any])
        data["orderId"] = "o-by-hand"
        let json = String(decoding: try JSONSerialization.data(withJSONObject: data), as: UTF8.self)
        let append = try PawtrailProcess.run(
            ["--store", store, "log", "append", "--stream", "order-o-by-hand", "--type", "OrderPlaced", "--data", json, "--expected-version", "no-stream"])
        #expect(append.status == 0, "\(append.stderr)")
        let view = try PawtrailProcess.run(["--store", store, "view", "order", "--id", "o-by-hand", "--json"])
        #expect(view.status == 0 && view.stdout.contains(#""orderId":"o-by-hand""#), "\(view.stdout)\(view.stderr)")
        let audit = try PawtrailProcess.run(["--store", store, "projections", "audit"])
        #expect(audit.status == 0, "\(audit.stdout)")

        let before = try PawtrailProcess.run(["--store", store, "log", "stats", "--json"]).stdout
        let bad = try PawtrailProcess.run(
            ["--store", store, "log", "append", "--stream", "order-42", "--type", "OrderPlaced", "--data", #"{"total":{"amount":1299,"currency":"USD"}}"#])
        #expect(bad.status == 65 && bad.stderr.contains("OrderPlaced") && bad.stderr.contains("orderId"), "\(bad.stderr)")
        let batch = try PawtrailProcess.run(
            ["--store", store, "log", "append", "--batch", "-"], stdin: #"{"stream":"inventory-x","type":"StockReceived","data":{"productId":"x","quantity":"many"}}"#)
        #expect(batch.status == 65 && batch.stderr.contains("line 1") && batch.stderr.contains("quantity"), "\(batch.stderr)")
        #expect(try PawtrailProcess.run(["--store", store, "log", "stats", "--json"]).stdout == before, "something was appended")
        // A type outside the catalog keeps its JSON as given.
        let raw = try PawtrailProcess.run(["--store", store, "log", "append", "--stream", "note-1", "--type", "NoteTaken", "--data", #"{"text":"hi"}"#])
        #expect(raw.status == 0, "\(raw.stderr)")
        let back = try PawtrailProcess.run(["--store", store, "log", "read", "--stream", "note-1", "--json"])
        #expect(back.stdout.contains(#""data":{"text":"hi"}"#), "\(back.stdout)")
    }
}
