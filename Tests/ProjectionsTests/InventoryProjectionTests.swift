import Events
import Projections
import Testing

@Suite("Inventory projection")
struct InventoryProjectionTests {
    static func listed(_ id: String, _ name: String, category: String = "cat") -> ProductListed {
        ProductListed(productId: id, name: name, price: Money(62_000, "BDT"), category: category, tags: [], imageRef: "img")
    }

    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("product-litter", listed("litter", "Cat Litter 10L"))
        s.given("product-bowl", listed("bowl", "Steel Bowl", category: "accessories"))
        s.given("inventory-litter", StockReceived(productId: "litter", quantity: 15))
        s.given("inventory-bowl", StockReceived(productId: "bowl", quantity: 4))
        s.given("inventory-litter", StockReserved(productId: "litter", orderId: "o-1", quantity: 3))
        s.given("inventory-litter", StockReserved(productId: "litter", orderId: "o-2", quantity: 2))
        s.given("inventory-litter", StockReleased(productId: "litter", orderId: "o-2", quantity: 2))
        s.given("inventory-litter", StockReservationFulfilled(productId: "litter", orderId: "o-1", quantity: 3))
        s.given("inventory-litter", StockSoldInStore(productId: "litter", saleId: "s-1", quantity: 1))
        s.given("inventory-litter", StockAdjusted(productId: "litter", delta: -1, reason: "torn bag"))
        return s
    }

    @Test func stockFollowsReservationsShipmentsAndSales() throws {
        let state = try Self.scenario().state(InventoryProjection.self)
        #expect(state.products["litter"] == InventoryProjection.Row(name: "Cat Litter 10L", category: "cat", onHand: 10, reserved: 0, sold: 4))
        #expect(state.products["bowl"] == InventoryProjection.Row(name: "Steel Bowl", category: "accessories", onHand: 4))
    }

    @Test func theLowStockListHoldsListedProductsAtOrBelowTheThreshold() throws {
        var s = Self.scenario()
        let out = try s.view(LowStockView.self)
        #expect(out.rows.map { $0[0] } == ["bowl"])
        #expect(try s.view(LowStockView.self, ["threshold": "10"]).rows.map { $0[0] } == ["bowl", "litter"])
        s.given("product-bowl", ProductDelisted(productId: "bowl"))
        #expect(try s.view(LowStockView.self).rows.isEmpty, "a delisted product is not restocked")
        #expect(throws: ViewError.invalid("threshold", "'x' is not an integer between 0 and 1000000")) {
            try s.view(LowStockView.self, ["threshold": "x"])
        }
    }

    @Test func theInventoryViewFiltersByCategory() throws {
        let out = try Self.scenario().view(InventoryView.self, ["category": "cat"])
        #expect(out.rows == [["litter", "Cat Litter 10L", "10", "0", "10", "4"]])
    }
}
