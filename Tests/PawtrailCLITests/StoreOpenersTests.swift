import EventLog
import Foundation
@testable import PawtrailCLI
import Testing

/// The tool picks the kind of store by its location: a URL's scheme names a server, anything else is a directory.
@Suite(.ownThreads) struct StoreOpenersTests {
    @Test func `a URL's scheme is read, a path has none`() {
        #expect(StoreOpeners.scheme(of: "postgresql://u:p@db/shop") == "postgresql")
        #expect(StoreOpeners.scheme(of: "POSTGRES://db") == "postgres")
        #expect(StoreOpeners.scheme(of: "./pawtrail-data") == nil)
        #expect(StoreOpeners.scheme(of: "/srv/shop") == nil)
        // A directory whose name holds "://" further on, or starts with a digit, stays a directory.
        #expect(StoreOpeners.scheme(of: "./a://b") == nil)
        #expect(StoreOpeners.scheme(of: "1x://b") == nil)
        #expect(StoreOpeners.scheme(of: "://b") == nil)
    }

    @Test func `a directory opens as a file store`() async throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        let out = try PawtrailProcess.run(["--store", store, "log", "append", "--stream", "pet-1", "--type", "Added", "--data", "{}"])
        #expect(out.status == 0)
        #expect(FileManager.default.fileExists(atPath: store + "/pawtrail.store"))
    }

    @Test func `a URL of an unknown kind is a usage error that shows no password`() throws {
        let out = try PawtrailProcess.run(["--store", "mysql://shop:s3cret@db/shop", "log", "stats"])
        #expect(out.status == 64)
        #expect(out.stderr.contains("'mysql://'"), "\(out.stderr)")
        #expect(!out.stderr.contains("s3cret"))
        #expect(!FileManager.default.fileExists(atPath: "mysql:"), "a URL was taken for a directory")
    }

    @Test func `a kind without an opener in this build says so`() async throws {
        let openers = StoreOpeners([
            .init(name: "file store", schemes: [], opener: nil),
            .init(name: "PostgreSQL store", schemes: ["postgresql"], opener: nil),
        ])
        let console = CapturingConsole()
        let status = await PawtrailCommand.run(
            arguments: ["log", "read", "--all"], environment: ["PAWTRAIL_STORE": "postgresql://shop:s3cret@localhost/shop"], console: console,
            storeOpener: openers)
        #expect(status == .usage)
        #expect(console.standardError.contains("PostgreSQL store"), "\(console.standardError)")
        #expect(!console.standardError.contains("s3cret"))
    }

    @Test func `openers of other kinds are asked for their own locations only`() async throws {
        let memory = TestStoreOpener()
        let openers = StoreOpeners([
            .init(name: "file store", schemes: [], opener: nil),
            .init(name: "memory store", schemes: ["memory"], opener: memory),
        ])
        let console = CapturingConsole()
        let status = await PawtrailCommand.run(
            arguments: ["--store", "memory://x", "log", "append", "--stream", "pet-1", "--type", "Added", "--data", "{}"],
            environment: [:], console: console, storeOpener: openers)
        #expect(status == .success, "\(console.standardError)")
        #expect(try await memory.store.lastPosition() == 0)
        let onDisk = await PawtrailCommand.run(arguments: ["--store", "./x", "log", "stats"], environment: [:], console: console, storeOpener: openers)
        #expect(onDisk == .usage)
    }
}
