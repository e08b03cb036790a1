import Foundation
import Synchronization
import Testing

/// A domain command creates the store only by appending to it: one that fails, and an `exec` of nothing, leave no
/// store behind at the path given (not even an empty one, a typo in `--store` included).
@Suite(.ownThreads) struct DomainStoreCreationProcessTests {
    @Test func `failed commands leave no store, the first that appends creates it`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        let unknownUser = try PawtrailProcess.run(["--store", store, "pet", "add", "--as", "nobody", "--name", "Rex", "--species", "dog"])
        #expect(unknownUser.status == 1)
        #expect(unknownUser.stderr == "Error: user 'nobody' has no account\n")
        let badInput = try PawtrailProcess.run(["--store", store, "account", "signup", "--as", "u-ann", "--name", "Ann", "--email", "nope"])
        #expect(badInput.status == 65)
        let nothing = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: "\n")
        #expect(nothing.status == 0 && nothing.stdout.isEmpty)
        let failing = try PawtrailProcess.run(
            ["--store", store, "exec", "-"], stdin: #"{"command":"pet.add","as":"nobody","name":"Rex","species":"dog"}"# + "\n")
        #expect(failing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: store), "no command appended, so no store")

        let signup = try PawtrailProcess.run(["--store", store, "account", "signup", "--as", "u-ann", "--name", "Ann", "--email", "ann@example.com"])
        #expect(signup.status == 0)
        let pet = try PawtrailProcess.run(["--store", store, "pet", "add", "--as", "u-ann", "--name", "Rex", "--species", "dog", "--json"])
        #expect(pet.status == 0)
        let stats = try PawtrailProcess.run(["--store", store, "log", "stats", "--json"])
        #expect(stats.status == 0 && stats.stdout.contains(#""events":4"#), "\(stats.stdout)")
    }

    /// A domain command opens an existing store for reading and creates a missing one on its first append, and a
    /// directory holding only what a store's creation makes (another process creating the store at that moment, a
    /// creation cut short, a mount point's `lost+found`) is not refused as "not a Pawtrail store" (74): the first
    /// command creates the store there, as `log append` does.
    @Test func `a directory a store's creation left, or is making, is created by the first command, not refused`() throws {
        let dir = try TemporaryDirectory()
        for (name, entries) in [("cut-short", ["segments", "dictionaries"]), ("mount", ["lost+found"])] {
            let store = dir.path(name)
            for entry in entries { try FileManager.default.createDirectory(atPath: store + "/" + entry, withIntermediateDirectories: true) }
            let signup = try PawtrailProcess.run(["--store", store, "account", "signup", "--as", "u-ann", "--name", "Ann", "--email", "ann@example.com"])
            #expect(signup.status == 0, "\(name): \(signup.stderr)")
            #expect(FileManager.default.fileExists(atPath: store + "/pawtrail.store"), "\(name)")
        }
        // Four first commands at once on a new store: each one that opened the directory while another was creating
        // the store failed.
        for round in 0..<5 {
            let store = dir.path("race-\(round)")
            let outcomes = Mutex<[CommandOutcome?]>(Array(repeating: nil, count: 4))
            DispatchQueue.concurrentPerform(iterations: 4) { k in
                let run = try? PawtrailProcess.run(["--store", store, "account", "signup", "--as", "u-\(k)", "--name", "N", "--email", "n\(k)@example.com"])
                outcomes.withLock { $0[k] = run }
            }
            for run in outcomes.withLock({ $0 }) {
                #expect(run?.status == 0, "\(run?.stderr ?? "did not run")")
            }
        }
    }
}
