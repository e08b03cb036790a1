import Foundation
import PostgresTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pawtrail store migrate`: a log copied between a directory and PostgreSQL, both ways, as it was recorded; checked,
/// refused onto a destination that is not a prefix, and resumed after a kill.
@Suite(.ownThreads) struct StoreMigrateProcessTests {
    /// A file store holding `batches` appends of 1,000 small events, over 50 streams.
    private func fileStore(_ dir: TemporaryDirectory, batches: Int) throws -> String {
        let store = dir.path("file")
        for b in 0..<batches {
            let lines = (0..<1000).map { i in #"{"stream":"note-\#((b * 1000 + i) % 50)","type":"Noted","data":{"n":\#(b * 1000 + i)},"metadata":{"actor":"u-\#(i % 7)"}}"# }
            let file = try dir.write("b\(b).jsonl", lines.joined(separator: "\n"))
            let out = try PawtrailProcess.run(["--store", store, "log", "append", "--batch", file])
            try #require(out.status == 0, "\(out.stderr)")
        }
        return store
    }

    private func all(_ store: String) throws -> String {
        let out = try PawtrailProcess.run(["--store", store, "log", "read", "--all", "--json"])
        try #require(out.status == 0, "\(out.stderr)")
        return out.stdout
    }

    @Test func `a file store's log moves into PostgreSQL as it was recorded, and the demo's views agree there`() throws {
        let dir = try TemporaryDirectory()
        let file = dir.path("demo")
        #expect(try PawtrailProcess.run(["--store", file, "demo"]).status == 0)
        let url = try PostgresTestServer.freshDatabase()
        let migrated = try PawtrailProcess.run(["store", "migrate", "--from", file, "--to", url, "--batch", "37", "--json"])
        #expect(migrated.status == 0, "\(migrated.stdout)\(migrated.stderr)")
        #expect(migrated.stdout.contains(#""verified":true"#))
        // Every event the same, byte for byte as JSON: positions, versions, ids, times, metadata and data.
        #expect(try all(url) == all(file))
        let view = { (store: String) in try PawtrailProcess.run(["--store", store, "view", "dashboard", "--json"]).stdout }
        #expect(try view(url) == view(file))
        // Run again: nothing to copy, everything checked again.
        let again = try PawtrailProcess.run(["store", "migrate", "--from", file, "--to", url])
        #expect(again.status == 0 && again.stdout.hasPrefix("Copied 0 events"), "\(again.stdout)\(again.stderr)")
    }

    @Test func `a destination that is not a prefix of the source is refused before anything is written`() throws {
        let dir = try TemporaryDirectory()
        let file = try fileStore(dir, batches: 1)
        let url = try PostgresTestServer.freshDatabase()
        #expect(try PawtrailProcess.run(["--store", url, "log", "append", "--stream", "other-1", "--type", "Noted", "--data", "{}"]).status == 0)
        let refused = try PawtrailProcess.run(["store", "migrate", "--from", file, "--to", url])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("not the source's first ones"), "\(refused.stderr)")
        #expect(try all(url).split(separator: "\n").count == 1)
    }

    /// Starts `store migrate --from --to --batch`, kills it (SIGKILL) once the destination holds some events and not
    /// all of `total` (bounded by tries, not by time), and returns how many it saw there.
    private func migrateKilledMidway(from: String, to: String, batch: Int, total: Int) throws -> Int {
        let p = Process()
        p.executableURL = PawtrailProcess.executable
        p.arguments = ["store", "migrate", "--from", from, "--to", to, "--batch", String(batch)]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var seen = 0
        for _ in 0..<2000 where p.isRunning {
            let stats = try PawtrailProcess.run(["--store", to, "log", "stats", "--json"])
            if let range = stats.stdout.range(of: #""events":"#) {
                seen = Int(stats.stdout[range.upperBound...].prefix { $0.isNumber }) ?? 0
            }
            if seen > 0 && seen < total { break }
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        return seen
    }

    @Test func `a migration killed midway resumes where it stopped when run again`() throws {
        let dir = try TemporaryDirectory()
        let file = try fileStore(dir, batches: 12)
        let url = try PostgresTestServer.freshDatabase()
        #expect(try PawtrailProcess.run(["store", "init", url]).status == 0)
        let seen = try migrateKilledMidway(from: file, to: url, batch: 50, total: 12_000)
        let resumed = try PawtrailProcess.run(["store", "migrate", "--from", file, "--to", url])
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(try all(url) == all(file))
        if seen > 0 && seen < 12_000 {
            #expect(!resumed.stdout.hasPrefix("Copied 12000 events"), "the second run copied everything again: \(resumed.stdout)")
        } else {
            Issue.record("the migration was never caught midway (\(seen) events seen)")
        }
    }

    @Test func `a round trip from a directory through PostgreSQL into a new directory gives back every event, byte for byte`() throws {
        let dir = try TemporaryDirectory()
        let file = dir.path("demo")
        #expect(try PawtrailProcess.run(["--store", file, "demo"]).status == 0)
        let url = try PostgresTestServer.freshDatabase()
        #expect(try PawtrailProcess.run(["store", "migrate", "--from", file, "--to", url]).status == 0)
        let back = dir.path("back")
        let migrated = try PawtrailProcess.run(["store", "migrate", "--from", url, "--to", back, "--batch", "41", "--json"])
        #expect(migrated.status == 0, "\(migrated.stdout)\(migrated.stderr)")
        #expect(migrated.stdout.contains(#""verified":true"#))
        #expect(try all(back) == all(file))
        // The copy is a store of its own: it verifies, its views and time travel agree, and it takes new commands.
        #expect(try PawtrailProcess.run(["--store", back, "log", "verify"]).status == 0)
        for args in [["view", "dashboard", "--json"], ["view", "inventory", "--json", "--at-position", "100"]] {
            let copy = try PawtrailProcess.run(["--store", back] + args)
            #expect(copy.status == 0 && !copy.stdout.isEmpty, "\(args): \(copy.stderr)")
            #expect(try copy.stdout == PawtrailProcess.run(["--store", file] + args).stdout, "\(args)")
        }
        let appended = try PawtrailProcess.run(["--store", back, "log", "append", "--stream", "note-1", "--type", "Noted", "--data", "{}"])
        #expect(appended.status == 0, "\(appended.stderr)")
    }

    @Test func `a migration out of PostgreSQL killed midway resumes where it stopped when run again`() throws {
        let dir = try TemporaryDirectory()
        let file = try fileStore(dir, batches: 12)
        let url = try PostgresTestServer.freshDatabase()
        #expect(try PawtrailProcess.run(["store", "migrate", "--from", file, "--to", url]).status == 0)
        let back = dir.path("back")
        let seen = try migrateKilledMidway(from: url, to: back, batch: 20, total: 12_000)
        let resumed = try PawtrailProcess.run(["store", "migrate", "--from", url, "--to", back])
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(try all(back) == all(file))
        #expect(try PawtrailProcess.run(["--store", back, "log", "verify"]).status == 0)
        if seen > 0 && seen < 12_000 {
            #expect(!resumed.stdout.hasPrefix("Copied 12000 events"), "the second run copied everything again: \(resumed.stdout)")
        } else {
            Issue.record("the migration was never caught midway (\(seen) events seen)")
        }
    }
}
