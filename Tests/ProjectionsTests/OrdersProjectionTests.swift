import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

@Suite("Orders projection")
struct OrdersProjectionTests {
    typealias Order = OrdersProjection.Order
    typealias Step = OrdersProjection.Step

    static func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    static func line(
        _ id: String, _ name: String, _ price: Int64, _ quantity: Int64, currency: String = "BDT"
    ) -> PurchaseLine {
        PurchaseLine(
            productId: id, name: name, category: "cat", imageRef: "img/\(id)", unitPrice: Money(price, currency),
            quantity: quantity, lineTotal: Money(price * quantity, currency))
    }

    static func placed(
        _ orderId: String, _ customer: String, _ lines: [PurchaseLine], slot: String = "2026-12-05T10:00:00Z"
    )
        -> OrderPlaced
    {
        let total = Money(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }, lines[0].lineTotal.currency)
        return OrderPlaced(
            orderId: orderId, customerId: customer, lines: lines, subtotal: total, total: total,
            deliveryAddress: "House 4, Road 2, Dhanmondi", deliverySlot: t(slot), recipientName: "Rina Das",
            recipientPhone: "+8801711000000", payment: .cash)
    }

    static let litter2 = line("litter", "Cat Litter 10L", 62_000, 2)
    static let bowl1 = line("bowl", "Steel Bowl", 25_000, 1)

    /// u-1: o-1 placed, confirmed, shipped, delivered; o-2 placed and cancelled by the customer with a reason; o-4
    /// placed at the same instant as o-2. u-2: o-3 placed, confirmed, cancelled by staff without a reason.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given(
            "order-o-1", placed("o-1", "u-1", [litter2, bowl1], slot: "2026-12-02T10:00:00Z"),
            at: "2026-12-01T09:00:00Z", actor: "u-1")
        s.given(
            "order-o-3", placed("o-3", "u-2", [line("treats", "Chicken Treats", 15_000, 3)]),
            at: "2026-12-01T09:10:00Z", actor: "u-2")
        s.given(
            "order-o-1", OrderConfirmed(orderId: "o-1", confirmedBy: "s-1"), at: "2026-12-01T09:30:00Z", actor: "s-1")
        s.given(
            "order-o-3", OrderConfirmed(orderId: "o-3", confirmedBy: "s-1"), at: "2026-12-01T09:31:00Z", actor: "s-1")
        s.given("order-o-1", OrderShipped(orderId: "o-1", shippedBy: "s-1"), at: "2026-12-02T08:00:00Z", actor: "s-1")
        s.given(
            "order-o-3", OrderCancelled(orderId: "o-3", cancelledBy: "s-2"), at: "2026-12-02T08:05:00Z", actor: "s-2")
        s.given(
            "order-o-1", OrderDelivered(orderId: "o-1", deliveredBy: "s-2"), at: "2026-12-02T11:15:00Z", actor: "s-2")
        s.given("order-o-2", placed("o-2", "u-1", [bowl1]), at: "2026-12-02T12:00:00Z", actor: "u-1")
        s.given(
            "order-o-4", placed("o-4", "u-1", [line("bowl", "Steel Bowl", 25_000, 2)]), at: "2026-12-02T12:00:00Z",
            actor: "u-1")
        s.given(
            "order-o-2", OrderCancelled(orderId: "o-2", cancelledBy: "u-1", reason: "ordered twice"),
            at: "2026-12-02T12:30:00Z", actor: "u-1")
        return s
    }

    @Test func anOrderKeepsItsLinesTotalsDeliveryAndEveryStatusChange() throws {
        let state = try Self.scenario().state(OrdersProjection.self)
        #expect(
            state.orders["o-1"]
                == Order(
                    customerId: "u-1", placedAt: Self.t("2026-12-01T09:00:00Z"), lines: [Self.litter2, Self.bowl1],
                    subtotal: Money(149_000, "BDT"), total: Money(149_000, "BDT"),
                    deliveryAddress: "House 4, Road 2, Dhanmondi", deliverySlot: Self.t("2026-12-02T10:00:00Z"),
                    recipientName: "Rina Das", recipientPhone: "+8801711000000", payment: .cash, status: .delivered,
                    timeline: [
                        Step(status: .placed, at: Self.t("2026-12-01T09:00:00Z"), actor: "u-1"),
                        Step(status: .confirmed, at: Self.t("2026-12-01T09:30:00Z"), actor: "s-1"),
                        Step(status: .shipped, at: Self.t("2026-12-02T08:00:00Z"), actor: "s-1"),
                        Step(status: .delivered, at: Self.t("2026-12-02T11:15:00Z"), actor: "s-2"),
                    ]))
        #expect(state.orders["o-2"]?.status == .cancelled)
        #expect(
            state.orders["o-2"]?.timeline == [
                Step(status: .placed, at: Self.t("2026-12-02T12:00:00Z"), actor: "u-1"),
                Step(status: .cancelled, at: Self.t("2026-12-02T12:30:00Z"), actor: "u-1", reason: "ordered twice"),
            ])
        #expect(
            state.orders["o-3"]?.timeline == [
                Step(status: .placed, at: Self.t("2026-12-01T09:10:00Z"), actor: "u-2"),
                Step(status: .confirmed, at: Self.t("2026-12-01T09:31:00Z"), actor: "s-1"),
                Step(status: .cancelled, at: Self.t("2026-12-02T08:05:00Z"), actor: "s-2"),
            ])
        #expect(state.orders["o-4"]?.status == .placed)
        #expect(state.byCustomer["u-1"]?.ids == ["o-1", "o-2", "o-4"], "in the order they were placed")
        #expect(state.byCustomer["u-2"]?.ids == ["o-3"])
        #expect(state.orders.count == 4 && state.byCustomer.count == 2)
    }

    @Test func theTimelineUsesTheBusinessTimeNotTheRecordingTime() throws {
        var s = ProjectionScenario()
        s.given("order-o-1", Self.placed("o-1", "u-1", [Self.bowl1]), at: "2026-11-30T23:59:00Z")
        // Recorded long after the command's clock said it happened (a replayed import, say).
        var late = s.events
        late[0].recordedAt = Self.t("2026-12-07T00:00:00Z")
        let state = try OrdersProjection.folded(late)
        #expect(state.orders["o-1"]?.placedAt == Self.t("2026-11-30T23:59:00Z"))
        #expect(state.orders["o-1"]?.timeline.map(\.at) == [Self.t("2026-11-30T23:59:00Z")])
    }

    @Test func aCustomersOrdersAreListedNewestFirst() throws {
        let out = try Self.scenario().view(CustomerOrdersView.self, ["customer": "u-1"])
        #expect(out.title == "Orders of u-1")
        #expect(out.header == ["ORDER", "PLACED", "STATUS", "UNITS", "TOTAL", "DELIVERY SLOT"])
        // o-2 and o-4 were placed at the same instant: the later in the log comes first.
        #expect(
            out.rows == [
                ["o-4", "2026-12-02T12:00:00Z", "placed", "2", "500.00 BDT", "2026-12-05T10:00:00Z"],
                ["o-2", "2026-12-02T12:00:00Z", "cancelled", "1", "250.00 BDT", "2026-12-05T10:00:00Z"],
                ["o-1", "2026-12-01T09:00:00Z", "delivered", "3", "1,490.00 BDT", "2026-12-02T10:00:00Z"],
            ])
        #expect(out.footer == [])
        #expect(
            out.json.serialized
                == #"[{"orderId":"o-4","placedAt":"2026-12-02T12:00:00Z","status":"placed","lines":1,"units":2,"#
                + #""total":{"amount":50000,"currency":"BDT"},"deliverySlot":"2026-12-05T10:00:00Z"},"#
                + #"{"orderId":"o-2","placedAt":"2026-12-02T12:00:00Z","status":"cancelled","lines":1,"units":1,"#
                + #""total":{"amount":25000,"currency":"BDT"},"deliverySlot":"2026-12-05T10:00:00Z"},"#
                + #"{"orderId":"o-1","placedAt":"2026-12-01T09:00:00Z","status":"delivered","lines":2,"units":3,"#
                + #""total":{"amount":149000,"currency":"BDT"},"deliverySlot":"2026-12-02T10:00:00Z"}]"#)
        let other = try Self.scenario().view(CustomerOrdersView.self, ["customer": "u-2"])
        #expect(
            other.rows == [["o-3", "2026-12-01T09:10:00Z", "cancelled", "3", "450.00 BDT", "2026-12-05T10:00:00Z"]])
    }

    @Test func aCustomerWithoutOrdersGetsAnEmptyListNotAnError() throws {
        let out = try Self.scenario().view(CustomerOrdersView.self, ["customer": "u-x"])
        #expect(out.rows.isEmpty)
        #expect(out.footer == ["no orders for 'u-x'"])
        #expect(out.json == .array([]))
        #expect(throws: ViewError.missing("customer")) { try Self.scenario().view(CustomerOrdersView.self) }
    }

    @Test func oneOrderInDetailWithItsTimeline() throws {
        let out = try Self.scenario().view(OrderDetailView.self, ["id": "o-1"])
        #expect(out.title == "Order o-1")
        #expect(out.header == ["PRODUCT", "NAME", "UNIT PRICE", "QTY", "LINE TOTAL"])
        #expect(
            out.rows == [
                ["litter", "Cat Litter 10L", "620.00 BDT", "2", "1,240.00 BDT"],
                ["bowl", "Steel Bowl", "250.00 BDT", "1", "250.00 BDT"],
            ])
        #expect(
            out.footer == [
                "Subtotal: 1,490.00 BDT",
                "Total: 1,490.00 BDT",
                "Status: delivered",
                "Customer: u-1",
                "Deliver to: Rina Das, +8801711000000, House 4, Road 2, Dhanmondi",
                "Delivery slot: 2026-12-02T10:00:00Z; payment: cash",
                "Paid: not yet",
                "Timeline:",
                "  2026-12-01T09:00:00Z  placed by u-1",
                "  2026-12-01T09:30:00Z  confirmed by s-1",
                "  2026-12-02T08:00:00Z  shipped by s-1",
                "  2026-12-02T11:15:00Z  delivered by s-2",
            ])
        #expect(
            out.json.serialized
                == #"{"orderId":"o-1","customerId":"u-1","status":"delivered","placedAt":"2026-12-01T09:00:00Z","lines":["#
                + #"{"productId":"litter","name":"Cat Litter 10L","category":"cat","unitPrice":{"amount":62000,"currency":"BDT"},"#
                + #""quantity":2,"lineTotal":{"amount":124000,"currency":"BDT"}},"#
                + #"{"productId":"bowl","name":"Steel Bowl","category":"cat","unitPrice":{"amount":25000,"currency":"BDT"},"#
                + #""quantity":1,"lineTotal":{"amount":25000,"currency":"BDT"}}],"#
                + #""subtotal":{"amount":149000,"currency":"BDT"},"total":{"amount":149000,"currency":"BDT"},"#
                + #""delivery":{"address":"House 4, Road 2, Dhanmondi","slot":"2026-12-02T10:00:00Z","recipientName":"Rina Das","#
                + #""recipientPhone":"+8801711000000","payment":"cash"},"collected":null,"refunded":{"amount":0,"currency":"BDT"},"#
                + #""returned":{},"timeline":["#
                + #"{"status":"placed","at":"2026-12-01T09:00:00Z","actor":"u-1","reason":null},"#
                + #"{"status":"confirmed","at":"2026-12-01T09:30:00Z","actor":"s-1","reason":null},"#
                + #"{"status":"shipped","at":"2026-12-02T08:00:00Z","actor":"s-1","reason":null},"#
                + #"{"status":"delivered","at":"2026-12-02T11:15:00Z","actor":"s-2","reason":null}]}"#)
    }

    @Test func aCancelledOrderShowsWhoCancelledItAndWhy() throws {
        let out = try Self.scenario().view(OrderDetailView.self, ["id": "o-2"])
        #expect(out.footer.contains("Status: cancelled"))
        #expect(
            Array(out.footer.suffix(3)) == [
                "Timeline:", "  2026-12-02T12:00:00Z  placed by u-1",
                "  2026-12-02T12:30:00Z  cancelled by u-1: ordered twice",
            ])
        #expect(
            out.json["timeline"]?.serialized
                == #"[{"status":"placed","at":"2026-12-02T12:00:00Z","actor":"u-1","reason":null},"#
                + #"{"status":"cancelled","at":"2026-12-02T12:30:00Z","actor":"u-1","reason":"ordered twice"}]"#)
        let staff = try Self.scenario().view(OrderDetailView.self, ["id": "o-3"])
        #expect(
            Array(staff.footer.suffix(1)) == ["  2026-12-02T08:05:00Z  cancelled by s-2"], "no reason given, none shown"
        )
    }

    @Test func anUnknownOrderIsNotFound() throws {
        #expect(throws: ViewError.notFound("no order 'o-9'")) {
            try Self.scenario().view(OrderDetailView.self, ["id": "o-9"])
        }
        #expect(throws: ViewError.missing("id")) { try Self.scenario().view(OrderDetailView.self) }
    }

    @Test func aStatusChangeOfAnOrderNeverPlacedOrASecondPlacingStopsTheFold() throws {
        var s = ProjectionScenario()
        s.given("order-o-7", OrderShipped(orderId: "o-7", shippedBy: "s-1"))
        #expect(throws: ProjectionError("order 'o-7' became shipped but was never placed")) {
            try OrdersProjection.folded(s.events)
        }
        var twice = ProjectionScenario()
        twice.given("order-o-1", Self.placed("o-1", "u-1", [Self.bowl1]))
        twice.given("order-o-1", Self.placed("o-1", "u-1", [Self.bowl1]))
        #expect(throws: ProjectionError("order 'o-1' was placed twice")) { try OrdersProjection.folded(twice.events) }
    }

    @Test func anOrderShowsItsPaymentReturnsAndRefunds() throws {
        var s = Self.scenario()
        s.given("order-o-1", OrderPaymentCollected(orderId: "o-1", amount: Money(149_000, "BDT"), method: .cash, collectedBy: "s-2"))
        s.given(
            "order-o-1",
            OrderReturned(
                orderId: "o-1", lines: [ReturnedLine(productId: "litter", name: "Cat Litter 10L", quantity: 1, amount: Money(62_000, "BDT"))],
                restocked: true, returnedBy: "s-1"))
        s.given("order-o-1", OrderRefunded(orderId: "o-1", amount: Money(62_000, "BDT"), refundedBy: "s-1"))
        let out = try s.view(OrderDetailView.self, ["id": "o-1"])
        #expect(out.footer.contains("Paid: 1,490.00 BDT collected, 620.00 BDT refunded"), "\(out.footer)")
        #expect(out.footer.contains("Returned: 1 of litter"), "\(out.footer)")
        #expect(out.json["returned"]?.serialized == #"{"litter":1}"#)
        #expect(out.json["refunded"]?.serialized == #"{"amount":62000,"currency":"BDT"}"#)
        // As of before the refund, the order was paid in full.
        let before = try OrdersProjection.folded(Array(s.events.dropLast()))
        #expect(before.orders["o-1"]?.collected == Money(149_000, "BDT") && before.orders["o-1"]?.refunded == 0)
    }

    @Test func itReadsOnlyOrderEvents() {
        #expect(
            OrdersProjection.eventTypes == [
                "OrderPlaced", "OrderConfirmed", "OrderShipped", "OrderDelivered", "OrderCancelled", "OrderPaymentCollected",
                "OrderReturned", "OrderRefunded",
            ])
    }
}
