import Foundation
import Testing

/// `--as` on views and an order's history, through the binary: each reader sees what they may, and a store can
/// require a reader on every read.
@Suite(.ownThreads) struct ViewReaderProcessTests {
    @Test func `readers see their own data, staff the shop's, admins everything, and a store can require a reader`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        func run(_ arguments: String...) throws -> CommandOutcome {
            try PawtrailProcess.run(["--store", store] + arguments)
        }
        let setup = [
            #"{"command":"account.signup","as":"u-ada","name":"Ada","email":"ada@shop.example"}"#,
            #"{"command":"admin.bootstrap","as":"u-ada"}"#,
            #"{"command":"account.signup","as":"u-sam","name":"Sam","email":"sam@shop.example"}"#,
            #"{"command":"role.grant","as":"u-ada","userId":"u-sam","role":"staff"}"#,
            #"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@mail.example"}"#,
            #"{"command":"account.signup","as":"u-bob","name":"Bob","email":"bob@mail.example"}"#,
            #"{"command":"catalog.seed","as":"u-ada"}"#,
            #"{"command":"cart.add","as":"u-ann","productId":"product_cat_001","quantity":1}"#,
            #"{"command":"cart.add","as":"guest-1","productId":"product_cat_002","quantity":1}"#,
            #"{"command":"order.place","as":"u-ann","orderId":"o-1","deliveryAddress":"Road 1","deliverySlot":"2030-01-01T10:00:00Z","recipientName":"Ann","recipientPhone":"+880 1711 100037","payment":"cash"}"#,
        ]
        let exec = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: setup.joined(separator: "\n") + "\n")
        #expect(exec.status == 0, "\(exec.stdout)\(exec.stderr)")

        // (arguments, reader, admitted)
        let cases: [([String], String, Bool)] = [
            (["view", "cart", "--owner", "guest-1"], "guest-1", true),
            (["view", "cart", "--owner", "guest-1"], "u-ann", false),
            (["view", "orders", "--customer", "u-ann"], "u-ann", true),
            (["view", "orders", "--customer", "u-ann"], "u-bob", false),
            (["view", "orders", "--customer", "u-ann"], "u-sam", true),
            (["view", "order", "--id", "o-1"], "u-bob", false),
            (["view", "order", "--id", "o-1"], "u-ann", true),
            (["view", "order", "--id", "o-404"], "u-ann", false),
            (["view", "catalog"], "guest-9", true),
            (["view", "inventory"], "u-ann", false),
            (["view", "fulfilment"], "u-sam", true),
            (["view", "dashboard"], "u-sam", false),
            (["view", "dashboard"], "u-ada", true),
            (["order", "history", "o-1"], "u-bob", false),
            (["order", "history", "o-1"], "u-ann", true),
            (["order", "history", "o-1"], "u-sam", true),
        ]
        for (arguments, reader, admitted) in cases {
            let out = try PawtrailProcess.run(["--store", store] + arguments + ["--as", reader])
            if admitted {
                #expect(out.status == 0, "\(arguments) as \(reader): \(out.stderr)")
            } else {
                #expect(out.status == 1 && out.stderr.hasPrefix("Error: '\(reader)' may not read this"), "\(arguments) as \(reader): \(out.stderr)")
                #expect(!out.stderr.contains("u-ann") || reader == "u-ann", "a refusal names no owner: \(out.stderr)")
                #expect(out.stdout.isEmpty, "nothing of the answer is shown")
            }
        }
        let nobody = try run("view", "cart", "--owner", "u-ann", "--as", "u-nobody")
        #expect(nobody.status == 1 && nobody.stderr == "Error: user 'u-nobody' has no account\n")
        let malformed = try run("view", "catalog", "--as", "u ann")
        #expect(malformed.status == 64, "\(malformed.stderr)")

        // Without --as the operator reads everything, until an admin requires a reader.
        #expect(try run("view", "dashboard").status == 0)
        #expect(try run("shop", "set-read-policy", "--as", "u-ann", "--require-viewer").status == 1)
        #expect(try run("shop", "set-read-policy", "--as", "u-ada", "--require-viewer").status == 0)
        let anonymous = try run("view", "catalog")
        #expect(anonymous.status == 64 && anonymous.stderr.contains("this store requires every read to name its reader"), "\(anonymous.stderr)")
        #expect(try run("order", "history", "o-1").status == 64)
        #expect(try run("view", "catalog", "--as", "guest-9").status == 0)
        #expect(try run("shop", "set-read-policy", "--as", "u-ada").status == 0, "no flag: stop requiring it")
        #expect(try run("view", "catalog").status == 0)
    }
}
