import Foundation
import PawtrailJSON
import Testing

/// Payments, returns and refunds through the binary, with the shop's figures checked after every step: units sold
/// as the inventory, the catalog's popularity and the dashboard's top products count them agree, and the
/// dashboard's revenue is what was delivered and sold at the till, less refunds.
@Suite(.ownThreads) struct PaymentsAndReturnsProcessTests {
    static let litter = "product_cat_001"
    static let food = "product_dog_001"

    final class Shop {
        let store: String
        /// Revenue expected so far: deliveries plus till sales less refunds, in minor units.
        var revenue: Int64 = 0

        init(_ store: String) { self.store = store }

        @discardableResult
        func run(_ arguments: String...) throws -> CommandOutcome {
            let out = try PawtrailProcess.run(["--store", store] + arguments)
            #expect(out.status == 0, "\(arguments.joined(separator: " ")): \(out.stderr)")
            return out
        }

        func json(_ arguments: String...) throws -> JSONValue {
            let out = try PawtrailProcess.run(["--store", store] + arguments + ["--json"])
            #expect(out.status == 0, "\(out.stderr)")
            return try JSONValue.parse(Array(out.stdout.utf8))
        }

        func order(_ id: String, _ quantities: [(String, Int)]) throws -> Int64 {
            for (product, n) in quantities { try run("cart", "add", "--as", "u-ann", "--product-id", product, "--quantity", String(n)) }
            try run(
                "order", "place", "--as", "u-ann", "--order-id", id, "--delivery-address", "Road 1", "--delivery-slot", "2030-01-03T10:00:00Z",
                "--recipient-name", "Ann", "--recipient-phone", "+880 1711 100037", "--payment", "cash")
            guard case .int(let total)? = try json("view", "order", "--id", id)["data"]?["total"]?["amount"], total > 0 else {
                Issue.record("no total for \(id)")
                return 0
            }
            return total
        }

        func staff(_ verb: String, _ id: String, _ more: String...) throws {
            let out = try PawtrailProcess.run(["--store", store, "order", verb, "--as", "u-sam", "--order-id", id] + more)
            #expect(out.status == 0, "order \(verb) \(id): \(out.stderr)")
        }

        /// Units sold of each product, as each read model counts them.
        func figuresAgree(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            var inventory: [String: Int64] = [:]
            if case .array(let rows)? = try json("view", "inventory")["data"] {
                for row in rows { if case .string(let id)? = row["productId"], case .int(let n)? = row["sold"] { inventory[id] = n } }
            }
            var catalog: [String: Int64] = [:]
            if case .array(let rows)? = try json("view", "catalog", "--page-size", "100")["data"]?["products"] {
                for row in rows { if case .string(let id)? = row["productId"], case .int(let n)? = row["unitsSold"] { catalog[id] = n } }
            }
            let dashboard = try json("view", "dashboard", "--days", "3660")["data"]
            var top: [String: Int64] = [:]
            if case .array(let rows)? = dashboard?["topProducts"] {
                for row in rows { if case .string(let id)? = row["productId"], case .int(let n)? = row["units"] { top[id] = n } }
            }
            var revenue: Int64 = 0
            if case .array(let days)? = dashboard?["revenuePerDay"] {
                for day in days { if case .int(let n)? = day["revenue"]?["amount"] { revenue += n } }
            }
            let sold = inventory.filter { $0.value != 0 }
            #expect(sold == catalog.filter { $0.value != 0 }, "\(step): inventory and catalog", sourceLocation: sourceLocation)
            #expect(sold == top, "\(step): inventory and the dashboard's top products", sourceLocation: sourceLocation)
            #expect(revenue == self.revenue, "\(step): revenue", sourceLocation: sourceLocation)
        }
    }

    @Test func `units sold and revenue agree across cancels, returns and refunds`() throws {
        let dir = try TemporaryDirectory()
        let shop = Shop(dir.path("store"))
        let setup = [
            #"{"command":"account.signup","as":"u-ada","name":"Ada","email":"ada@shop.example"}"#,
            #"{"command":"admin.bootstrap","as":"u-ada"}"#,
            #"{"command":"account.signup","as":"u-sam","name":"Sam","email":"sam@shop.example"}"#,
            #"{"command":"role.grant","as":"u-ada","userId":"u-sam","role":"staff"}"#,
            #"{"command":"account.signup","as":"u-ann","name":"Ann","email":"ann@mail.example"}"#,
            #"{"command":"catalog.seed","as":"u-ada"}"#,
        ]
        let exec = try PawtrailProcess.run(["--store", shop.store, "exec", "-"], stdin: setup.joined(separator: "\n") + "\n")
        #expect(exec.status == 0, "\(exec.stdout)\(exec.stderr)")

        // Cancelled before shipping: nothing left the shop.
        _ = try shop.order("o-a", [(Self.litter, 2)])
        try shop.figuresAgree("placed")
        try shop.staff("cancel", "o-a")
        try shop.figuresAgree("cancel before shipping")

        // Cancelled after shipping: the units left, and came back with the courier.
        _ = try shop.order("o-b", [(Self.litter, 1), (Self.food, 1)])
        try shop.staff("confirm", "o-b")
        try shop.staff("ship", "o-b")
        try shop.figuresAgree("shipped")
        try shop.staff("cancel", "o-b", "--reason", "refused at the door")
        try shop.figuresAgree("cancel after shipping")

        // Delivered, paid, one unit returned and refunded.
        let c = try shop.order("o-c", [(Self.litter, 3)])
        for verb in ["confirm", "ship", "deliver", "collect-payment"] { try shop.staff(verb, "o-c") }
        shop.revenue += c
        try shop.figuresAgree("delivered and paid")
        try shop.staff("return", "o-c", "--lines", #"[{"productId":"\#(Self.litter)","quantity":1}]"#)
        try shop.figuresAgree("return")
        let price = c / 3
        try shop.staff("refund", "o-c", "--amount", "\(price) BDT", "--reason", "returned one bag")
        shop.revenue -= price
        try shop.figuresAgree("refund")

        // A unit written off comes off the units sold but not back on the shelf.
        let before = try shop.json("view", "inventory")
        try shop.staff("return", "o-c", "--lines", #"[{"productId":"\#(Self.litter)","quantity":1}]"#, "--disposition", "write-off")
        try shop.figuresAgree("write-off")
        func onHand(_ v: JSONValue) -> Int64? {
            guard case .array(let rows)? = v["data"] else { return nil }
            for row in rows where row["productId"] == .string(Self.litter) { if case .int(let n)? = row["onHand"] { return n } }
            return nil
        }
        #expect(onHand(try shop.json("view", "inventory")) == onHand(before))

        // More than is left to refund is refused, naming what is left.
        let refused = try PawtrailProcess.run(["--store", shop.store, "order", "refund", "--as", "u-sam", "--order-id", "o-c", "--amount", "\(c) BDT"])
        #expect(refused.status == 65 && refused.stderr.contains("more than is left to refund"), "\(refused.status) \(refused.stderr)")
    }
}
