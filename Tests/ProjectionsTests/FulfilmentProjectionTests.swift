import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

@Suite("Fulfilment projection")
struct FulfilmentProjectionTests {
    static func placed(_ id: String, _ customer: String, units: Int64 = 1) -> OrderPlaced {
        let line = PurchaseLine(
            productId: "litter", name: "Litter", category: "cat", imageRef: "img", unitPrice: Money(62_000, "BDT"), quantity: units,
            lineTotal: Money(62_000 * units, "BDT"))
        return OrderPlaced(
            orderId: id, customerId: customer, lines: [line], subtotal: line.lineTotal, total: line.lineTotal,
            deliveryAddress: "Road 1", deliverySlot: Timestamp(iso8601: "2026-12-05T10:00:00Z")!, recipientName: "Ann",
            recipientPhone: "+880 1711 100037", payment: .cash)
    }

    /// o-1 placed 09:00 and confirmed 10:00, o-2 placed 09:30 and shipped at 11:00, o-3 placed 10:30, o-4 delivered,
    /// o-5 cancelled.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("order-o-1", placed("o-1", "u-ann", units: 2), at: "2026-12-01T09:00:00Z")
        s.given("order-o-2", placed("o-2", "u-bob"), at: "2026-12-01T09:30:00Z")
        s.given("order-o-4", placed("o-4", "u-bob"), at: "2026-12-01T09:40:00Z")
        s.given("order-o-5", placed("o-5", "u-cat"), at: "2026-12-01T09:50:00Z")
        s.given("order-o-1", OrderConfirmed(orderId: "o-1", confirmedBy: "u-sam"), at: "2026-12-01T10:00:00Z")
        s.given("order-o-2", OrderConfirmed(orderId: "o-2", confirmedBy: "u-sam"), at: "2026-12-01T10:05:00Z")
        s.given("order-o-4", OrderConfirmed(orderId: "o-4", confirmedBy: "u-sam"), at: "2026-12-01T10:06:00Z")
        s.given("order-o-3", placed("o-3", "u-ann"), at: "2026-12-01T10:30:00Z")
        s.given("order-o-2", OrderShipped(orderId: "o-2", shippedBy: "u-sam"), at: "2026-12-01T11:00:00Z")
        s.given("order-o-4", OrderShipped(orderId: "o-4", shippedBy: "u-sam"), at: "2026-12-01T11:01:00Z")
        s.given("order-o-4", OrderDelivered(orderId: "o-4", deliveredBy: "u-sam"), at: "2026-12-01T11:30:00Z")
        s.given("order-o-5", OrderCancelled(orderId: "o-5", cancelledBy: "u-cat", reason: nil), at: "2026-12-01T11:40:00Z")
        return s
    }

    @Test func openOrdersByStageOldestFirstWithTheirAges() throws {
        let out = try FulfilmentView.render(Self.scenario().state(FulfilmentProjection.self), ViewArguments(["now": "2026-12-02T12:15:00Z"]))
        #expect(out.title == "Fulfilment as of 2026-12-02T12:15:00Z")
        #expect(
            out.rows == [
                ["to-confirm", "o-3", "u-ann", "2026-12-01 10:30", "1d 1h", "1d 1h", "1", "620.00 BDT", "cash"],
                ["to-ship", "o-1", "u-ann", "2026-12-01 09:00", "1d 3h", "1d 2h", "2", "1,240.00 BDT", "cash"],
                ["to-deliver", "o-2", "u-bob", "2026-12-01 09:30", "1d 2h", "1d 1h", "1", "620.00 BDT", "cash"],
            ])
        #expect(out.footer == ["1 to confirm, 1 to ship, 1 to deliver"])
        guard case .array(let toShip)? = out.json["stages"]?["to-ship"] else { Issue.record("no stage"); return }
        #expect(toShip.first?["ageSeconds"] == .int(98_100))
    }

    @Test func withoutAMomentAgesCountToTheNewestOrderEvent() throws {
        let out = try Self.scenario().view(FulfilmentView.self, ["stage": "to-confirm"])
        #expect(out.title == "Fulfilment as of 2026-12-01T11:40:00Z")
        #expect(out.rows == [["to-confirm", "o-3", "u-ann", "2026-12-01 10:30", "1h 10m", "1h 10m", "1", "620.00 BDT", "cash"]])
        #expect(out.footer == ["1 to confirm"])
        let empty = try ProjectionScenario().view(FulfilmentView.self)
        #expect(empty.rows.isEmpty && empty.title == "Fulfilment" && empty.footer == ["0 to confirm, 0 to ship, 0 to deliver"])
    }

    @Test func aStageIsOneOfThree() {
        #expect(throws: ViewError.invalid("stage", "'packed' is not one of 'to-confirm', 'to-ship', 'to-deliver'")) {
            try Self.scenario().view(FulfilmentView.self, ["stage": "packed"])
        }
    }

    @Test func deliveredAndCancelledOrdersLeaveTheQueueWhereverTheyWere() throws {
        var s = Self.scenario()
        s.given("order-o-3", OrderCancelled(orderId: "o-3", cancelledBy: "u-ann", reason: "changed my mind"))
        s.given("order-o-1", OrderCancelled(orderId: "o-1", cancelledBy: "u-sam", reason: nil))
        s.given("order-o-2", OrderDelivered(orderId: "o-2", deliveredBy: "u-sam"))
        let state = try s.state(FulfilmentProjection.self)
        #expect(FulfilmentProjection.Stage.allCases.allSatisfy { state.orders(at: $0).isEmpty })
        #expect(state.queue.entries.isEmpty, "no row is left behind")
    }
}
