import Foundation
import Projections
import Testing

/// Whether this process may bind-mount a directory read-only (root with mount rights, as on CI's Debian machine).
let canMountReadOnly: Bool = {
    let probe = NSTemporaryDirectory() + "pawtrail-mount-probe-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: probe) }
    guard ReadOnlyMount.shell("mount", "--bind", "-o", "ro", probe, probe) == 0 else { return false }
    _ = ReadOnlyMount.shell("umount", probe)
    return true
}()

/// A directory bind-mounted read-only onto itself for the life of the value.
final class ReadOnlyMount {
    let path: String

    init(_ path: String) throws {
        self.path = path
        guard Self.shell("mount", "--bind", "-o", "ro", path, path) == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    private var mounted = true

    /// Unmounts it (again harmless).
    func unmount() {
        if mounted { _ = Self.shell("umount", path) }
        mounted = false
    }

    deinit { unmount() }

    /// Runs a command to its end with `posix_spawn` and `waitpid`: Foundation's `Process` here once left its child a
    /// zombie and waited for it forever.
    static func shell(_ arguments: String...) -> Int32 {
        (try? Spawn.run(
            "/usr/bin/env", arguments, environment: ProcessInfo.processInfo.environment, directory: "/", stdin: "/dev/null",
            stdout: "/dev/null", stderr: "/dev/null")) ?? -1
    }
}

/// A store on a read-only mount (a backup, a copy for an audit) can be read; only writing it fails (reading
/// does not fail on opening `writer.lock`).
@Suite(.ownThreads) struct ReadOnlyStoreProcessTests {
    @Test(.enabled(if: canMountReadOnly, "needs the right to bind-mount a directory read-only"))
    func readVerbsWorkOnAReadOnlyMountAndAppendsFailAsIOErrors() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        for n in 1...3 {
            let out = try PawtrailProcess.run(["--store", store, "log", "append", "--stream", "a-1", "--type", "T", "--data", "\(n)"])
            #expect(out.status == 0, "\(out.stderr)")
        }
        let mount = try ReadOnlyMount(dir.url.path)
        // Unmounted before the directory is removed.
        defer { mount.unmount(); withExtendedLifetime(dir) {} }
        let read = try PawtrailProcess.run(["--store", store, "log", "read", "--stream", "a-1", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.lines.count == 3)
        let stats = try PawtrailProcess.run(["--store", store, "log", "stats", "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(stats.stdout.contains(#""events":3"#))
        let verify = try PawtrailProcess.run(["--store", store, "log", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let append = try PawtrailProcess.run(["--store", store, "log", "append", "--stream", "a-1", "--type", "T", "--data", "4"])
        #expect(append.status == 74)
        #expect(append.stderr.hasPrefix("Error: ") && append.stderr.contains("Read-only file system"), "\(append.stderr)")
        // Compacting writes too: the lock file it cannot open is an I/O error (74), not a general failure (1).
        let compact = try PawtrailProcess.run(["--store", store, "log", "compact"])
        #expect(compact.status == 74, "\(compact.stderr)")
        #expect(compact.stderr.hasPrefix("Error: ") && compact.stderr.contains("compaction.lock"), "\(compact.stderr)")
    }
}

/// Reads never need to write: on a read-only mount every view, `projections status` and `projections audit` answer,
/// whether the read models were stored before (read as stored, caught up in memory) or never built (folded in
/// memory), with at most a note on stderr.
@Suite(.ownThreads) struct ReadOnlyViewsProcessTests {
    static let views: [[String]] = [
        ["inventory"], ["low-stock"], ["catalog"], ["cart", "--owner", "u-ann"], ["activity", "--user", "u-ann"],
        ["orders", "--customer", "u-ann"], ["order", "--id", "ORDER"], ["dashboard"], ["pet", "--id", "rex"], ["pets", "--owner", "u-ann"],
        ["conversations", "--user", "u-ann"], ["favourites", "--user", "u-ann"],
    ]

    @Test(.enabled(if: canMountReadOnly, "needs the right to bind-mount a directory read-only"), arguments: [false, true])
    func everyViewAndTheAuditAnswerOnAReadOnlyMount(built: Bool) throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        let demo = try PawtrailProcess.run(["--store", store, "demo"])
        #expect(demo.status == 0, "\(demo.stderr)")
        if built {
            let rebuild = try PawtrailProcess.run(["--store", store, "projections", "rebuild", "--all"])
            #expect(rebuild.status == 0, "\(rebuild.stderr)")
            // Events after the stored states: each view catches up in memory.
            let more = try PawtrailProcess.run(["--store", store, "cart", "add", "--as", "u-ann", "--product-id", "product_cat_001", "--quantity", "1"])
            #expect(more.status == 0, "\(more.stderr)")
        }
        // Which orders exist depends on who won the demo's checkout race: the first one placed is looked up.
        let log = try PawtrailProcess.run(["--store", store, "log", "read", "--all", "--type", "OrderPlaced", "--limit", "1", "--json"])
        let placed = try #require(log.lines.first { $0.contains(#""type":"OrderPlaced""#) })
        let order = try #require(placed.firstMatch(of: /"orderId":"([^"]+)"/)?.1)
        let mount = try ReadOnlyMount(dir.url.path)
        defer { mount.unmount(); withExtendedLifetime(dir) {} }
        for view in Self.views.map({ $0.map { $0 == "ORDER" ? String(order) : $0 } }) {
            for moment in [[], ["--at-position", "185"]] {
                let out = try PawtrailProcess.run(["--store", store, "view"] + view + moment + ["--json"])
                #expect(out.status == 0, "view \(view) \(moment): \(out.stderr)")
                #expect(out.stdout.hasPrefix("{\"view\":"), "view \(view) \(moment): \(out.stdout.prefix(200))")
                #expect(out.stderr.split(separator: "\n").count <= 1, "view \(view) \(moment): \(out.stderr)")
            }
        }
        let status = try PawtrailProcess.run(["--store", store, "projections", "status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        let audit = try PawtrailProcess.run(["--store", store, "projections", "audit"])
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        #expect(
            audit.lines.filter { !$0.hasPrefix("personal-index") }.count == ProjectionCatalog.projections.count && audit.lines.allSatisfy { $0.contains(": ok") },
            "\(audit.stdout)")
    }
}
