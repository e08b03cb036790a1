import Foundation
import PawtrailJSON
import Testing

/// Read models through the command line: views caught up, stored or as of a past moment; status, rebuild,
/// audit and export; stories.
@Suite(.ownThreads) struct ProjectionCLITests {
    /// A store with the demo's day in it.
    static func demo() async -> InProcessCLI {
        let cli = InProcessCLI()
        _ = await cli.run("demo")
        return cli
    }

    @Test func `a view catches up with the log on every read`() async throws {
        let cli = await Self.demo()
        let before = try JSONValue.parse(Array(await cli.run("view", "inventory", "--json").lines[0].utf8))
        #expect(before["projection"] == .string("inventory"))
        _ = await cli.run("inventory", "receive", "--as", "u-ada", "--product-id", "product_acc_002", "--quantity", "5")
        let after = try JSONValue.parse(Array(await cli.run("view", "inventory", "--json").lines[0].utf8))
        guard case .int(let p0)? = before["position"], case .int(let p1)? = after["position"] else {
            Issue.record("no positions")
            return
        }
        #expect(p1 == p0 + 1)
        let row = { (v: JSONValue) -> JSONValue? in
            guard case .array(let rows)? = v["data"] else { return nil }
            return rows.first { $0["productId"] == .string("product_acc_002") }?["onHand"]
        }
        #expect(row(before) == .int(60) && row(after) == .int(65))
        let stored = await cli.run("view", "inventory", "--no-catch-up")
        #expect(stored.lines.first?.hasSuffix("(as stored, not caught up)") == true)
    }

    @Test func `a view as of a past position shows the read model as it was then`() async throws {
        let cli = await Self.demo()
        let early = await cli.run("view", "low-stock", "--threshold", "100", "--at-position", "3")
        #expect(early.status == 0)
        #expect(early.lines == ["Low stock (available ≤ 100) — inventory as of position 3", "  (none)"])
        let seeded = await cli.run("view", "inventory", "--at-position", "60", "--category", "accessories")
        #expect(seeded.lines.contains { $0.hasPrefix("product_acc_003") && $0.hasSuffix("5         0          5     0") })
        let both = await cli.run("view", "inventory", "--at-position", "3", "--at", "2026-01-01T00:00:00Z")
        #expect(both.status == 64)
        // An empty value is a bad value, not a missing option ("missing expected argument '--user'").
        let empty = await cli.run("view", "activity", "--user", "")
        #expect(empty.status == 64 && empty.stderr.hasPrefix("Error: invalid value for '--user': the value is empty\n"), "\(empty.stderr)")
        #expect(await cli.run("view", "activity").stderr.hasPrefix("Error: missing expected argument '--user'\n"))
        let before = await cli.run("view", "inventory", "--at", "2000-01-01T00:00:00Z")
        #expect(before.lines.first == "Inventory — inventory as of 2000-01-01T00:00:00Z: the log was empty then")
    }

    @Test func `status rebuild and audit`() async throws {
        let cli = await Self.demo()
        let fresh = await cli.run("projections", "status", "--json")
        #expect(fresh.stdout.contains(#""projection":"inventory","schemaVersion":3,"built":false"#))
        let rebuilt = await cli.run("projections", "rebuild", "--all")
        #expect(rebuilt.status == 0 && rebuilt.stdout.hasPrefix("Rebuilt inventory"))
        // On one thread the same states come out (the parallel rebuild tests compare them byte for byte).
        #expect(await cli.run("projections", "rebuild", "--all", "--threads", "1").status == 0)
        let zero = await cli.run("projections", "rebuild", "--all", "--threads", "0")
        #expect(zero.status == 64 && zero.stderr.hasPrefix("Error: the value '0' is invalid for '--threads'"), "\(zero.stderr)")
        let status = await cli.run("projections", "status", "--json")
        #expect(status.stdout.contains(#""built":true"#) && status.stdout.contains(#""lag":0"#))
        let audit = await cli.run("projections", "audit")
        #expect(audit.status == 0 && audit.lines.allSatisfy { $0.contains(": ok (") })
        let two = await cli.run("projections", "audit", "inventory", "orders")
        #expect(two.status == 0 && two.lines.map { String($0.prefix { $0 != ":" }) } == ["inventory", "orders"])
        #expect(await cli.run("projections", "rebuild").status == 64, "name a projection or --all")
        // A name given twice counts once (else the rebuild would take its own lock again and fail with 74,
        // "being rebuilt or saved by another process").
        let twice = await cli.run("projections", "rebuild", "inventory", "orders", "inventory")
        #expect(twice.status == 0, "\(twice.stderr)")
        #expect(twice.lines.count == 1 && twice.stdout.hasPrefix("Rebuilt inventory, orders: "), "\(twice.stdout)")
        let auditTwice = await cli.run("projections", "audit", "orders", "orders")
        #expect(auditTwice.status == 0 && auditTwice.lines.count == 1)
        #expect(await cli.run("projections", "rebuild", "inventry").stderr.contains("did you mean 'inventory'?"))
    }

    @Test func `export writes the read models as SQLite tables`() async throws {
        let cli = await Self.demo()
        let dir = try TemporaryDirectory()
        let out = await cli.run("projections", "export", "--sqlite", dir.path("rm.db"))
        #expect(out.status == 0 && out.stdout.hasPrefix("Wrote "))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: p.executableURL!.path) else { return }
        let pipe = Pipe()
        p.arguments = [dir.path("rm.db"), "SELECT onHand FROM inventory_products WHERE key = 'product_acc_003'"]
        p.standardOutput = pipe
        try p.run()
        p.waitUntilExit()
        // The demo's checkout race is real, so how many units end up on hand varies by a unit or two between runs:
        // the export must agree with the view, whatever it says.
        let view = try JSONValue.parse(Array(await cli.run("view", "inventory", "--json").lines[0].utf8))
        guard case .array(let rows)? = view["data"], case .int(let onHand)? = rows.first(where: { $0["productId"] == .string("product_acc_003") })?["onHand"]
        else {
            Issue.record("no product_acc_003 in the inventory view")
            return
        }
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "\(onHand)\n")
    }

    @Test func `an order's story names each event's actor, command and changes`() async throws {
        let cli = await Self.demo()
        let orders = await cli.run("log", "read", "--category", "order", "--type", "OrderDelivered", "--json")
        let delivered = try JSONValue.parse(Array(orders.lines[0].utf8))
        guard case .string(let id)? = delivered["data"]?["orderId"] else {
            Issue.record("no delivered order")
            return
        }
        let story = await cli.run("order", "history", id, "--json")
        let entries = try story.lines.map { try JSONValue.parse(Array($0.utf8)) }
        // The demo's delivered order is then paid at the door, partly returned and refunded.
        #expect(
            entries.map { $0["type"] }
                == ["OrderPlaced", "OrderConfirmed", "OrderShipped", "OrderDelivered", "OrderPaymentCollected", "OrderReturned", "OrderRefunded"]
                .map { .string($0) })
        #expect(
            entries.map { $0["command"] }
                == ["order.place", "order.confirm", "order.ship", "order.deliver", "order.collect-payment", "order.return", "order.refund"]
                .map { .string($0) })
        #expect(entries[1]["actor"] == .string("u-sam") && entries[1]["role"] == .string("staff"))
        let missing = await cli.run("order", "history", "o-404")
        #expect(missing.status == 1 && missing.stderr == "Error: no order 'o-404'\n")
        let early = await cli.run("log", "read", "--stream", "order-\(id)", "--at-position", "0")
        #expect(early.status == 0 && early.lines == ["Stream order-\(id) — 0 events, as of position 0"])
    }
}
