import Foundation
import PostgresTestSupport
import Testing

/// Read verbs served from a replica (`--read-store`), with the read-your-writes wait, and read models kept in a
/// directory of their own (`--state-dir`), which notice a log that is not the one they were built from.
@Suite(.ownThreads) struct ReplicaReadProcessTests {
    @Test func `views and log reads come from the standby, and read-your-writes sees an append just made`() throws {
        let url = try PostgresTestServer.freshDatabase()
        #expect(try PawtrailProcess.run(["--store", url, "demo"]).status == 0)
        let standby = try PostgresTestServer.standby(of: url)
        let appended = try PawtrailProcess.run(["--store", url, "log", "append", "--stream", "note-9", "--type", "Noted", "--data", "{}", "--json"])
        #expect(appended.status == 0, "\(appended.stderr)")
        let read = try PawtrailProcess.run(
            ["--store", url, "--read-store", standby, "--read-your-writes", "log", "read", "--stream", "note-9", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.lines.count == 1, "\(read.stdout)")
        // A view served by the standby answers as the primary does, and says nothing about saving.
        try PostgresTestServer.waitForStandby(of: url)
        let onStandby = try PawtrailProcess.run(["--store", url, "--read-store", standby, "view", "dashboard", "--json"])
        #expect(onStandby.status == 0, "\(onStandby.stderr)")
        #expect(onStandby.stderr.isEmpty, "\(onStandby.stderr)")
        #expect(try onStandby.stdout == PawtrailProcess.run(["--store", url, "view", "dashboard", "--json"]).stdout)
        // Commands still go to the store: an append with a replica named lands on the primary.
        let command = try PawtrailProcess.run(
            ["--store", url, "--read-store", standby, "log", "append", "--stream", "note-9", "--type", "Noted", "--data", "{}"])
        #expect(command.status == 0, "\(command.stderr)")
    }

    @Test func `read-your-writes without a replica is a usage error`() throws {
        let dir = try TemporaryDirectory()
        let out = try PawtrailProcess.run(["--store", dir.path("s"), "--read-your-writes", "log", "read", "--all"])
        #expect(out.status == 64, "\(out.stderr)")
        #expect(out.stderr.contains("--read-store"), "\(out.stderr)")
    }

    @Test func `read models kept in a directory of their own notice a log they were not built from, and rebuild`() throws {
        let dir = try TemporaryDirectory()
        let states = dir.path("states")
        let first = dir.path("first")
        #expect(try PawtrailProcess.run(["--store", first, "demo"]).status == 0)
        let built = try PawtrailProcess.run(["--store", first, "--state-dir", states, "view", "inventory", "--json"])
        #expect(built.status == 0, "\(built.stderr)")
        // Another log, as long or longer, with other events at the same positions (a promoted replica that lost
        // commits and took new ones looks the same to the read models).
        let other = dir.path("other")
        #expect(try PawtrailProcess.run(["--store", other, "demo"]).status == 0)
        let served = try PawtrailProcess.run(["--store", other, "--state-dir", states, "view", "inventory", "--json"])
        #expect(served.status == 0, "\(served.stderr)")
        #expect(served.stderr.contains("does not belong to this log"), "\(served.stderr)")
        #expect(try served.stdout == PawtrailProcess.run(["--store", other, "view", "inventory", "--json"]).stdout)
        // Rebuilt for this log, the states fit it now.
        let again = try PawtrailProcess.run(["--store", other, "--state-dir", states, "view", "inventory", "--json"])
        #expect(again.stderr.isEmpty, "\(again.stderr)")
    }
}
