import EventLog
import Events
import Foundation
import PawtrailDomain
import Testing

@Suite("POS: pos.sell")
struct POSTests {
    static let commandID = UUID(uuidString: "6f1c2a4e-0000-4000-8000-00000000a1b2")!

    /// The sale id `pos.sell` derives from ``commandID``.
    static var saleId: String {
        DecisionContext(actor: Actor(userID: Shop.staff, role: .staff), now: DomainScenario.now, commandID: commandID, correlationID: "", commandName: SellInStore.name)
            .newID("s")
    }

    /// The floor with litter (620 taka, 15 in stock) and food (780 taka, 10 in stock).
    static func till() async throws -> DomainScenario {
        let s = try await Shop.floor()
        try await s.product("litter", price: 62_000, stock: 15)
        try await s.product("food", price: 78_000, stock: 10)
        return s
    }

    static func sell(_ s: DomainScenario, as user: String = Shop.staff, _ command: SellInStore) async throws -> [(StreamID, any DomainEvent)] {
        try await s.handler.handle(command, as: user, now: DomainScenario.now, commandID: commandID).appendedNow.map { ($0.stream, $0.event) }
    }

    @Test func staffSellOverTheCounterFromTheSameStock() async throws {
        let s = try await Self.till()
        let sale = SellInStore(
            lines: [SaleItem(productId: "litter", quantity: 2), SaleItem(productId: "food", quantity: 1), SaleItem(productId: "litter", quantity: 1)],
            payment: .card)
        let appended = try await Self.sell(s, sale)
        let id = Self.saleId
        #expect(id.hasPrefix("s-"))
        let lines = [Shop.line("litter", price: 62_000, quantity: 3), Shop.line("food", price: 78_000, quantity: 1)]
        let expected: [(StreamID, any DomainEvent)] = [
            (stream("inventory-litter"), StockSoldInStore(productId: "litter", saleId: id, quantity: 3)),
            (stream("inventory-food"), StockSoldInStore(productId: "food", saleId: id, quantity: 1)),
            (stream("sale-\(id)"), InStoreSaleCompleted(saleId: id, soldBy: Shop.staff, lines: lines, total: Money(264_000, "BDT"), payment: .card)),
        ]
        #expect(appended.count == expected.count && zip(appended, expected).allSatisfy { $0.0 == $1.0 && DomainScenario.same($0.1, $1.1) },
                "appended \(DomainScenario.describe(appended))")
        let litter = try await s.state(InventoryState.self, Streams.inventory("litter"))
        #expect(litter.onHand == 12 && litter.available == 12)
        // The same command again (a re-send from the till) finds its sale and changes nothing.
        #expect(try await Self.sell(s, sale).isEmpty)
    }

    @Test func adminsSellToo() async throws {
        let s = try await Self.till()
        let appended = try await Self.sell(s, as: Shop.admin, SellInStore(lines: [SaleItem(productId: "food", quantity: 1)], payment: .cash))
        #expect((appended.last?.1 as? InStoreSaleCompleted)?.soldBy == Shop.admin)
    }

    @Test func stockReservedForOrdersCannotBeSold() async throws {
        let s = try await Self.till()
        try await s.given(Streams.inventory("litter"), StockReserved(productId: "litter", orderId: "o-1", quantity: 14))
        try await s.given(Streams.inventory("food"), StockSoldInStore(productId: "food", saleId: "s-0", quantity: 10))
        try await s.then(
            Shop.staff, SellInStore(lines: [SaleItem(productId: "litter", quantity: 2), SaleItem(productId: "food", quantity: 1)], payment: .cash),
            throws: .stockShort([
                StockShortage(productID: "litter", available: 1, requested: 2),
                StockShortage(productID: "food", available: 0, requested: 1),
            ]))
    }

    @Test func delistedAndUnknownProductsAreRefused() async throws {
        let s = try await Self.till()
        try await s.given(Streams.product("food"), ProductDelisted(productId: "food"))
        try await s.then(
            Shop.staff, SellInStore(lines: [SaleItem(productId: "food", quantity: 1)], payment: .cash),
            throws: .invalidState("product 'food' (Name of food) is delisted; it cannot be sold"))
        try await s.then(
            Shop.staff, SellInStore(lines: [SaleItem(productId: "ghost", quantity: 1)], payment: .cash),
            throws: .notFound("product 'ghost' does not exist"))
    }

    @Test func aSaleIsInOneCurrency() async throws {
        let s = try await Self.till()
        try await s.product("import", price: 1_500, stock: 5, currency: "USD")
        try await s.then(
            Shop.staff, SellInStore(lines: [SaleItem(productId: "litter", quantity: 1), SaleItem(productId: "import", quantity: 1)], payment: .cash),
            throws: .rejected("the products are priced in BDT and USD; one purchase is paid in one currency"))
    }

    @Test func malformedLinesAreRejected() async throws {
        let s = try await Self.till()
        try await s.then(Shop.staff, SellInStore(lines: [], payment: .cash), throws: .invalid(field: "lines", reason: "a sale needs at least one line"))
        try await s.then(
            Shop.staff, SellInStore(lines: [SaleItem(productId: "litter", quantity: 0)], payment: .cash),
            throws: .invalid(field: "lines[0].quantity", reason: "must be between 1 and 999, got 0"))
        try await s.then(
            Shop.staff, SellInStore(lines: [SaleItem(productId: "litter", quantity: 1), SaleItem(productId: "bad id", quantity: 1)], payment: .cash),
            throws: .invalid(field: "lines[1].productId", reason: "'bad id' may hold only letters, digits and - _ . : @"))
        try await s.then(
            Shop.staff, SellInStore(lines: [SaleItem(productId: "litter", quantity: 999), SaleItem(productId: "litter", quantity: 1)], payment: .cash),
            throws: .invalid(field: "lines[1].quantity", reason: "'litter' totals 1000 units; a sale holds at most 999 of one product"))
        try await s.then(
            Shop.staff, SellInStore(lines: (0...100).map { SaleItem(productId: "p\($0)", quantity: 1) }, payment: .cash),
            throws: .invalid(field: "lines", reason: "a sale holds at most 100 products, got 101"))
    }

    @Test func onlyStaffSell() async throws {
        let s = try await Self.till()
        try await s.refuses(SellInStore(lines: [SaleItem(productId: "litter", quantity: 1)], payment: .cash), [
            (Shop.ann, .forbidden("only staff sell at the till; customer 'u-ann' is not staff")),
            (Shop.guest, .forbidden("guests cannot pos.sell; sign up or log in first")),
            (Shop.nobody, .forbidden("user 'u-nobody' has no account")),
        ])
    }
}

@Suite("POS: a sale for a named customer")
struct POSCustomerTests {
    @Test func aSaleNamesTheCustomerItWasFor() async throws {
        let s = try await POSTests.till()
        let appended = try await POSTests.sell(
            s, SellInStore(lines: [SaleItem(productId: "food", quantity: 2)], payment: .cash, customerId: Shop.ann))
        let sale = try #require(appended.last?.1 as? InStoreSaleCompleted)
        #expect(sale.customerId == Shop.ann && sale.soldBy == Shop.staff && sale.total == Money(156_000, "BDT"))
        #expect(appended.allSatisfy { $0.0 != Streams.account(Shop.ann) }, "the customer's account is read, not written")
    }

    @Test func aWalkInSaleNamesNobody() async throws {
        let appended = try await POSTests.sell(try await POSTests.till(), SellInStore(lines: [SaleItem(productId: "food", quantity: 1)], payment: .card))
        #expect((appended.last?.1 as? InStoreSaleCompleted)?.customerId == nil)
    }

    @Test func theCustomerMustHoldALiveAccount() async throws {
        let s = try await POSTests.till()
        let line = [SaleItem(productId: "food", quantity: 1)]
        try await s.then(Shop.staff, SellInStore(lines: line, payment: .cash, customerId: "u-nobody"), throws: .notFound("customer 'u-nobody' has no account"))
        try await s.then(Shop.staff, SellInStore(lines: line, payment: .cash, customerId: Shop.guest), throws: .notFound("customer 'guest-7' has no account"))
        try await s.then(
            Shop.staff, SellInStore(lines: line, payment: .cash, customerId: "u ann"),
            throws: .invalid(field: "customerId", reason: "'u ann' may hold only letters, digits and - _ . : @"))
        try await s.given(Streams.account(Shop.bob), AccountDeleted(userId: Shop.bob, reauthenticatedAt: DomainScenario.now))
        try await s.then(
            Shop.staff, SellInStore(lines: line, payment: .cash, customerId: Shop.bob),
            throws: .invalidState("the account of 'u-bob' is deleted; a sale cannot name it"))
    }

    @Test func customersStillCannotSell() async throws {
        try await POSTests.till().then(
            Shop.ann, SellInStore(lines: [SaleItem(productId: "food", quantity: 1)], payment: .cash, customerId: Shop.ann),
            throws: .forbidden("only staff sell at the till; customer 'u-ann' is not staff"))
    }

    @Test func version1SalesReadWithoutACustomer() throws {
        let line = Shop.line("food", price: 78_000, quantity: 1)
        var w = BinaryFieldWriter()
        w.varint(UInt64(DomainEventCodec.marker))
        w.varint(1)
        w.string("saleId", "s-1")
        w.string("soldBy", Shop.staff)
        w.records("lines", [line])
        w.money("total", Money(78_000, "BDT"))
        w.choice("payment", StorePayment.cash)
        let sale = try InStoreSaleCompleted.decoded(from: w.bytes)
        #expect(sale == InStoreSaleCompleted(saleId: "s-1", soldBy: Shop.staff, lines: [line], total: Money(78_000, "BDT"), payment: .cash))
        let named = InStoreSaleCompleted(saleId: "s-2", soldBy: Shop.staff, lines: [line], total: Money(78_000, "BDT"), payment: .card, customerId: Shop.ann)
        #expect(DomainEventCodec.encode(named).prefix(2) == [0, 2])
        #expect(try InStoreSaleCompleted.decoded(from: DomainEventCodec.encode(named)) == named)
    }
}
