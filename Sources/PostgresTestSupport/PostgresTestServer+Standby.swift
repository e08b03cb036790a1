import Foundation
import Testing

extension PostgresTestServer {
    /// A hot standby of the test server (`pg_basebackup -R`, streaming replication, on the next port), started once
    /// per test process at first use; the URL of its `postgres` database, or why there is none.
    public static let standbyURL: Result<String, ServerUnavailable> = startStandby()

    /// The standby's URL for the database a primary URL names; cancels the calling test when there is no standby
    /// (a server given by `$PAWTRAIL_POSTGRES_URL` has none), or fails it under `PAWTRAIL_REQUIRE_POSTGRES=1`.
    ///
    /// - Parameters:
    ///   - primary: A database on the test server (``freshDatabase(sourceLocation:)``).
    ///   - sourceLocation: Where the test asked.
    /// - Returns: The same database on the standby.
    public static func standby(of primary: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        _ = try require(sourceLocation: sourceLocation)
        switch standbyURL {
        case .success(let standby):
            let name = primary.split(separator: "?")[0].split(separator: "/").last.map(String.init) ?? "postgres"
            return database(name, in: standby)
        case .failure(let why):
            if ProcessInfo.processInfo.environment["PAWTRAIL_REQUIRE_POSTGRES"] == "1", ProcessInfo.processInfo.environment["PAWTRAIL_POSTGRES_URL"] == nil {
                Issue.record("a standby is required (PAWTRAIL_REQUIRE_POSTGRES=1): \(why)", sourceLocation: sourceLocation)
                throw why
            }
            try Test.cancel("skipped: no standby (\(why))", sourceLocation: sourceLocation)
        }
    }

    /// Waits until the standby has replayed everything the primary had committed when called.
    ///
    /// - Parameter primary: A database on the test server.
    /// - Throws: When the standby does not catch up within 30 s.
    public static func waitForStandby(of primary: String) throws {
        let (status, output) = spawn(["/usr/bin/psql", "-X", "-At", primary, "-c", "SELECT pg_current_wal_lsn()"], output: nil)
        guard status == 0 else { throw ServerUnavailable(description: "psql failed: \(output)") }
        let lsn = output.trimmingCharacters(in: .whitespacesAndNewlines)
        let standby = try standby(of: primary)
        for _ in 0..<300 {
            let (s, o) = spawn(["/usr/bin/psql", "-X", "-At", standby, "-c", "SELECT pg_last_wal_replay_lsn() >= '\(lsn)'::pg_lsn"], output: nil)
            if s == 0 && o.hasPrefix("t") { return }
            usleep(100_000)
        }
        throw ServerUnavailable(description: "the standby did not replay \(lsn) within 30 s")
    }

    private static func startStandby() -> Result<String, ServerUnavailable> {
        guard case .success(let primary) = url else { return .failure(ServerUnavailable(description: "no primary")) }
        guard ProcessInfo.processInfo.environment["PAWTRAIL_POSTGRES_URL"] == nil else {
            return .failure(ServerUnavailable(description: "the server of $PAWTRAIL_POSTGRES_URL has no standby here"))
        }
        let dir = directory
        let asRoot = geteuid() == 0
        func run(_ argv: [String]) -> (Int32, String) {
            spawn(asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + argv : argv, output: dir + "/standby-output")
        }
        let (copied, copyOut) = run([bin + "/pg_basebackup", "-d", primary, "-D", dir + "/standby-data", "-R", "-X", "stream", "-c", "fast"])
        guard copied == 0 else { return .failure(ServerUnavailable(description: "pg_basebackup failed: \(copyOut.suffix(300))")) }
        let standbyPort = port + 1
        let options = "-p \(standbyPort) -k \(dir)/sock -c listen_addresses='' -c hot_standby_feedback=on -c max_connections=500"
        let (started, startOut) = run([bin + "/pg_ctl", "-D", dir + "/standby-data", "-l", dir + "/standby-log", "-w", "-o", options, "start"])
        guard started == 0 else { return .failure(ServerUnavailable(description: "the standby did not start: \(startOut.suffix(300))")) }
        return .success("postgresql://postgres@/postgres?host=\(dir)/sock&port=\(standbyPort)")
    }
}
