import Foundation
import Projections
import Testing

/// Killing a process while it rebuilds or catches up read models never leaves a state that disagrees with the log:
/// after each kill, an audit (a fresh rebuild compared key by key with what is stored) finds nothing.
@Suite(.serialized, .ownThreads) struct ProjectionCrashProcessTests {
    /// A store with the demo's day and a few thousand more commands.
    static func store(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.path("store")
        #expect(try PawtrailProcess.run(["--store", store, "demo"]).status == 0)
        var lines: [String] = []
        for n in 0..<1500 {
            // Many short carts: a guest each, so every command reads a short stream.
            let product = ["product_cat_001", "product_dog_001", "product_acc_002"][n % 3]
            lines.append(#"{"command":"cart.add","as":"guest-\#(n / 5)","productId":"\#(product)","quantity":1}"#)
            lines.append(#"{"command":"favourite.add","as":"guest-\#(n / 5)","productId":"\#(product)"}"#)
        }
        let exec = try PawtrailProcess.run(["--store", store, "exec"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(exec.status == 0, "\(exec.stderr)")
        return store
    }

    @Test func `a rebuild killed at random points leaves states equal to a fresh rebuild`() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<8 {
            let p = Process()
            p.executableURL = PawtrailProcess.executable
            p.arguments = ["--store", store, "projections", "rebuild", "--all"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32.random(in: 0...60_000, using: &generator))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            // Half the rounds also append more, so the next read must catch up from whatever survived.
            if round % 2 == 1 {
                let more = try PawtrailProcess.run(
                    ["--store", store, "cart", "add", "--as", "u-ann", "--product-id", "product_cat_002"])
                #expect(more.status == 0)
            }
            let audit = try PawtrailProcess.run(["--store", store, "projections", "audit"])
            #expect(audit.status == 0, "round \(round): \(audit.stdout)\(audit.stderr)")
        }
        let status = try PawtrailProcess.run(["--store", store, "projections", "status", "--json"])
        #expect(status.lines.filter { !$0.contains(#""projection":"personal-index""#) }.count == ProjectionCatalog.projections.count && !status.stdout.contains(#""lag":1"#))
    }
}
