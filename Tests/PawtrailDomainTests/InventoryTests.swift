import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Inventory")
struct InventoryTests {
    static func floorWithLitter() async throws -> DomainScenario {
        let s = try await Shop.floor()
        try await s.product("litter")
        return s
    }

    @Test func anAdminReceivesStock() async throws {
        let s = try await Self.floorWithLitter()
        try await s.then(
            Shop.admin, ReceiveStock(productId: "litter", quantity: 12),
            appends: [(stream("inventory-litter"), StockReceived(productId: "litter", quantity: 12))])
        try await s.then(
            Shop.admin, ReceiveStock(productId: "litter", quantity: 3),
            appends: [(stream("inventory-litter"), StockReceived(productId: "litter", quantity: 3))])
        let stock = try await s.state(InventoryState.self, Streams.inventory("litter"))
        #expect(stock.onHand == 15 && stock.reserved == 0 && stock.available == 15)
    }

    @Test func aDelistedProductStillReceivesStock() async throws {
        let s = try await Self.floorWithLitter()
        try await s.given(Streams.product("litter"), ProductDelisted(productId: "litter"))
        try await s.then(
            Shop.admin, ReceiveStock(productId: "litter", quantity: 1),
            appends: [(stream("inventory-litter"), StockReceived(productId: "litter", quantity: 1))])
    }

    @Test(arguments: [Int64(0), -1, 1_000_001]) func receivedQuantitiesOutOfRangeAreRejected(_ q: Int64) async throws {
        try await Self.floorWithLitter().then(
            Shop.admin, ReceiveStock(productId: "litter", quantity: q),
            throws: .invalid(field: "quantity", reason: "must be between 1 and 1000000, got \(q)"))
    }

    @Test func stockIsReceivedOnlyForListedProducts() async throws {
        try await Self.floorWithLitter().then(
            Shop.admin, ReceiveStock(productId: "ghost", quantity: 1), throws: .notFound("product 'ghost' does not exist"))
        try await Self.floorWithLitter().then(
            Shop.admin, AdjustStock(productId: "ghost", delta: 1, reason: "count"), throws: .notFound("product 'ghost' does not exist"))
    }

    @Test func anAdminAdjustsStockWithAReason() async throws {
        let s = try await Self.floorWithLitter()
        try await s.given(Streams.inventory("litter"), StockReceived(productId: "litter", quantity: 10))
        try await s.then(
            Shop.admin, AdjustStock(productId: "litter", delta: -2, reason: " two bags torn "),
            appends: [(stream("inventory-litter"), StockAdjusted(productId: "litter", delta: -2, reason: "two bags torn"))])
        try await s.then(
            Shop.admin, AdjustStock(productId: "litter", delta: 1, reason: "found in the back room"),
            appends: [(stream("inventory-litter"), StockAdjusted(productId: "litter", delta: 1, reason: "found in the back room"))])
        #expect(try await s.state(InventoryState.self, Streams.inventory("litter")).onHand == 9)
    }

    @Test func adjustmentsAreNonZeroWithAReason() async throws {
        let s = try await Self.floorWithLitter()
        try await s.then(Shop.admin, AdjustStock(productId: "litter", delta: 0, reason: "x"), throws: .invalid(field: "delta", reason: "must not be zero"))
        try await s.then(
            Shop.admin, AdjustStock(productId: "litter", delta: -1_000_001, reason: "x"),
            throws: .invalid(field: "delta", reason: "must be between -1000000 and 1000000, got -1000001"))
        try await s.then(Shop.admin, AdjustStock(productId: "litter", delta: 1, reason: "  "), throws: .invalid(field: "reason", reason: "must not be empty"))
    }

    @Test func onHandNeverGoesBelowZero() async throws {
        let s = try await Self.floorWithLitter()
        try await s.given(Streams.inventory("litter"), StockReceived(productId: "litter", quantity: 4))
        try await s.then(
            Shop.admin, AdjustStock(productId: "litter", delta: -5, reason: "count"),
            throws: .rejected("product 'litter' has 4 on hand with 0 reserved for orders; on hand can go down by at most 4, not 5"))
        try await s.then(
            Shop.admin, AdjustStock(productId: "litter", delta: -4, reason: "count"),
            appends: [(stream("inventory-litter"), StockAdjusted(productId: "litter", delta: -4, reason: "count"))])
    }

    @Test func onHandNeverGoesBelowWhatIsReserved() async throws {
        let s = try await Self.floorWithLitter()
        try await s.given(
            Streams.inventory("litter"), StockReceived(productId: "litter", quantity: 10),
            StockReserved(productId: "litter", orderId: "o-1", quantity: 7))
        try await s.then(
            Shop.admin, AdjustStock(productId: "litter", delta: -4, reason: "count"),
            throws: .rejected("product 'litter' has 10 on hand with 7 reserved for orders; on hand can go down by at most 3, not 4"))
        try await s.then(
            Shop.admin, AdjustStock(productId: "litter", delta: -3, reason: "count"),
            appends: [(stream("inventory-litter"), StockAdjusted(productId: "litter", delta: -3, reason: "count"))])
        let stock = try await s.state(InventoryState.self, Streams.inventory("litter"))
        #expect(stock.onHand == 7 && stock.reserved == 7 && stock.available == 0)
    }

    @Test func theStateFollowsEveryStockMovement() {
        let state = InventoryState.folded([
            StockReceived(productId: "p", quantity: 20),
            StockReserved(productId: "p", orderId: "o-1", quantity: 5),
            StockReserved(productId: "p", orderId: "o-2", quantity: 3),
            StockSoldInStore(productId: "p", saleId: "s-1", quantity: 2),
            StockReleased(productId: "p", orderId: "o-2", quantity: 3),
            StockReservationFulfilled(productId: "p", orderId: "o-1", quantity: 5),
            StockAdjusted(productId: "p", delta: -1, reason: "torn"),
        ])
        #expect(state.onHand == 12)
        #expect(state.reserved == 0)
        #expect(state.available == 12)
        #expect(state.reservations.isEmpty)
    }

    @Test func onlyAdminsReceiveAndAdjust() async throws {
        let s = try await Self.floorWithLitter()
        try await s.refuses(ReceiveStock(productId: "litter", quantity: 1), Shop.notAdmin("inventory.receive", "receive stock"))
        try await s.refuses(AdjustStock(productId: "litter", delta: 1, reason: "x"), Shop.notAdmin("inventory.adjust", "adjust stock"))
    }
}
