import Foundation
import Synchronization
import Testing

/// A PostgreSQL 15 server for the tests: the one `$PAWTRAIL_POSTGRES_URL` names, else a throw-away server started
/// from Debian's binaries in a directory of its own (a Unix socket only, fsync off: these tests are about semantics,
/// not durability), once per test process and stopped when the process exits. As root, the server runs as the
/// `postgres` user (initdb refuses root).
public enum PostgresTestServer {
    /// The server's URL, or why there is none.
    public static let url: Result<String, ServerUnavailable> = start()

    /// Why no server could be had.
    public struct ServerUnavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The server's URL; cancels the calling test when there is none, or fails it when
    /// `PAWTRAIL_REQUIRE_POSTGRES=1` (CI) says one must be there.
    public static func require(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        switch url {
        case .success(let u): return u
        case .failure(let why):
            if ProcessInfo.processInfo.environment["PAWTRAIL_REQUIRE_POSTGRES"] == "1" {
                Issue.record("PostgreSQL is required (PAWTRAIL_REQUIRE_POSTGRES=1): \(why)", sourceLocation: sourceLocation)
                throw why
            }
            try Test.cancel("skipped: no PostgreSQL 15 (\(why)); tools/setup.sh installs it", sourceLocation: sourceLocation)
        }
    }

    static let port = 55433
    static let bin = "/usr/lib/postgresql/15/bin"
    static let directory = "/tmp/pawtrail-pg-test-\(geteuid())-\(getpid())"

    /// A new, empty database on the server, for a test of its own; the URL that names it.
    ///
    /// - Parameter sourceLocation: Where the test asked.
    /// - Returns: The database's URL.
    /// - Throws: As ``require(sourceLocation:)``; an error when the database cannot be created.
    public static func freshDatabase(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let server = try require(sourceLocation: sourceLocation)
        let name = "pt_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let (status, output) = spawn(["/usr/bin/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", server, "-c", "CREATE DATABASE \(name)"], output: nil)
        guard status == 0 else { throw ServerUnavailable(description: "CREATE DATABASE failed: \(output)") }
        return database(name, in: server)
    }

    /// Runs SQL on a database through psql (to set up or damage what a test needs).
    ///
    /// - Parameters:
    ///   - statements: The SQL.
    ///   - url: The database.
    /// - Throws: An error with psql's output when it fails.
    public static func psql(_ statements: String, on url: String) throws {
        let (status, output) = spawn(["/usr/bin/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", statements], output: nil)
        guard status == 0 else { throw ServerUnavailable(description: "psql failed: \(output)") }
    }

    /// A server URL with another database in its path.
    package static func database(_ name: String, in url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        let query = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        return String(url[..<pathStart]) + "/" + name + String(rest[query...])
    }

    /// Runs a program to its end: posix_spawn and waitpid, not Foundation's Process, which learns of the end of its
    /// child when a socket the child inherits closes (and the server that `pg_ctl start` leaves running inherits it).
    static func spawn(_ argv: [String], output: String?) -> (Int32, String) {
        let outPath = output ?? (NSTemporaryDirectory() + "/pawtrail-pg-\(UUID().uuidString)")
        defer { if output == nil { try? FileManager.default.removeItem(atPath: outPath) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        guard spawned == 0 else { return (-1, "posix_spawn \(argv[0]) failed: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exited, (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "")
    }

    private static func start() -> Result<String, ServerUnavailable> {
        if let given = ProcessInfo.processInfo.environment["PAWTRAIL_POSTGRES_URL"], !given.isEmpty { return .success(given) }
        guard FileManager.default.isExecutableFile(atPath: bin + "/initdb") else {
            return .failure(ServerUnavailable(description: "\(bin)/initdb not found: apt-get install postgresql-15"))
        }
        let dir = directory
        let url = "postgresql://postgres@/postgres?host=\(dir)/sock&port=\(port)"
        let asRoot = geteuid() == 0
        func run(_ argv: [String]) -> (Int32, String) {
            spawn(asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + argv : argv, output: dir + "/command-output")
        }
        try? FileManager.default.removeItem(atPath: dir)
        do {
            try FileManager.default.createDirectory(atPath: dir + "/sock", withIntermediateDirectories: true)
        } catch {
            return .failure(ServerUnavailable(description: "cannot create \(dir): \(error)"))
        }
        if asRoot, let pw = getpwnam("postgres") {
            _ = chown(dir, pw.pointee.pw_uid, pw.pointee.pw_gid)
            _ = chown(dir + "/sock", pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
        let (initStatus, initOut) = run([bin + "/initdb", "-D", dir + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
        guard initStatus == 0 else { return .failure(ServerUnavailable(description: "initdb failed: \(initOut.suffix(300))")) }
        let options = "-p \(port) -k \(dir)/sock -c listen_addresses='' -c fsync=off -c full_page_writes=off -c max_connections=500"
        let (startStatus, startOut) = run([bin + "/pg_ctl", "-D", dir + "/data", "-l", dir + "/log", "-w", "-o", options, "start"])
        guard startStatus == 0 else { return .failure(ServerUnavailable(description: "pg_ctl start failed: \(startOut.suffix(300))")) }
        stopAtExit.withLock { $0 = (bin, dir, asRoot) }
        atexit {
            guard let (bin, dir, asRoot) = PostgresTestServer.stopAtExit.withLock({ $0 }) else { return }
            for data in ["standby-data", "data"] where FileManager.default.fileExists(atPath: "\(dir)/\(data)") {
                let stop = "\(bin)/pg_ctl -D '\(dir)/\(data)' -m immediate -w stop >/dev/null 2>&1"
                _ = system(asRoot ? "/usr/sbin/runuser -u postgres -- \(stop)" : stop)
            }
            try? FileManager.default.removeItem(atPath: dir)
        }
        return .success(url)
    }

    private static let stopAtExit = Mutex<(String, String, Bool)?>(nil)
}
