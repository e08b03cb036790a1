import Foundation
import PawtrailJSON
import Testing

/// `account export`: what the shop holds about a living account, for its owner or staff.
@Suite(.ownThreads) struct AccountExportProcessTests {
    @Test func `an account is exported to its owner and staff, never to another customer`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        let setup = [
            #"{"command":"account.signup","as":"u-ada","name":"Ada","email":"ada@shop.example"}"#,
            #"{"command":"admin.bootstrap","as":"u-ada"}"#,
            #"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@mail.example"}"#,
            #"{"command":"account.signup","as":"u-bob","name":"Bob","email":"bob@mail.example"}"#,
            #"{"command":"catalog.seed","as":"u-ada"}"#,
            #"{"command":"pet.add","as":"u-ann","petId":"rex","name":"Rex","species":"dog"}"#,
            #"{"command":"cart.add","as":"u-ann","productId":"product_cat_001","quantity":2}"#,
            #"{"command":"account.set-notifications","as":"u-ann","kind":"messages","setting":"off"}"#,
        ]
        let exec = try PawtrailProcess.run(["--store", store, "exec", "-"], stdin: setup.joined(separator: "\n") + "\n")
        #expect(exec.status == 0, "\(exec.stderr)")
        let own = try PawtrailProcess.run(["--store", store, "account", "export", "--user", "u-ann", "--as", "u-ann"])
        #expect(own.status == 0, "\(own.stderr)")
        let json = try JSONValue.parse(Array(own.stdout.utf8))
        #expect(json.objectPairs?.map(\.key) == ["userId", "accountEvents", "profile", "pets", "orders", "activity", "favourites", "cart", "conversations"])
        guard case .array(let events)? = json["accountEvents"] else { Issue.record("no account events"); return }
        #expect(events.count == 3, "signed up, logged in, notifications turned off")
        #expect(json["profile"]?["email"] == .string("ann@mail.example") && json["profile"]?["notificationsOff"]?.serialized == #"["messages"]"#)
        #expect(json["pets"]?.serialized.contains(#""petId":"rex""#) == true && json["cart"]?.serialized.contains("product_cat_001") == true)
        #expect(try PawtrailProcess.run(["--store", store, "account", "export", "--user", "u-ann", "--as", "u-ada"]).status == 0, "staff may")
        let other = try PawtrailProcess.run(["--store", store, "account", "export", "--user", "u-ann", "--as", "u-bob"])
        #expect(other.status == 1 && other.stderr == "Error: 'u-bob' may not read this view\n" && other.stdout.isEmpty)
        let missing = try PawtrailProcess.run(["--store", store, "account", "export", "--user", "u-zed"])
        #expect(missing.status == 1 && missing.stderr == "Error: no account 'u-zed'\n")
        let bad = try PawtrailProcess.run(["--store", store, "account", "export"])
        #expect(bad.status == 64)
    }
}
