import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

@Suite("Dashboard projection")
struct DashboardProjectionTests {
    typealias D = DashboardProjection

    static func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    static let catalog: [(id: String, name: String, price: Int64, currency: String)] = [
        ("litter", "Cat Litter 10L", 62_000, "BDT"), ("bowl", "Steel Bowl", 25_000, "BDT"),
        ("treats", "Chicken Treats", 15_000, "BDT"), ("brush", "Slicker Brush", 5_000, "BDT"),
        ("collar", "Leather Collar", 40_000, "BDT"), ("shampoo", "Oat Shampoo", 30_000, "BDT"),
        ("leash", "Rope Leash", 30_000, "BDT"), ("catnip", "Catnip Pouch", 10_000, "BDT"),
        ("toy", "Feather Wand", 500, "USD"),
    ]

    static func line(_ id: String, _ quantity: Int64) -> PurchaseLine {
        let p = catalog.first { $0.id == id }!
        return PurchaseLine(
            productId: id, name: p.name, category: "cat", imageRef: "img/\(id)", unitPrice: Money(p.price, p.currency),
            quantity: quantity, lineTotal: Money(p.price * quantity, p.currency))
    }

    static func total(_ lines: [PurchaseLine]) -> Money {
        Money(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }, lines[0].lineTotal.currency)
    }

    /// The time of one command's append: the given time, else a minute after the previous event. Every event of the
    /// append carries it, as the command's clock stamps them all alike.
    static func clock(_ s: ProjectionScenario, _ at: String?) -> String {
        at ?? Timestamp(microsecondsSinceEpoch: s.events.last!.occurredAt.microsecondsSinceEpoch + 60_000_000).iso8601
    }

    /// An order placed with its reservations, as `order.place` appends them.
    static func place(
        _ s: inout ProjectionScenario, _ orderId: String, _ customer: String, _ lines: [PurchaseLine], at: String? = nil
    ) {
        let at = clock(s, at)
        for l in lines {
            s.given(
                "inventory-\(l.productId)",
                StockReserved(productId: l.productId, orderId: orderId, quantity: l.quantity), at: at)
        }
        s.given(
            "order-\(orderId)",
            OrderPlaced(
                orderId: orderId, customerId: customer, lines: lines, subtotal: total(lines), total: total(lines),
                deliveryAddress: "House 4", deliverySlot: t("2026-12-10T10:00:00Z"), recipientName: "R",
                recipientPhone: "+8801711000000",
                payment: .cash), at: at)
    }

    /// A till sale with its stock movements, as `pos.sell` appends them.
    static func sell(_ s: inout ProjectionScenario, _ saleId: String, _ lines: [PurchaseLine], at: String? = nil) {
        let at = clock(s, at)
        s.given(
            "sale-\(saleId)",
            InStoreSaleCompleted(saleId: saleId, soldBy: "s-1", lines: lines, total: total(lines), payment: .cash),
            at: at)
        for l in lines {
            s.given(
                "inventory-\(l.productId)",
                StockSoldInStore(productId: l.productId, saleId: saleId, quantity: l.quantity), at: at)
        }
    }

    /// A shipping with its fulfilled reservations, as `order.ship` appends them.
    static func ship(_ s: inout ProjectionScenario, _ orderId: String, _ lines: [PurchaseLine], at: String? = nil) {
        let at = clock(s, at)
        s.given("order-\(orderId)", OrderShipped(orderId: orderId, shippedBy: "s-1"), at: at)
        for l in lines {
            s.given(
                "inventory-\(l.productId)",
                StockReservationFulfilled(productId: l.productId, orderId: orderId, quantity: l.quantity), at: at)
        }
    }

    /// Three days of business (2026-12-01 to 2026-12-03), then bookings and vet requests on the third.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        // 2026-12-01: two sign-ups, the catalog and its stock, two orders (the second a minute before midnight).
        s.given(
            "account-u-1", AccountSignedUp(userId: "u-1", name: "Rina", email: "rina@example.com", language: .bnBD),
            at: "2026-12-01T09:00:00Z")
        s.given("account-u-2", AccountSignedUp(userId: "u-2", name: "Omar", email: "omar@example.com", language: .enUS))
        for p in catalog {
            s.given(
                "product-\(p.id)",
                ProductListed(
                    productId: p.id, name: p.name, price: Money(p.price, p.currency), category: "cat", tags: [],
                    imageRef: "img"))
        }
        for (id, n) in [
            ("litter", 15), ("bowl", 4), ("treats", 10), ("brush", 8), ("collar", 2), ("leash", 10), ("catnip", 10),
            ("toy", 20),
        ] {
            s.given("inventory-\(id)", StockReceived(productId: id, quantity: Int64(n)))
        }
        s.given("product-collar", ProductDelisted(productId: "collar"))
        let o1 = [line("litter", 2), line("bowl", 1)]
        place(&s, "o-1", "u-1", o1, at: "2026-12-01T10:00:00Z")
        s.given("order-o-1", OrderConfirmed(orderId: "o-1", confirmedBy: "s-1"))
        place(&s, "o-2", "u-2", [line("treats", 3)], at: "2026-12-01T23:59:00Z")
        // 2026-12-02: o-1 ships at midnight and is delivered; a till sale; a stock correction.
        ship(&s, "o-1", o1, at: "2026-12-02T00:00:00Z")
        s.given("order-o-1", OrderDelivered(orderId: "o-1", deliveredBy: "s-2"))
        sell(&s, "s-1", [line("litter", 1), line("brush", 4)], at: "2026-12-02T15:00:00Z")
        s.given("inventory-treats", StockAdjusted(productId: "treats", delta: -6, reason: "water damage"))
        // 2026-12-03: a sign-up; o-2 (placed on the 1st) is cancelled; o-3 confirmed; o-4 shipped then cancelled by
        // staff (its units come back with the courier); o-5 placed; two till sales, one in USD.
        s.given(
            "account-u-3", AccountSignedUp(userId: "u-3", name: "Tania", email: "tania@example.com", language: .enUS),
            at: "2026-12-03T08:00:00Z")
        s.given(
            "order-o-2", OrderCancelled(orderId: "o-2", cancelledBy: "u-2", reason: "changed my mind"),
            at: "2026-12-03T08:10:00Z")
        s.given(
            "inventory-treats", StockReleased(productId: "treats", orderId: "o-2", quantity: 3),
            at: "2026-12-03T08:10:00Z")
        place(&s, "o-3", "u-1", [line("bowl", 2)])
        s.given("order-o-3", OrderConfirmed(orderId: "o-3", confirmedBy: "s-1"))
        let o4 = [line("litter", 1)]
        place(&s, "o-4", "u-3", o4)
        s.given("order-o-4", OrderConfirmed(orderId: "o-4", confirmedBy: "s-1"))
        ship(&s, "o-4", o4)
        s.given("order-o-4", OrderCancelled(orderId: "o-4", cancelledBy: "s-1", reason: "refused at the door"))
        s.given("inventory-litter", StockReturned(productId: "litter", orderId: "o-4", quantity: 1, restocked: true), at: clock(s, nil))
        place(&s, "o-5", "u-3", [line("litter", 1)])
        sell(&s, "s-2", [line("leash", 2), line("catnip", 1)])
        sell(&s, "s-3", [line("toy", 1)])
        // Bookings.
        func booking(
            _ id: String, _ pet: String, _ owner: String, _ service: GroomingService, _ slot: String, at: String
        ) {
            s.given(
                "booking-\(id)",
                BookingRequested(bookingId: id, petId: pet, ownerId: owner, service: service, slot: t(slot)), at: at)
        }
        func confirm(_ id: String, _ slot: String, at: String) {
            s.given(
                "booking-\(id)",
                BookingConfirmed(bookingId: id, slot: t(slot), reminderDueAt: t(slot), confirmedBy: "s-1"), at: at)
        }
        booking("b-1", "p-1", "u-1", .bath, "2026-12-05T10:00:00Z", at: "2026-12-03T12:00:00Z")
        booking("b-2", "p-2", "u-2", .haircut, "2026-12-05T11:00:00Z", at: "2026-12-03T12:01:00Z")
        confirm("b-2", "2026-12-05T11:00:00Z", at: "2026-12-03T12:02:00Z")
        booking("b-3", "p-1", "u-1", .nailTrim, "2026-12-05T12:00:00Z", at: "2026-12-03T12:03:00Z")
        confirm("b-3", "2026-12-05T12:00:00Z", at: "2026-12-03T12:04:00Z")
        s.given(
            "booking-b-3",
            BookingRescheduled(
                bookingId: "b-3", previousSlot: t("2026-12-05T12:00:00Z"), slot: t("2026-12-06T11:00:00Z"),
                rescheduledBy: "u-1"),
            at: "2026-12-03T12:10:00Z")
        booking("b-4", "p-3", "u-3", .fullGroom, "2026-12-05T13:00:00Z", at: "2026-12-03T12:11:00Z")
        s.given(
            "booking-b-4", BookingCancelled(bookingId: "b-4", cancelledBy: "u-3", reason: "travelling"),
            at: "2026-12-03T12:12:00Z")
        booking("b-5", "p-2", "u-2", .deShedding, "2026-12-04T08:00:00Z", at: "2026-12-03T12:13:00Z")
        confirm("b-5", "2026-12-04T08:00:00Z", at: "2026-12-03T12:14:00Z")
        s.given("booking-b-5", BookingCompleted(bookingId: "b-5", completedBy: "s-1"), at: "2026-12-03T12:15:00Z")
        booking("b-6", "p-3", "u-3", .bath, "2026-12-05T09:00:00Z", at: "2026-12-03T12:20:00Z")
        s.given(
            "booking-b-6",
            BookingRescheduled(
                bookingId: "b-6", previousSlot: t("2026-12-05T09:00:00Z"), slot: t("2026-12-04T09:00:00Z"),
                rescheduledBy: "s-1"),
            at: "2026-12-03T12:25:00Z")
        // Vet requests.
        func vet(_ id: String, _ pet: String, _ owner: String, _ urgency: VetUrgency, at: String) {
            s.given(
                "vet-\(id)",
                VetRequestSubmitted(requestId: id, petId: pet, ownerId: owner, symptoms: "itching", urgency: urgency),
                at: at)
        }
        vet("v-1", "p-1", "u-1", .normal, at: "2026-12-03T13:00:00Z")
        vet("v-2", "p-2", "u-2", .urgent, at: "2026-12-03T13:05:00Z")
        s.given("vet-v-2", VetRequestAnswered(requestId: "v-2", answer: "come in today", answeredBy: "s-3"))
        vet("v-3", "p-3", "u-3", .low, at: "2026-12-03T13:10:00Z")
        s.given("vet-v-3", VetRequestAnswered(requestId: "v-3", answer: "try a new shampoo", answeredBy: "s-3"))
        s.given("vet-v-3", VetRequestClosed(requestId: "v-3", closedBy: "s-3"))
        vet("v-4", "p-1", "u-1", .low, at: "2026-12-03T13:15:00Z")
        s.given("vet-v-4", VetRequestClosed(requestId: "v-4", closedBy: "s-3"))
        vet("v-5", "p-3", "u-3", .normal, at: "2026-12-03T13:20:00Z")
        return s
    }

    static func day(_ date: String) -> Int64 { D.dayNumber(t(date)) }

    // MARK: - The state

    @Test func ordersAreCountedByTheirCurrentStatus() throws {
        let state = try Self.scenario().state(D.self)
        #expect(state.ordersByStatus == ["placed": 1, "confirmed": 1, "shipped": 0, "delivered": 1, "cancelled": 2])
        // Only open orders keep their facts: o-1 was delivered, o-2 and o-4 cancelled, and those are final.
        #expect(Set(state.orders.keys) == ["o-3", "o-5"])
        #expect(state.orders["o-3"]?.status == .confirmed && state.orders["o-3"]?.total == Money(50_000, "BDT"))
        #expect(state.orders["o-5"]?.status == .placed && state.orders["o-5"]?.day == Self.day("2026-12-03"))
        // Before its cancellation o-2 was open, with the day it was placed (a minute before midnight).
        let events = Self.scenario().events
        let cancel = try #require(events.firstIndex { ($0.event as? OrderCancelled)?.orderId == "o-2" })
        let before = try D.folded(Array(events[..<cancel]))
        #expect(before.orders["o-2"]?.day == Self.day("2026-12-01") && before.orders["o-2"]?.status == .placed)
    }

    @Test func eachDayHoldsItsSignUpsAndItsTakingsPerCurrency() throws {
        let state = try Self.scenario().state(D.self)
        #expect(
            state.days == [
                Self.day("2026-12-01"): D.Day(signUps: 2, takings: ["BDT": D.Takings(orders: 1)]),
                // o-1 was placed on the 1st and delivered on the 2nd: its revenue is the 2nd's.
                Self.day("2026-12-02"): D.Day(
                    signUps: 0, takings: ["BDT": D.Takings(delivered: 1, deliveredAmount: 149_000, sales: 1, salesAmount: 82_000)]),
                Self.day("2026-12-03"): D.Day(
                    signUps: 1,
                    takings: [
                        "BDT": D.Takings(orders: 2, sales: 1, salesAmount: 70_000),
                        "USD": D.Takings(sales: 1, salesAmount: 500),
                    ]),
            ])
    }

    @Test func aCancelledOrderIsTakenOffTheDayItWasPlacedOnWhenItIsCancelled() throws {
        let events = Self.scenario().events
        let cancel = try #require(events.firstIndex { ($0.event as? OrderCancelled)?.orderId == "o-2" })
        let before = try D.folded(Array(events[..<cancel]))
        let after = try D.folded(Array(events[...cancel]))
        // o-2 was placed a minute before midnight on the 1st and cancelled on the 3rd.
        #expect(before.days[Self.day("2026-12-01")]?.takings["BDT"] == D.Takings(orders: 2))
        #expect(after.days[Self.day("2026-12-01")]?.takings["BDT"] == D.Takings(orders: 1))
        #expect(
            after.days[Self.day("2026-12-03")]?.takings["BDT"] == nil,
            "the cancelling day earns nothing and loses nothing")
        // Its units never left the shop, so they were never sold.
        #expect(before.sold["treats"] == D.Seller(name: "Chicken Treats", units: 0))
        #expect(after.sold["treats"] == D.Seller(name: "Chicken Treats", units: 0))
        #expect(
            before.ordersByStatus["placed"] == 1 && after.ordersByStatus["placed"] == 0
                && after.ordersByStatus["cancelled"] == 1)
    }

    @Test func stockFollowsReceiptsReservationsShipmentsSalesAndCorrections() throws {
        let state = try Self.scenario().state(D.self)
        #expect(
            state.stock == [
                "litter": D.Stock(name: "Cat Litter 10L", onHand: 12, reserved: 1),
                "bowl": D.Stock(name: "Steel Bowl", onHand: 3, reserved: 2),
                "treats": D.Stock(name: "Chicken Treats", onHand: 4, reserved: 0),
                "brush": D.Stock(name: "Slicker Brush", onHand: 4),
                "collar": D.Stock(name: "Leather Collar", listed: false, onHand: 2),
                "shampoo": D.Stock(name: "Oat Shampoo"),
                "leash": D.Stock(name: "Rope Leash", onHand: 8),
                "catnip": D.Stock(name: "Catnip Pouch", onHand: 9),
                "toy": D.Stock(name: "Feather Wand", onHand: 19),
            ])
    }

    @Test func unitsSoldCountUnitsShippedAndSoldAtTheTillLessThoseThatCameBack() throws {
        let state = try Self.scenario().state(D.self)
        // litter: 2 shipped in o-1, 1 at the till, 1 shipped in o-4 and back; o-5 is not shipped. bowl: o-3 is not shipped.
        #expect(
            state.sold == [
                "litter": D.Seller(name: "Cat Litter 10L", units: 3), "bowl": D.Seller(name: "Steel Bowl", units: 1),
                "treats": D.Seller(name: "Chicken Treats", units: 0),
                "brush": D.Seller(name: "Slicker Brush", units: 4),
                "leash": D.Seller(name: "Rope Leash", units: 2), "catnip": D.Seller(name: "Catnip Pouch", units: 1),
                "toy": D.Seller(name: "Feather Wand", units: 1),
            ])
    }

    @Test func onlyActiveBookingsAreKeptAndARescheduleMakesOneRequestedAgain() throws {
        let state = try Self.scenario().state(D.self)
        #expect(
            state.bookings == [
                "b-1": D.ActiveBooking(
                    petId: "p-1", ownerId: "u-1", service: .bath, slot: Self.t("2026-12-05T10:00:00Z"),
                    status: .requested,
                    since: Self.t("2026-12-03T12:00:00Z")),
                "b-2": D.ActiveBooking(
                    petId: "p-2", ownerId: "u-2", service: .haircut, slot: Self.t("2026-12-05T11:00:00Z"),
                    status: .confirmed,
                    since: Self.t("2026-12-03T12:01:00Z")),
                // Confirmed, then moved: staff confirmed the old slot, so it waits again from the move.
                "b-3": D.ActiveBooking(
                    petId: "p-1", ownerId: "u-1", service: .nailTrim, slot: Self.t("2026-12-06T11:00:00Z"),
                    status: .requested,
                    since: Self.t("2026-12-03T12:10:00Z")),
                "b-6": D.ActiveBooking(
                    petId: "p-3", ownerId: "u-3", service: .bath, slot: Self.t("2026-12-04T09:00:00Z"),
                    status: .requested,
                    since: Self.t("2026-12-03T12:25:00Z")),
            ])
    }

    @Test func onlyOpenVetRequestsAreKept() throws {
        let state = try Self.scenario().state(D.self)
        #expect(
            state.vet == [
                "v-1": D.OpenVetRequest(
                    petId: "p-1", ownerId: "u-1", urgency: .normal, status: .submitted,
                    submittedAt: Self.t("2026-12-03T13:00:00Z")),
                "v-2": D.OpenVetRequest(
                    petId: "p-2", ownerId: "u-2", urgency: .urgent, status: .answered,
                    submittedAt: Self.t("2026-12-03T13:05:00Z")),
                "v-5": D.OpenVetRequest(
                    petId: "p-3", ownerId: "u-3", urgency: .normal, status: .submitted,
                    submittedAt: Self.t("2026-12-03T13:20:00Z")),
            ])
    }

    @Test func eventsOfAFinishedBookingOrClosedRequestChangeNothing() throws {
        var s = Self.scenario()
        let before = try s.state(D.self)
        // b-4 was cancelled, b-5 completed and v-3 closed: the fold keeps no trace of them, and later events find none.
        s.given(
            "booking-b-4",
            BookingConfirmed(
                bookingId: "b-4", slot: Self.t("2026-12-05T13:00:00Z"), reminderDueAt: Self.t("2026-12-04T13:00:00Z"),
                confirmedBy: "s-1"))
        s.given(
            "booking-b-5",
            BookingRescheduled(
                bookingId: "b-5", previousSlot: Self.t("2026-12-04T08:00:00Z"), slot: Self.t("2026-12-07T08:00:00Z"),
                rescheduledBy: "s-1"))
        s.given("vet-v-3", VetRequestAnswered(requestId: "v-3", answer: "again", answeredBy: "s-3"))
        #expect(try s.state(D.self) == before)
    }

    @Test func daysAreUTCDaysOfTheBusinessTime() throws {
        #expect(D.dayNumber(Self.t("1970-01-01T00:00:00Z")) == 0)
        #expect(D.dayNumber(Self.t("1969-12-31T23:59:59.999999Z")) == -1)
        #expect(D.date(Self.day("2026-12-01T23:59:59.999999Z")) == "2026-12-01")
        #expect(D.date(Self.day("2026-12-02T00:00:00Z")) == "2026-12-02")
        // The command's clock decides the day, not when the store recorded it.
        var s = ProjectionScenario()
        s.given(
            "account-u-9", AccountSignedUp(userId: "u-9", name: "N", email: "n@example.com", language: .enUS),
            at: "2026-11-30T23:30:00Z")
        var events = s.events
        events[0].recordedAt = Self.t("2026-12-01T00:30:00Z")
        #expect(try D.folded(events).days == [Self.day("2026-11-30"): D.Day(signUps: 1)])
    }

    @Test func aStatusChangeOfAnOrderNeverPlacedStopsTheFold() throws {
        var s = ProjectionScenario()
        s.given("order-o-7", OrderCancelled(orderId: "o-7", cancelledBy: "s-1"))
        #expect(throws: ProjectionError("order 'o-7' became cancelled but is not open (never placed, or already delivered or cancelled)")) {
            try D.folded(s.events)
        }
        // A delivered order is final: a later change of it (which the domain refuses) stops the fold too.
        var delivered = ProjectionScenario()
        Self.place(&delivered, "o-8", "u-1", [Self.line("litter", 1)], at: "2026-12-01T10:00:00Z")
        delivered.given("order-o-8", OrderDelivered(orderId: "o-8", deliveredBy: "s-1"))
        delivered.given("order-o-8", OrderCancelled(orderId: "o-8", cancelledBy: "s-1"))
        #expect(throws: ProjectionError("order 'o-8' became cancelled but is not open (never placed, or already delivered or cancelled)")) {
            try D.folded(delivered.events)
        }
    }

    // MARK: - The view

    static let expectedRows: [[String]] = [
        ["orders-by-status", "placed", "1", ""],
        ["orders-by-status", "confirmed", "1", ""],
        ["orders-by-status", "shipped", "0", ""],
        ["orders-by-status", "delivered", "1", ""],
        ["orders-by-status", "cancelled", "2", ""],
        ["revenue", "2026-12-01", "0.00 BDT", "delivered 0.00 BDT (0), till 0.00 BDT (0), grooming 0.00 BDT (0), refunds 0.00 BDT; placed 1, collected 0.00 BDT"],
        ["revenue", "2026-12-01", "0.00 USD", "delivered 0.00 USD (0), till 0.00 USD (0), grooming 0.00 USD (0), refunds 0.00 USD; placed 0, collected 0.00 USD"],
        ["revenue", "2026-12-02", "2,310.00 BDT", "delivered 1,490.00 BDT (1), till 820.00 BDT (1), grooming 0.00 BDT (0), refunds 0.00 BDT; placed 0, collected 0.00 BDT"],
        ["revenue", "2026-12-02", "0.00 USD", "delivered 0.00 USD (0), till 0.00 USD (0), grooming 0.00 USD (0), refunds 0.00 USD; placed 0, collected 0.00 USD"],
        ["revenue", "2026-12-03", "700.00 BDT", "delivered 0.00 BDT (0), till 700.00 BDT (1), grooming 0.00 BDT (0), refunds 0.00 BDT; placed 2, collected 0.00 BDT"],
        ["revenue", "2026-12-03", "5.00 USD", "delivered 0.00 USD (0), till 5.00 USD (1), grooming 0.00 USD (0), refunds 0.00 USD; placed 0, collected 0.00 USD"],
        ["sign-ups", "2026-12-01", "2", ""],
        ["sign-ups", "2026-12-02", "0", ""],
        ["sign-ups", "2026-12-03", "1", ""],
        ["low-stock", "shampoo", "0", "Oat Shampoo: on hand 0, reserved 0"],
        ["low-stock", "bowl", "1", "Steel Bowl: on hand 3, reserved 2"],
        ["low-stock", "brush", "4", "Slicker Brush: on hand 4, reserved 0"],
        ["low-stock", "treats", "4", "Chicken Treats: on hand 4, reserved 0"],
        [
            "awaiting-booking", "b-6", "2026-12-04T09:00:00Z",
            "bath for pet p-3 of u-3, waiting since 2026-12-03T12:25:00Z",
        ],
        [
            "awaiting-booking", "b-1", "2026-12-05T10:00:00Z",
            "bath for pet p-1 of u-1, waiting since 2026-12-03T12:00:00Z",
        ],
        [
            "awaiting-booking", "b-3", "2026-12-06T11:00:00Z",
            "nail-trim for pet p-1 of u-1, waiting since 2026-12-03T12:10:00Z",
        ],
        ["open-vet-request", "v-2", "answered", "urgent, pet p-2 of u-2, since 2026-12-03T13:05:00Z"],
        ["open-vet-request", "v-1", "submitted", "normal, pet p-1 of u-1, since 2026-12-03T13:00:00Z"],
        ["open-vet-request", "v-5", "submitted", "normal, pet p-3 of u-3, since 2026-12-03T13:20:00Z"],
        ["top-product", "brush", "4", "Slicker Brush"],
        ["top-product", "litter", "3", "Cat Litter 10L"],
        ["top-product", "leash", "2", "Rope Leash"],
        ["top-product", "bowl", "1", "Steel Bowl"],
        ["top-product", "catnip", "1", "Catnip Pouch"],
    ]

    @Test func theDashboardTableHasEverySection() throws {
        let out = try Self.scenario().view(DashboardView.self, ["days": "3"])
        #expect(out.title == "Dashboard")
        #expect(out.header == ["SECTION", "KEY", "VALUE", "DETAIL"])
        #expect(out.rows == Self.expectedRows)
        #expect(
            out.footer == [
                "Per-day series: 2026-12-01 to 2026-12-03 (3 days of UTC up to the last day with data)",
                "Low stock: available ≤ 5; top products: 5 by units sold (shipped + till - returned)",
            ])
    }

    @Test func theDashboardJSONHasEverySection() throws {
        let json = try Self.scenario().view(DashboardView.self, ["days": "3"]).json
        #expect(
            json.objectPairs?.map(\.key) == [
                "days", "ordersByStatus", "revenuePerDay", "signUpsPerDay", "lowStock", "bookingsAwaitingConfirmation",
                "openVetRequests", "topProducts",
            ])
        #expect(json["days"]?.serialized == #"{"from":"2026-12-01","to":"2026-12-03","count":3,"timeZone":"UTC"}"#)
        #expect(
            json["ordersByStatus"]?.serialized == #"{"placed":1,"confirmed":1,"shipped":0,"delivered":1,"cancelled":2}"#
        )
        func money(_ amount: Int64, _ currency: String) -> String {
            #"{"amount":\#(amount),"currency":"\#(currency)"}"#
        }
        func revenue(
            _ day: String, _ currency: String, placed: Int64, delivered: Int64, _ online: Int64, _ sales: Int64, _ till: Int64
        ) -> String {
            #"{"day":"\#(day)","currency":"\#(currency)","revenue":\#(money(online + till, currency)),"ordersPlaced":\#(placed),"#
                + #""ordersDelivered":\#(delivered),"ordersRevenue":\#(money(online, currency)),"tillSales":\#(sales),"#
                + #""tillRevenue":\#(money(till, currency)),"groomings":0,"groomingRevenue":\#(money(0, currency)),"#
                + #""refunds":\#(money(0, currency)),"collected":\#(money(0, currency))}"#
        }
        #expect(
            json["revenuePerDay"]?.serialized
                == "["
                + [
                    revenue("2026-12-01", "BDT", placed: 1, delivered: 0, 0, 0, 0),
                    revenue("2026-12-01", "USD", placed: 0, delivered: 0, 0, 0, 0),
                    revenue("2026-12-02", "BDT", placed: 0, delivered: 1, 149_000, 1, 82_000),
                    revenue("2026-12-02", "USD", placed: 0, delivered: 0, 0, 0, 0),
                    revenue("2026-12-03", "BDT", placed: 2, delivered: 0, 0, 1, 70_000),
                    revenue("2026-12-03", "USD", placed: 0, delivered: 0, 0, 1, 500),
                ].joined(separator: ",") + "]")
        #expect(
            json["signUpsPerDay"]?.serialized
                == #"[{"day":"2026-12-01","signUps":2},{"day":"2026-12-02","signUps":0},{"day":"2026-12-03","signUps":1}]"#
        )
        #expect(
            json["lowStock"]?.serialized
                == #"{"threshold":5,"products":["#
                + #"{"productId":"shampoo","name":"Oat Shampoo","onHand":0,"reserved":0,"available":0},"#
                + #"{"productId":"bowl","name":"Steel Bowl","onHand":3,"reserved":2,"available":1},"#
                + #"{"productId":"brush","name":"Slicker Brush","onHand":4,"reserved":0,"available":4},"#
                + #"{"productId":"treats","name":"Chicken Treats","onHand":4,"reserved":0,"available":4}]}"#)
        #expect(
            json["bookingsAwaitingConfirmation"]?.serialized
                == #"[{"bookingId":"b-6","slot":"2026-12-04T09:00:00Z","petId":"p-3","ownerId":"u-3","service":"bath","since":"2026-12-03T12:25:00Z"},"#
                + #"{"bookingId":"b-1","slot":"2026-12-05T10:00:00Z","petId":"p-1","ownerId":"u-1","service":"bath","since":"2026-12-03T12:00:00Z"},"#
                + #"{"bookingId":"b-3","slot":"2026-12-06T11:00:00Z","petId":"p-1","ownerId":"u-1","service":"nail-trim","since":"2026-12-03T12:10:00Z"}]"#
        )
        #expect(
            json["openVetRequests"]?.serialized
                == #"[{"requestId":"v-2","status":"answered","urgency":"urgent","petId":"p-2","ownerId":"u-2","submittedAt":"2026-12-03T13:05:00Z"},"#
                + #"{"requestId":"v-1","status":"submitted","urgency":"normal","petId":"p-1","ownerId":"u-1","submittedAt":"2026-12-03T13:00:00Z"},"#
                + #"{"requestId":"v-5","status":"submitted","urgency":"normal","petId":"p-3","ownerId":"u-3","submittedAt":"2026-12-03T13:20:00Z"}]"#
        )
        #expect(
            json["topProducts"]?.serialized
                == #"[{"productId":"brush","name":"Slicker Brush","units":4},{"productId":"litter","name":"Cat Litter 10L","units":3},"#
                + #"{"productId":"leash","name":"Rope Leash","units":2},{"productId":"bowl","name":"Steel Bowl","units":1},"#
                + #"{"productId":"catnip","name":"Catnip Pouch","units":1}]"#)
    }

    @Test func theSeriesCoverTheLastNDaysUpToTheLastDayWithDataQuietDaysIncluded() throws {
        let out = try Self.scenario().view(DashboardView.self)
        let revenueDays = out.rows.filter { $0[0] == "revenue" }.map { $0[1] }
        #expect(
            revenueDays
                == ["2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"]
                .flatMap { [$0, $0] },
            "one row per day and currency (BDT, USD)")
        #expect(
            out.rows.filter { $0[0] == "revenue" }.first == [
                "revenue", "2026-11-27", "0.00 BDT", "delivered 0.00 BDT (0), till 0.00 BDT (0), grooming 0.00 BDT (0), refunds 0.00 BDT; placed 0, collected 0.00 BDT",
            ])
        #expect(
            out.rows.filter { $0[0] == "sign-ups" } == [
                ["sign-ups", "2026-11-27", "0", ""], ["sign-ups", "2026-11-28", "0", ""],
                ["sign-ups", "2026-11-29", "0", ""],
                ["sign-ups", "2026-11-30", "0", ""], ["sign-ups", "2026-12-01", "2", ""],
                ["sign-ups", "2026-12-02", "0", ""],
                ["sign-ups", "2026-12-03", "1", ""],
            ])
        #expect(out.json["days"]?.serialized == #"{"from":"2026-11-27","to":"2026-12-03","count":7,"timeZone":"UTC"}"#)
        let one = try Self.scenario().view(DashboardView.self, ["days": "1"])
        #expect(one.rows.filter { $0[0] == "sign-ups" } == [["sign-ups", "2026-12-03", "1", ""]])
        #expect(one.rows.filter { $0[0] == "revenue" }.map { $0[2] } == ["700.00 BDT", "5.00 USD"])
    }

    @Test func theLowStockThresholdIsAnOptionAndDelistedProductsAreLeftOut() throws {
        let s = Self.scenario()
        let low = { (n: String) throws -> [String] in
            try s.view(DashboardView.self, ["low-stock": n]).rows.filter { $0[0] == "low-stock" }.map { $0[1] }
        }
        #expect(try low("0") == ["shampoo"])
        // collar has 2 on hand but is delisted; toy has 19, litter 11.
        #expect(try low("10") == ["shampoo", "bowl", "brush", "treats", "leash", "catnip"])
        #expect(try s.view(DashboardView.self, ["low-stock": "0"]).json["lowStock"]?["threshold"] == .int(0))
    }

    @Test func badOptionsAreRefused() throws {
        let s = Self.scenario()
        #expect(throws: ViewError.invalid("days", "'0' is not an integer between 1 and 3660")) {
            try s.view(DashboardView.self, ["days": "0"])
        }
        #expect(throws: ViewError.invalid("low-stock", "'few' is not an integer between 0 and 1000000")) {
            try s.view(DashboardView.self, ["low-stock": "few"])
        }
    }

    @Test func anEmptyStoreShowsZerosAndNoSeries() throws {
        let out = try DashboardView.render(D.State(), ViewArguments())
        #expect(
            out.rows == [
                ["orders-by-status", "placed", "0", ""], ["orders-by-status", "confirmed", "0", ""],
                ["orders-by-status", "shipped", "0", ""], ["orders-by-status", "delivered", "0", ""],
                ["orders-by-status", "cancelled", "0", ""],
            ])
        #expect(out.footer.first == "Per-day series: no data yet")
        #expect(
            out.json.serialized
                == #"{"days":null,"ordersByStatus":{"placed":0,"confirmed":0,"shipped":0,"delivered":0,"cancelled":0},"#
                + #""revenuePerDay":[],"signUpsPerDay":[],"lowStock":{"threshold":5,"products":[]},"#
                + #""bookingsAwaitingConfirmation":[],"openVetRequests":[],"topProducts":[]}"#)
    }

    @Test func signUpsAloneMakeADayButNoRevenueRowsBeforeTheFirstSale() throws {
        var s = ProjectionScenario()
        s.given(
            "account-u-1", AccountSignedUp(userId: "u-1", name: "N", email: "n@example.com", language: .enUS),
            at: "2026-12-01T09:00:00Z")
        let out = try s.view(DashboardView.self, ["days": "2"])
        #expect(out.rows.filter { $0[0] == "revenue" }.isEmpty)
        #expect(
            out.rows.filter { $0[0] == "sign-ups" } == [
                ["sign-ups", "2026-11-30", "0", ""], ["sign-ups", "2026-12-01", "1", ""],
            ])
    }
}
