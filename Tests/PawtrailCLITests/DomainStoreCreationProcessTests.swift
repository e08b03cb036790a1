import Foundation
import Testing

/// A domain command creates the store only by appending to it: one that fails, and an `exec` of nothing, leave no
/// store behind at the path given (before, they created an empty one, a typo in `--store` included: found in review).
@Suite struct DomainStoreCreationProcessTests {
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
        #expect(stats.status == 0 && stats.stdout.contains(#""events":3"#), "\(stats.stdout)")
    }
}
