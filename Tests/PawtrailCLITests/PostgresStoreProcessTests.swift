import EventLog
import Foundation
import PostgresTestSupport
import Testing

/// The `pawtrail` binary on a PostgreSQL store, named by a URL in `--store` or `$PAWTRAIL_STORE`: each test on a
/// database of its own on the test server.
@Suite(.ownThreads) struct PostgresStoreProcessTests {
    private func run(_ url: String, _ arguments: String...) throws -> CommandOutcome {
        try PawtrailProcess.run(["--store", url] + arguments)
    }

    @Test func `appends and reads go to the server, and a store that does not exist yet is reported as missing`() throws {
        let url = try PostgresTestServer.freshDatabase()
        let missing = try run(url, "log", "read", "--all", "--json")
        #expect(missing.status == 74, "\(missing.stderr)")
        #expect(missing.stdout.hasPrefix(#"{"error":"store-not-found""#), "\(missing.stdout)")

        let appended = try run(url, "log", "append", "--stream", "note-1", "--type", "Noted", "--data", #"{"text":"Rex"}"#, "--json")
        #expect(appended.status == 0, "\(appended.stderr)")
        let scratch = try TemporaryDirectory()
        let batch = try scratch.write(
            "b.jsonl",
            #"{"stream":"note-1","type":"Noted","data":{"grams":5200},"expectedVersion":0}"# + "\n"
                + #"{"stream":"note-2","type":"Noted","data":{},"expectedVersion":"no-stream"}"#)
        #expect(try run(url, "log", "append", "--batch", batch).status == 0)
        let read = try run(url, "log", "read", "--all", "--json")
        #expect(read.lines.count == 3)
        let positions = read.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.map { $0["position"] as? Int }
        #expect(positions == [0, 1, 2])
        // A stale expectation is a conflict (75), from another process as from this one.
        let stale = try run(url, "log", "append", "--stream", "note-1", "--type", "Noted", "--data", "{}", "--expected-version", "0")
        #expect(stale.status == 75, "\(stale.stderr)")
        // Reading one stream, from the environment this time.
        let stream = try PawtrailProcess.run(["log", "read", "--stream", "note-1", "--json"], environment: ["PAWTRAIL_STORE": url])
        #expect(stream.lines.count == 2)
    }

    @Test func `the demo's day runs on PostgreSQL, and its views answer`() throws {
        let url = try PostgresTestServer.freshDatabase()
        let demo = try run(url, "demo")
        #expect(demo.status == 0, "\(demo.stderr)")
        let again = try run(url, "demo")
        #expect(again.stdout.hasPrefix("This store holds the demo's day already"), "\(again.stdout)")
        let inventory = try run(url, "view", "inventory", "--json")
        #expect(inventory.status == 0, "\(inventory.stderr)")
        #expect(inventory.stdout.contains(#""productId":"product_cat_001""#), "\(inventory.stdout.prefix(300))")
        // How many events the day made (the race's outcome varies between runs).
        let all = try run(url, "log", "read", "--all", "--json")
        let n = all.lines.count
        try #require(n > 150, "\(all.stderr)")
        // The read models' states live in the database: a rebuild is stored, and an audit compares it with a fresh one.
        let rebuilt = try run(url, "projections", "rebuild", "--all")
        #expect(rebuilt.status == 0, "\(rebuilt.stdout)\(rebuilt.stderr)")
        let audit = try run(url, "projections", "audit")
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        let status = try run(url, "projections", "status", "--json")
        #expect(status.status == 0 && status.stdout.contains(#""position":\#(n - 1),"#), "\(status.stdout)\(status.stderr)")
        let atHalf = try run(url, "view", "inventory", "--at-position", "100", "--json")
        #expect(atHalf.status == 0 && atHalf.stdout.contains(#""position":100"#), "\(atHalf.stdout.prefix(200))\(atHalf.stderr)")
        let stats = try run(url, "log", "stats", "--json")
        #expect(stats.status == 0 && stats.stdout.contains(#""events":\#(n),"#), "\(stats.stdout)\(stats.stderr)")
        let verified = try run(url, "log", "verify")
        #expect(verified.status == 0 && verified.stdout.hasPrefix("OK: \(n) events"), "\(verified.stdout)\(verified.stderr)")
        // A row taken out behind the store's back: verify names the hole and the stream, and exits 1.
        // The first of the roles' three events: a hole in the positions and in the stream's versions.
        try PostgresTestServer.psql("DELETE FROM pawtrail.events WHERE stream_id = 'roles' AND version = 0", on: url)
        let damaged = try run(url, "log", "verify")
        #expect(damaged.status == 1, "\(damaged.stdout)")
        #expect(damaged.stdout.contains("the head says \(n) events, the events table holds \(n - 1)"), "\(damaged.stdout)")
        #expect(damaged.stdout.contains("at versions"), "\(damaged.stdout)")
    }

    @Test func `a server that cannot be reached is an I/O error that never shows the password`() throws {
        let url = "postgresql://shop:s3cret@127.0.0.1:1/shop"
        let out = try PawtrailProcess.run(["--store", url, "log", "read", "--all", "--json"])
        #expect(out.status == 74, "\(out.stderr)")
        #expect(out.stderr.hasPrefix("Error: cannot connect to PostgreSQL"), "\(out.stderr)")
        #expect(!out.stderr.contains("s3cret") && !out.stdout.contains("s3cret"))
        #expect(out.stdout.hasPrefix(#"{"error":"unavailable""#), "\(out.stdout)")
    }

    @Test func `store init creates the tables once, and store upgrade finds them at this build's layout`() throws {
        let url = try PostgresTestServer.freshDatabase()
        let first = try PawtrailProcess.run(["store", "init", url])
        #expect(first.status == 0 && first.stdout.hasPrefix("Created an empty store at"), "\(first.stdout)\(first.stderr)")
        let second = try PawtrailProcess.run(["store", "init", url, "--json"])
        #expect(second.stdout == #"{"store":"\#(url)","created":false}"# + "\n", "\(second.stdout)")
        let upgrade = try PawtrailProcess.run(["store", "upgrade", "--store", url])
        #expect(upgrade.status == 0 && upgrade.stdout.contains("schema version 6, this build's"), "\(upgrade.stdout)\(upgrade.stderr)")
        // An empty store reads as empty, not as missing.
        let read = try run(url, "log", "read", "--all", "--json")
        #expect(read.status == 0 && read.stdout.isEmpty, "\(read.stdout)\(read.stderr)")
    }

    @Test func `a deleted account's personal data reads as erased on the server too, and its key row holds no key`() throws {
        let url = try PostgresTestServer.freshDatabase()
        #expect(try run(url, "account", "signup", "--as", "u-ann", "--name", "Annapurna Quokkaby", "--email", "ann@quokka.example").status == 0)
        #expect(try run(url, "account", "update-profile", "--as", "u-ann", "--address", "17 Wombat Row").status == 0)
        let before = try run(url, "log", "read", "--stream", "account-u-ann", "--json")
        #expect(before.stdout.contains("Annapurna Quokkaby") && before.stdout.contains("17 Wombat Row"), "\(before.stdout)")
        let deleted = try run(url, "account", "delete", "--as", "u-ann", "--reauthenticated-at", Timestamp.now().iso8601)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let after = try run(url, "log", "read", "--stream", "account-u-ann", "--json")
        #expect(after.status == 0 && !after.stdout.contains("Quokkaby") && !after.stdout.contains("Wombat"), "\(after.stdout)")
        #expect(after.stdout.contains(#""name":"[erased]""#), "\(after.stdout)")
        let view = try run(url, "view", "customer", "--id", "u-ann", "--json")
        #expect(view.status == 0 && view.stdout.contains("[erased]") && !view.stdout.contains("Quokkaby"), "\(view.stdout)")
    }

    @Test func `store init on a directory creates a file store`() throws {
        let dir = try TemporaryDirectory()
        let out = try PawtrailProcess.run(["store", "init", dir.path("s")])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path("s") + "/pawtrail.store"))
    }
}
