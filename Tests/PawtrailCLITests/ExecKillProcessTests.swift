import Foundation
import Testing

/// What `exec`'s output promises when the process is killed mid-run: every command answered is in the store, and at
/// most one group's worth of commands (those flushed together, whose answers had not gone out) is in the store
/// without an answer.
@Suite(.ownThreads) struct ExecKillProcessTests {
    @Test func `after a kill every answered command is stored, and at most one group more`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("s")
        let count = 6_000
        let script = (0..<count).map { i in
            #"{"command":"account.signup","as":"u-k\#(i)","name":"K \#(i)","email":"k\#(i)@x.test","language":"en-US"}"#
        }.joined(separator: "\n") + "\n"
        let scriptPath = try dir.write("script.jsonl", script)

        let process = Process()
        process.executableURL = PawtrailProcess.executable
        process.arguments = ["--store", store, "exec", scriptPath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var received: [UInt8] = []
        // Killed once a few hundred answers are out, while it is still running commands.
        while received.count(where: { $0 == UInt8(ascii: "\n") }) < 300 {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            received += data
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        received += output.fileHandleForReading.readDataToEndOfFile()
        #expect(process.terminationReason == .uncaughtSignal, "killed before the end of the script")

        let answers = received.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
        let answered = Set(answers.filter { $0["ok"] as? Bool == true }.compactMap { $0["line"] as? Int })
        #expect(answered.count >= 300)
        let stored = try PawtrailProcess.run(["--store", store, "log", "read", "--category", "account", "--json"])
        #expect(stored.status == 0, "\(stored.stderr)")
        let signedUp = Set(stored.lines.compactMap { line -> Int? in
            guard let e = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let s = e["stream"] as? String, s.hasPrefix("account-u-k") else { return nil }
            return Int(s.dropFirst("account-u-k".count)).map { $0 + 1 }
        })
        #expect(answered.isSubset(of: signedUp), "answered but not stored: \(answered.subtracting(signedUp).sorted().prefix(5))")
        let unanswered = signedUp.subtracting(answered)
        #expect(unanswered.count <= 256, "stored without an answer: \(unanswered.count)")
        #expect(signedUp == Set(1...(signedUp.max() ?? 0)), "commands ran in order: what is stored is a prefix of the script")
        #expect(try PawtrailProcess.run(["--store", store, "log", "verify"]).status == 0)
    }
}
