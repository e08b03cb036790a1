import Foundation
import Testing

/// Processes that create one new store at once (the first appends of several scripts) all succeed and all their
/// events are in it: creation takes turns on a lock of the store's directory. Before it, a process could find the
/// segments another had just begun without their manifest and exit 74 calling the store damaged (2 rounds in 60 of
/// four appends here; once in `MultiProcessTests` on a loaded machine).
@Suite(.ownThreads) struct StoreCreationProcessTests {
    @Test func `appends that create one store at once all succeed`() throws {
        let dir = try TemporaryDirectory()
        let rounds = 40
        let writers = 8
        // Each round starts its writers as separate processes at once (a shell's `wait` does not return under the
        // test runner, which leaves SIGCHLD blocked for its children, so the processes are started from here).
        var failures: [String] = []
        for r in 0..<rounds {
            var processes: [(Process, Pipe)] = []
            for w in 0..<writers {
                let p = Process()
                p.executableURL = PawtrailProcess.executable
                p.arguments = ["--store", dir.path("s") + "-\(r)", "log", "append", "--stream", "w-\(w)", "--type", "Opened", "--data", "{}"]
                p.standardOutput = FileHandle.nullDevice
                let err = Pipe()
                p.standardError = err
                processes.append((p, err))
            }
            for (p, _) in processes { try p.run() }
            for (w, (p, err)) in processes.enumerated() {
                let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                p.waitUntilExit()
                if p.terminationStatus != 0 { failures.append("round \(r) writer \(w): exit \(p.terminationStatus) \(message)") }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        for r in [0, rounds - 1] {
            let read = try PawtrailProcess.run(["--store", dir.path("s") + "-\(r)", "log", "read", "--all", "--json"])
            #expect(read.lines.count == writers)
        }
    }
}
