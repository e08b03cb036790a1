import Foundation
import Testing

/// The outbox hand-off through the binary: two `tools/outbox-worker.sh` processes on one store at the same moment,
/// and every due notification is sent by exactly one of them.
@Suite(.ownThreads) struct OutboxWorkerProcessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func `two workers at once send every notification exactly once`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        var lines = [
            #"{"command":"account.signup","as":"u-ada","name":"Ada","email":"ada@shop.example"}"#,
            #"{"command":"admin.bootstrap","as":"u-ada"}"#,
            #"{"command":"account.signup","as":"u-sam","name":"Sam","email":"sam@shop.example"}"#,
            #"{"command":"role.grant","as":"u-ada","userId":"u-sam","role":"staff"}"#,
        ]
        let customers = 24
        for n in 1...customers {
            let language = n % 2 == 0 ? "bn-BD" : "en-US"
            lines.append(#"{"command":"account.signup","as":"u-c\#(n)","name":"C\#(n)","email":"c\#(n)@mail.example","language":"\#(language)","now":"2026-12-01T09:00:00Z"}"#)
            lines.append(#"{"command":"account.request-password-reset","as":"u-c\#(n)","now":"2026-12-01T09:01:00Z"}"#)
        }
        let setup = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(setup.status == 0, "\(setup.stderr)")
        let pending = try PawtrailProcess.run(["--store", store, "outbox", "pending", "--now", "2026-12-01T10:00:00Z"])
        #expect(pending.stdout.contains("\(customers) to send"), "\(pending.stdout)")

        func worker(_ name: String) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/bash")
            p.arguments = [Self.root.path + "/tools/outbox-worker.sh", "--store", store, "--as", "u-sam", "--once", "--now", "2026-12-01T10:00:00Z"]
            p.environment = ProcessInfo.processInfo.environment.merging(["PAWTRAIL": PawtrailProcess.executable.path]) { $1 }
            FileManager.default.createFile(atPath: dir.path(name), contents: nil)
            FileManager.default.createFile(atPath: dir.path(name + ".err"), contents: nil)
            p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.path(name)))
            p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: dir.path(name + ".err")))
            try p.run()
            return p
        }
        let a = try worker("a.out")
        let b = try worker("b.out")
        a.waitUntilExit()
        b.waitUntilExit()
        let errors = try ["a.out.err", "b.out.err"].map { try String(contentsOfFile: dir.path($0), encoding: .utf8) }.joined()
        #expect(a.terminationStatus == 0 && b.terminationStatus == 0, "\(errors)")
        let sent = try ["a.out", "b.out"].flatMap { name in
            try String(contentsOfFile: dir.path(name), encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("SENT ") }
        }
        let ids = sent.map { $0.split(separator: " ")[1] }
        #expect(ids.count == customers && Set(ids).count == customers, "\(sent)")
        #expect(sent.contains { $0.contains(" bn-BD নতুন পাসওয়ার্ড") }, "texts in the recipient's language")
        // The log agrees: one NotificationSent a notification, and nothing is due any more.
        let log = try PawtrailProcess.run(["--store", store, "log", "read", "--all", "--type", "NotificationSent", "--json"])
        #expect(log.stdout.split(separator: "\n").count == customers)
        let after = try PawtrailProcess.run(["--store", store, "outbox", "pending", "--now", "2026-12-01T10:00:00Z"])
        #expect(after.stdout.contains("0 to send"), "\(after.stdout)")
    }
}
