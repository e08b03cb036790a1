import Foundation
import Testing

/// `exec` reads its input as a stream and answers each line once its command is durable: a client keeps one
/// `exec -` open on a pipe and talks to it line by line; a huge line costs it neither time nor memory to refuse.
@Suite(.ownThreads) struct ExecStreamingProcessTests {
    /// A running `pawtrail exec -` with pipes on both ends.
    final class Session: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        private var pending: [UInt8] = []

        init(store: String) throws {
            process.executableURL = PawtrailProcess.executable
            process.arguments = ["--store", store, "exec", "-"]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func send(_ line: String) {
            input.fileHandleForWriting.write(Data((line + "\n").utf8))
        }

        /// The next answer line (blocks until it comes; `nil` at the end of the output).
        func answer() -> String? {
            while true {
                if let i = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    defer { pending.removeFirst(i + 1) }
                    return String(decoding: pending[..<i], as: UTF8.self)
                }
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return nil }
                pending += data
            }
        }

        func close() -> Int32 {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    @Test func eachAnswerArrivesBeforeTheNextLineIsSent() throws {
        let dir = try TemporaryDirectory()
        let session = try Session(store: dir.path("s"))
        // Should exec wait for more input before answering, the session would hang: the watchdog then closes its input,
        // and the answers come after the close, which the flags tell.
        let closedByWatchdog = WatchdogFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            closedByWatchdog.set()
            try? session.input.fileHandleForWriting.close()
        }
        session.send(#"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@x.test","language":"en-US"}"#)
        let first = session.answer()
        #expect(!closedByWatchdog.isSet, "the first answer came only once the input was closed")
        #expect(first?.contains(#""ok":true"#) == true, "\(first ?? "no answer")")
        session.send(#"{"command":"favourite.add","as":"u-ann","productId":"nothing-like-it"}"#)
        let second = session.answer()
        #expect(!closedByWatchdog.isSet, "the second answer came only once the input was closed")
        #expect(second?.contains(#""line":2"#) == true, "\(second ?? "no answer")")
        session.send(#"{"command":"account.login","as":"u-ann"}"#)
        #expect(session.answer()?.contains(#""line":3"#) == true)
        let status = session.close()
        #expect(status == 0 || status == 65 || status == 1, "status \(status)")
    }

    @Test func aHugeLineOrNameIsRefusedAndTheLinesAfterItRun() throws {
        let dir = try TemporaryDirectory()
        let name = String(repeating: "x", count: 1 << 20)
        let huge = "{" + String(repeating: #""a":1,"#, count: 1_500_000) + #""b":2}"#
        let input = [
            #"{"command":"\#(name)","as":"u-ann"}"#, huge,
            #"{"command":"acount.signup","as":"u-ann"}"#,
            #"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@x.test","language":"en-US"}"#,
        ].joined(separator: "\n")
        let out = try PawtrailProcess.run(["--store", dir.path("s"), "exec", "-"], stdin: input)
        #expect(out.status == 65, "\(out.stderr)")
        let lines = out.lines
        #expect(lines.count == 4)
        #expect(lines[0].contains("unknown command 'xxxx") && lines[0].contains("(1048576 bytes)") && !lines[0].contains("did you mean"))
        #expect(lines[0].utf8.count < 1_000, "the answer echoes the whole name: \(lines[0].utf8.count) bytes")
        #expect(lines[1].contains(#""line":2"#) && lines[1].contains("more than the 8388608 a command may take"), "\(lines[1].prefix(300))")
        #expect(lines[2].contains("did you mean 'account.signup'?"), "\(lines[2])")
        #expect(lines[3].contains(#""ok":true"#) && lines[3].contains(#""line":4"#))
    }

    /// The work of a command does not grow with the commands run before it in the process: the second half of a
    /// long run reads no more events per command than the first (each answer carries what its command read).
    @Test func laterCommandsReadNoMoreThanEarlierOnes() throws {
        let dir = try TemporaryDirectory()
        var lines = [#"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@x.test","language":"en-US"}"#]
        for n in 0..<600 {
            lines.append(#"{"command":"account.login","as":"u-ann"}"#)
            lines.append(#"{"command":"account.update-profile","as":"u-ann","phone":"+880 1711 \#(100_000 + n)"}"#)
        }
        let out = try PawtrailProcess.run(["--store", dir.path("s"), "--stats", "exec", "-"], stdin: lines.joined(separator: "\n"))
        #expect(out.status == 0, "\(out.stderr)\(out.stdout.prefix(500))")
        let read = out.lines.dropFirst().compactMap { line -> Int? in
            guard let data = line.data(using: .utf8), let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let stats = o["stats"] as? [String: Any] else { return nil }
            return stats["eventsRead"] as? Int
        }
        #expect(read.count == 1_200, "answers with stats: \(read.count)")
        let half = read.count / 2
        let first = read[..<half].reduce(0, +)
        let second = read[half...].reduce(0, +)
        #expect(second <= first + half / 10, "events read: first half \(first), second half \(second)")
    }
}

/// A flag set once, from any thread.
final class WatchdogFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
