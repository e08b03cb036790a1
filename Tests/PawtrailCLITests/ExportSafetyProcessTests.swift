import Foundation
import Testing

/// `projections export` never destroys what it did not make: an existing file only with `--replace`, and never a
/// directory, a device node, a FIFO or a symbolic link.
@Suite(.ownThreads) struct ExportSafetyProcessTests {
    static func fileType(_ path: String) -> mode_t? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return st.st_mode & S_IFMT
    }

    @Test func anExistingFileIsReplacedOnlyWithReplaceAndOtherKindsOfFileNever() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        #expect(try PawtrailProcess.run(["--store", store, "demo"]).status == 0)
        let db = dir.path("models.sqlite")
        let first = try PawtrailProcess.run(["--store", store, "projections", "export", "--sqlite", db])
        #expect(first.status == 0, "\(first.stderr)")
        // Something else at the path: an operator's file the export must not eat.
        try Data("precious".utf8).write(to: URL(fileURLWithPath: db))
        let again = try PawtrailProcess.run(["--store", store, "projections", "export", "--sqlite", db])
        #expect(again.status == 1 && again.stderr.hasPrefix("Error: ") && again.stderr.contains("--replace"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == Data("precious".utf8))
        let replaced = try PawtrailProcess.run(["--store", store, "projections", "export", "--sqlite", db, "--replace"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)).starts(with: Data("SQLite format 3".utf8)))

        var targets: [(String, mode_t)] = []
        let fifo = dir.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        targets.append((fifo, S_IFIFO))
        let folder = dir.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        targets.append((folder, S_IFDIR))
        let link = dir.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: db)
        targets.append((link, S_IFLNK))
        // A character device like /dev/null (1, 3); only root may make one.
        let device = dir.path("device")
        if mknod(device, S_IFCHR | 0o644, makedev(1, 3)) == 0 { targets.append((device, S_IFCHR)) }
        for (path, kind) in targets {
            for replace in [[], ["--replace"]] {
                let out = try PawtrailProcess.run(["--store", store, "projections", "export", "--sqlite", path] + replace)
                #expect(out.status == 1 && out.stderr.contains("never replaced"), "\(path) \(replace): \(out.status) \(out.stderr)")
                #expect(Self.fileType(path) == kind, "\(path) was replaced")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).allSatisfy { !$0.contains(".tmp") }, "a temporary file was left")
    }
}

private func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
    dev_t((major & 0xfff) << 8 | (minor & 0xff) | ((minor & ~0xff) << 12))
}
