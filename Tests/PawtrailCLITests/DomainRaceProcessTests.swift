import Foundation
import PostgresTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Domain workflows raced through the real `pawtrail` binary on a file store: separate processes, one store, the
/// writer lock and expected versions between them. These are the guarantees issue 3 asks of the domain under
/// concurrency (no oversell, a once-only seed) plus two end-to-end paths (guest merge, message re-send).
///
/// Serialized so the racing processes of one test compete with each other rather than with another test's.
@Suite(.serialized, .ownThreads) struct DomainRaceProcessTests {
    // MARK: - Oversell

    /// The stock the oversell race starts from.
    private static let raceStock = 15

    @Test func `racing checkouts never sell more than the stock and refuse only buyers who wanted more than was left`() throws {
        try Self.oversellRace(try RaceStore())
    }

    /// The same race on a PostgreSQL store: processes that share one server instead of one directory.
    @Test func `racing checkouts on a PostgreSQL store never sell more than the stock`() throws {
        try Self.oversellRace(try RaceStore(location: PostgresTestServer.freshDatabase()))
    }

    private static func oversellRace(_ store: RaceStore) throws {
        try store.setUpAdminAndCatalog()

        // A bundled product, its available stock brought to exactly 15 by an adjustment after a count.
        let productId = try #require(
            try store.seededProductIds().first { try store.inventory($0).available > Self.raceStock },
            "some bundled product starts with more than \(Self.raceStock) units")
        let before = try store.inventory(productId)
        try store.ok(
            "inventory", "adjust", "--as", RaceStore.admin, "--product-id", productId,
            "--delta", String(Self.raceStock - before.available), "--reason", "stock count before the sale")
        let start = try store.inventory(productId)
        #expect(start.available == Self.raceStock && start.reserved == 0)
        #expect(try store.events("inventory-\(productId)").last?["type"] as? String == "StockAdjusted")

        // Customers, each with a random 1-5 units of it in their cart; seeded so a failure can be replayed.
        var rng = SplitMix64(seed: 2026)
        let buyers = (0..<12).map { String(format: "u-buyer-%02d", $0) }
        let wants = buyers.map { _ in Int.random(in: 1...5, using: &rng) }
        let demand = wants.reduce(0, +)
        try #require(demand >= 2 * Self.raceStock, "demand \(demand) must be well above the stock so some buyers fail")
        for (buyer, quantity) in zip(buyers, wants) {
            try store.signUp(buyer)
            try store.ok("cart", "add", "--as", buyer, "--product-id", productId, "--quantity", String(quantity))
        }

        // All checkouts at once.
        let orderIds = buyers.map { "o-\($0.dropFirst(2))" }
        let outcomes = try store.runTogether(
            zip(buyers, orderIds).map { buyer, orderId in
                [
                    "order", "place", "--as", buyer, "--order-id", orderId, "--delivery-address", "12 Lake Road, Dhaka",
                    "--delivery-slot", "2026-12-03T10:00:00Z", "--recipient-name", "Buyer", "--recipient-phone",
                    "+8801711000000", "--payment", "cash", "--now", "2026-12-01T09:00:00Z", "--json",
                ]
            })

        // Each process: exactly one JSON line; success, `stock-short` (1) or `conflict` (75), nothing else.
        var sold = 0
        var winners: [String: Int] = [:]  // order id -> units
        var shortBuyers: [(want: Int, sawAvailable: Int)] = []
        var conflicts = 0
        for (i, outcome) in outcomes.enumerated() {
            let who = "\(buyers[i]) (wants \(wants[i])), exit \(outcome.status): \(outcome.stdout)\(outcome.stderr)"
            #expect(outcome.lines.count == 1, "\(who)")
            guard let answer = outcome.lines.first.flatMap(jsonObject) else {
                Issue.record("not one JSON object: \(who)")
                continue
            }
            switch outcome.status {
            case 0:
                #expect(answer["ok"] as? Bool == true, "\(who)")
                let events = answer["events"] as? [[String: Any]] ?? []
                #expect(events.map { $0["type"] as? String } == ["StockReserved", "OrderPlaced", "CartCleared"], "\(who)")
                let reserved = events.first.flatMap { $0["data"] as? [String: Any] }
                #expect(reserved?["quantity"] as? Int == wants[i], "\(who)")
                #expect(reserved?["orderId"] as? String == orderIds[i], "\(who)")
                sold += wants[i]
                winners[orderIds[i]] = wants[i]
            case 1:
                #expect(answer["error"] as? String == "stock-short", "\(who)")
                let shortages = answer["shortages"] as? [[String: Any]] ?? []
                #expect(shortages.count == 1, "\(who)")
                let shortage = shortages.first ?? [:]
                #expect(shortage["productId"] as? String == productId, "\(who)")
                #expect(shortage["requested"] as? Int == wants[i], "\(who)")
                let available = shortage["available"] as? Int ?? -1
                // Refused only when the stock it saw was really too little for it.
                #expect(available >= 0 && available < wants[i], "\(who)")
                shortBuyers.append((wants[i], available))
            case 75:
                #expect(answer["error"] as? String == "conflict", "\(who)")
                conflicts += 1
            default:
                Issue.record("unexpected exit status: \(who)")
            }
        }

        // Never oversold; and no buyer was refused while enough stock remained: stock only shrinks during the race,
        // so what a refused buyer saw is at least what was left at the end, and what was left is less than it wanted.
        let left = Self.raceStock - sold
        #expect(sold <= Self.raceStock, "sold \(sold) of \(Self.raceStock)")
        #expect(!winners.isEmpty && !shortBuyers.isEmpty, "demand \(demand) > stock: some win, some are refused")
        for refused in shortBuyers {
            #expect(refused.want > left, "a buyer of \(refused.want) was refused with \(left) left at the end")
            #expect(refused.sawAvailable >= left, "it saw \(refused.sawAvailable) available; \(left) was left at the end")
        }
        #expect(shortBuyers.count + winners.count + conflicts == buyers.count)

        // The inventory stream folded event by event: on hand never negative, reserved never above it, and the
        // reservations are exactly the winners' orders, once each.
        var onHand = 0
        var reserved = 0
        var reservations: [String: Int] = [:]
        for event in try store.events("inventory-\(productId)") {
            let data = event["data"] as? [String: Any] ?? [:]
            let quantity = data["quantity"] as? Int ?? 0
            switch event["type"] as? String {
            case "StockReceived": onHand += quantity
            case "StockAdjusted": onHand += data["delta"] as? Int ?? 0
            case "StockReserved":
                reserved += quantity
                let orderId = data["orderId"] as? String ?? "?"
                #expect(reservations[orderId] == nil, "order \(orderId) reserved twice")
                reservations[orderId] = quantity
            case "StockReleased": reserved -= quantity
            case "StockReservationFulfilled":
                reserved -= quantity
                onHand -= quantity
            case "StockSoldInStore": onHand -= quantity
            case let other: Issue.record("unexpected inventory event \(other ?? "nil")")
            }
            #expect(onHand >= 0, "on hand went negative: \(onHand)")
            #expect(reserved >= 0 && reserved <= onHand, "reserved \(reserved) of \(onHand) on hand")
        }
        #expect(onHand == Self.raceStock)
        #expect(reserved == sold)
        #expect(reservations == winners)

        // Winners have an order and an emptied cart; everyone else has no order and the cart they started with.
        for (i, buyer) in buyers.enumerated() {
            let order = try store.events("order-\(orderIds[i])").map { $0["type"] as? String }
            let cart = try store.events("cart-\(buyer)").map { $0["type"] as? String }
            if winners[orderIds[i]] != nil {
                #expect(order == ["OrderPlaced"], "\(buyer)")
                #expect(cart == ["CartItemAdded", "CartCleared"], "\(buyer)")
            } else {
                #expect(order.isEmpty, "\(buyer)")
                #expect(cart == ["CartItemAdded"], "\(buyer)")
            }
        }
        if store.path.contains("://") {
            // A server store has no files to verify: its positions are checked instead, gapless from 0.
            let positions = try store.allEvents().map { $0["position"] as? Int }
            #expect(positions == Array(0..<positions.count).map { Optional($0) })
        } else {
            try store.verify()
        }
    }

    // MARK: - Once-only seed

    @Test(arguments: 1...3)
    func `two catalog seeds racing on a fresh store append the catalog once`(round: Int) throws {
        let store = try RaceStore()
        try store.signUp(RaceStore.admin)
        try store.ok("admin", "bootstrap", "--as", RaceStore.admin)
        let seeds = try store.runTogether(Array(repeating: ["catalog", "seed", "--as", RaceStore.admin, "--json"], count: 2))

        var appended: [[[String: Any]]] = []
        for seed in seeds {
            #expect(seed.status == 0, "\(seed.stdout)\(seed.stderr)")
            #expect(seed.lines.count == 1, "\(seed.stdout)")
            let answer = try #require(seed.lines.first.flatMap(jsonObject), "\(seed.stdout)")
            #expect(answer["ok"] as? Bool == true)
            appended.append(answer["events"] as? [[String: Any]] ?? [])
        }
        #expect(appended.filter(\.isEmpty).count == 1, "exactly one seed appends nothing: \(appended.map(\.count))")

        let marker = try store.events("catalog")
        #expect(marker.map { $0["type"] as? String } == ["CatalogSeeded"])
        let productIds = try store.seededProductIds()
        #expect(!productIds.isEmpty)
        var inventoryEvents = 0
        for productId in productIds {
            let listing = try store.events("product-\(productId)")
            #expect(listing.map { $0["type"] as? String } == ["ProductListed"], "\(productId)")
            let stock = try store.events("inventory-\(productId)")
            #expect(stock.count <= 1 && stock.allSatisfy { $0["type"] as? String == "StockReceived" }, "\(productId)")
            inventoryEvents += stock.count
        }
        // The winner's append is all there is: account (signed up and logged in), email claim, role, then one seed's
        // events: the catalog's, each product's and its stock, and the salon's five services and capacity.
        let winner = appended.first { !$0.isEmpty } ?? []
        #expect(winner.count == 1 + productIds.count + inventoryEvents + 6)
        #expect(try store.allEvents().count == 4 + winner.count)
        try store.verify()
    }

    // MARK: - Guest merge

    @Test func `signing up with a guest id moves the guest's cart and favourites to the account`() throws {
        let store = try RaceStore()
        try store.setUpAdminAndCatalog()
        let products = try store.seededProductIds()
        try #require(products.count >= 3)
        let guest = "guest-7f3a"
        try store.ok("cart", "add", "--as", guest, "--product-id", products[0], "--quantity", "2")
        try store.ok("cart", "add", "--as", guest, "--product-id", products[1])
        try store.ok("cart", "add", "--as", guest, "--product-id", products[0], "--quantity", "3")
        try store.ok("favourite", "add", "--as", guest, "--product-id", products[2])
        try store.ok("favourite", "add", "--as", guest, "--product-id", products[0])
        #expect(try store.cart(guest) == [products[0]: 5, products[1]: 1])

        try store.ok(
            "account", "signup", "--as", "u-gina", "--name", "Gina", "--email", "gina@example.com", "--guest-id", guest)

        #expect(try store.cart("u-gina") == [products[0]: 5, products[1]: 1])
        #expect(try store.cart(guest) == [:])
        #expect(try store.favourites("u-gina") == [products[2], products[0]])
        #expect(try store.favourites(guest) == [])
        try store.verify()
    }

    // MARK: - Message re-send

    @Test func `re-sending a message with the same client message id appends it once`() throws {
        let store = try RaceStore()
        try store.setUpAdminAndCatalog()
        let product = try #require(try store.seededProductIds().first)
        try store.signUp("u-cleo")
        try store.ok("cart", "add", "--as", "u-cleo", "--product-id", product)
        try store.ok(
            "order", "place", "--as", "u-cleo", "--order-id", "o-cleo", "--delivery-address", "3 Park Street, Dhaka",
            "--delivery-slot", "2026-12-03T10:00:00Z", "--recipient-name", "Cleo", "--recipient-phone", "+8801711000001",
            "--payment", "card-on-delivery", "--now", "2026-12-01T09:00:00Z")
        try store.ok(
            "conversation", "start", "--as", "u-cleo", "--subject", "order", "--subject-id", "o-cleo",
            "--conversation-id", "c-cleo")
        let send = ["conversation", "send", "--as", "u-cleo", "--conversation-id", "c-cleo", "--client-message-id"]

        let first = try store.run(send + ["m-1", "--text", "Can it come before noon?"])
        #expect(first.status == 0)
        #expect(first.lines.first == "conversation.send by customer 'u-cleo': appended 1 event", "\(first.stdout)")
        let again = try store.run(send + ["m-1", "--text", "Can it come before noon?"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "conversation.send by customer 'u-cleo': nothing to change (already done)\n")

        // The same re-send, but the two copies race (a phone retrying while the first is still in flight).
        let racing = try store.runTogether(Array(repeating: send + ["m-2", "--text", "Thanks!", "--json"], count: 2))
        for outcome in racing {
            #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
            #expect(outcome.lines.count == 1)
        }
        let appendedCounts = racing.map { ($0.lines.first.flatMap(jsonObject)?["events"] as? [Any])?.count ?? -1 }
        #expect(appendedCounts.sorted() == [0, 1])

        let messages = try store.events("conversation-c-cleo").filter { $0["type"] as? String == "MessageSent" }
        #expect(messages.map { ($0["data"] as? [String: Any])?["messageId"] as? String } == ["m-1", "m-2"])
        try store.verify()
    }
}

// MARK: - Support

/// Parses one line of JSON output as an object.
private func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

/// A file store in a fresh temporary directory, driven through the `pawtrail` binary.
private struct RaceStore {
    static let admin = "u-ada"

    let directory: TemporaryDirectory
    /// The store's location: a directory, or a server's URL.
    let path: String

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.path("store")
    }

    init(location: String) throws {
        directory = try TemporaryDirectory()
        path = location
    }

    /// Runs `pawtrail --store <store> <arguments>`.
    func run(_ arguments: [String]) throws -> CommandOutcome {
        try PawtrailProcess.run(["--store", path] + arguments)
    }

    /// Runs a command that must succeed.
    func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try run(arguments)
        try #require(
            outcome.status == 0, "\(arguments.joined(separator: " ")): \(outcome.stdout)\(outcome.stderr)",
            sourceLocation: sourceLocation)
    }

    /// Signs up a customer named after its id.
    func signUp(_ userId: String) throws {
        try ok("account", "signup", "--as", userId, "--name", "Customer \(userId)", "--email", "\(userId)@example.com")
    }

    /// An admin, the bundled catalog seeded.
    func setUpAdminAndCatalog() throws {
        try signUp(Self.admin)
        try ok("admin", "bootstrap", "--as", Self.admin)
        try ok("catalog", "seed", "--as", Self.admin)
    }

    /// A stream's events as `log read --json` prints them (none when the stream does not exist).
    func events(_ stream: String) throws -> [[String: Any]] {
        try parseLines(run(["log", "read", "--stream", stream, "--json"]))
    }

    /// Every event of the store.
    func allEvents() throws -> [[String: Any]] {
        try parseLines(run(["log", "read", "--all", "--json"]))
    }

    private func parseLines(_ outcome: CommandOutcome) throws -> [[String: Any]] {
        try #require(outcome.status == 0, "\(outcome.stderr)")
        return try outcome.lines.map { try #require(jsonObject($0), "\($0)") }
    }

    /// The product ids the seed listed, from the `catalog` marker.
    func seededProductIds() throws -> [String] {
        let marker = try events("catalog").first?["data"] as? [String: Any]
        return marker?["productIds"] as? [String] ?? []
    }

    /// A product's stock, folded from its inventory stream.
    func inventory(_ productId: String) throws -> (onHand: Int, reserved: Int, available: Int) {
        var onHand = 0
        var reserved = 0
        for event in try events("inventory-\(productId)") {
            let data = event["data"] as? [String: Any] ?? [:]
            let quantity = data["quantity"] as? Int ?? 0
            switch event["type"] as? String {
            case "StockReceived": onHand += quantity
            case "StockAdjusted": onHand += data["delta"] as? Int ?? 0
            case "StockReserved": reserved += quantity
            case "StockReleased": reserved -= quantity
            case "StockReservationFulfilled":
                reserved -= quantity
                onHand -= quantity
            case "StockSoldInStore": onHand -= quantity
            default: break
            }
        }
        return (onHand, reserved, onHand - reserved)
    }

    /// A cart's lines (product id -> units), folded from its stream.
    func cart(_ ownerId: String) throws -> [String: Int] {
        var lines: [String: Int] = [:]
        for event in try events("cart-\(ownerId)") {
            let data = event["data"] as? [String: Any] ?? [:]
            let product = data["productId"] as? String ?? ""
            switch event["type"] as? String {
            case "CartItemAdded": lines[product, default: 0] += data["quantity"] as? Int ?? 0
            case "CartItemQuantityChanged": lines[product] = data["quantity"] as? Int ?? 0
            case "CartItemRemoved": lines[product] = nil
            case "CartCleared": lines = [:]
            case let other: Issue.record("unexpected cart event \(other ?? "nil")")
            }
        }
        return lines
    }

    /// Favourite product ids in the order added, folded from the stream.
    func favourites(_ ownerId: String) throws -> [String] {
        var ids: [String] = []
        for event in try events("favourites-\(ownerId)") {
            let data = event["data"] as? [String: Any] ?? [:]
            let product = data["productId"] as? String ?? ""
            switch event["type"] as? String {
            case "FavouriteAdded": if !ids.contains(product) { ids.append(product) }
            case "FavouriteRemoved": ids.removeAll { $0 == product }
            case "FavouritesMerged": ids = []
            case let other: Issue.record("unexpected favourites event \(other ?? "nil")")
            }
        }
        return ids
    }

    /// `log verify` passes.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try run(["log", "verify"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)", sourceLocation: sourceLocation)
    }

    /// Starts one `pawtrail` process per argument list, all released at the same moment, and waits for all.
    ///
    /// Each child is a shell blocked reading a FIFO that then `exec`s the binary (same process, so the exit
    /// status is pawtrail's own). Once every child is started, one line per child is written, so they all go
    /// together rather than in launch order.
    func runTogether(_ argumentLists: [[String]]) throws -> [CommandOutcome] {
        let scratch = try TemporaryDirectory()
        let gate = scratch.path("gate")
        try #require(mkfifo(gate, 0o600) == 0, "mkfifo: errno \(errno)")
        // Read-write, so this end neither blocks opening nor lets the FIFO close before every child has read.
        let gateFD = open(gate, O_RDWR)
        try #require(gateFD >= 0, "open gate: errno \(errno)")
        defer { close(gateFD) }

        var processes: [(Process, out: String, err: String)] = []
        for (i, arguments) in argumentLists.enumerated() {
            let out = scratch.path("out-\(i)")
            let err = scratch.path("err-\(i)")
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            _ = FileManager.default.createFile(atPath: err, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", #"read go < "$1"; shift; exec "$@""#, "sh", gate, PawtrailProcess.executable.path, "--store", path]
                + arguments
            var environment = ProcessInfo.processInfo.environment
            environment.removeValue(forKey: "PAWTRAIL_STORE")
            process.environment = environment
            process.currentDirectoryURL = scratch.url
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle(forWritingAtPath: out)
            process.standardError = FileHandle(forWritingAtPath: err)
            try process.run()
            processes.append((process, out, err))
        }
        // Let the shells reach their `read`, then open the gate for all of them.
        Thread.sleep(forTimeInterval: 0.2)
        let lines = [UInt8](repeating: UInt8(ascii: "\n"), count: argumentLists.count)
        let written = lines.withUnsafeBytes { write(gateFD, $0.baseAddress, $0.count) }
        try #require(written == lines.count, "write gate: errno \(errno)")

        return processes.map { process, out, err in
            process.waitUntilExit()
            // A crash reads as 128 + the signal, as a shell reports it, so it can never pass for an exit status.
            let crashed = process.terminationReason == .uncaughtSignal
            return CommandOutcome(
                status: crashed ? 128 + process.terminationStatus : process.terminationStatus,
                stdout: String(decoding: FileManager.default.contents(atPath: out) ?? Data(), as: UTF8.self),
                stderr: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self))
        }
    }
}
