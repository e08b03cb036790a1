import Foundation
import PawtrailJSON
import Testing

/// A client that lost an answer sends the command again with the same command id: through the real binary, as a
/// verb and as an `exec` line, the re-send reports the first outcome and appends nothing.
@Suite(.ownThreads) struct CommandReplayProcessTests {
    static let commandID = "0b6c9f2e-5a41-4d7e-8c3a-91f0e2d4b7a6"

    private static func shop(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.path("s")
        for args in [
            ["account", "signup", "--as", "u-ada", "--name", "Ada", "--email", "ada@example.com"],
            ["admin", "bootstrap", "--as", "u-ada"],
            ["catalog", "seed", "--as", "u-ada"],
            ["account", "signup", "--as", "u-ann", "--name", "Ann", "--email", "ann@example.com"],
        ] {
            let out = try PawtrailProcess.run(["--store", store] + args)
            try #require(out.status == 0, "\(args): \(out.stderr)")
        }
        return store
    }

    private static func quantity(_ store: String) throws -> JSONValue? {
        let cart = try PawtrailProcess.run(["--store", store, "view", "cart", "--owner", "u-ann", "--json"])
        try #require(cart.status == 0, "\(cart.stderr)")
        guard case .array(let lines)? = try JSONValue.parse(Array(cart.stdout.utf8))["data"]?["lines"], let line = lines.first else { return nil }
        return line["quantity"]
    }

    @Test func `a cart add re-sent with its command id adds once`() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.shop(dir)
        let add = ["--store", store, "cart", "add", "--as", "u-ann", "--product-id", "product_cat_001", "--quantity", "2", "--command-id", Self.commandID]
        let first = try PawtrailProcess.run(add + ["--json"])
        #expect(first.status == 0)
        let again = try PawtrailProcess.run(add + ["--json"])
        #expect(again.status == 0)
        let a = try JSONValue.parse(Array(first.stdout.utf8))
        let b = try JSONValue.parse(Array(again.stdout.utf8))
        #expect(a["replayed"] == .bool(false) && b["replayed"] == .bool(true))
        #expect(a["events"] == b["events"])
        #expect(try Self.quantity(store) == .int(2))
        let text = try PawtrailProcess.run(add)
        #expect(text.stdout.hasPrefix("cart.add by customer 'u-ann': applied before under this command id (1 event, nothing appended now)\n"))
        // The same id with other fields is bad input, and changes nothing.
        let other = try PawtrailProcess.run(
            ["--store", store, "cart", "add", "--as", "u-ann", "--product-id", "product_cat_001", "--quantity", "5", "--command-id", Self.commandID])
        #expect(other.status == 65)
        #expect(other.stderr.contains("was used by cart.add with other fields already"))
        #expect(try Self.quantity(store) == .int(2))
    }

    @Test func `exec lines re-sent with their command id add once`() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.shop(dir)
        let line = #"{"command":"cart.add","as":"u-ann","productId":"product_cat_002","quantity":1,"commandId":"\#(Self.commandID)"}"#
        let out = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: [line, line, line].joined(separator: "\n") + "\n")
        #expect(out.status == 0, "\(out.stderr)")
        let answers = try out.stdout.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        #expect(answers.map { $0["replayed"] } == [.bool(false), .bool(true), .bool(true)])
        #expect(answers.allSatisfy { $0["events"] == answers[0]["events"] })
        #expect(try Self.quantity(store) == .int(1))
    }
}
