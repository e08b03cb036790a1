import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Orders: payment, returns and refunds")
struct OrderPaymentTests {
    static let total = Money(202_000, "BDT")

    /// Ann's order o-1 (2 litter at 620 taka, 1 food at 780, cash), taken as far as `status`.
    static func order(_ status: OrderStatus) async throws -> DomainScenario {
        let s = try await OrderTests.checkout()
        _ = try await s.when(Shop.ann, OrderTests.place("o-1"))
        let n = [OrderStatus.placed, .confirmed, .shipped, .delivered].firstIndex(of: status)!
        if n >= 1 { _ = try await s.when(Shop.staff, ConfirmOrder(orderId: "o-1")) }
        if n >= 2 { _ = try await s.when(Shop.staff, ShipOrder(orderId: "o-1")) }
        if n >= 3 { _ = try await s.when(Shop.staff, DeliverOrder(orderId: "o-1")) }
        return s
    }

    // MARK: - order.collect-payment

    @Test func thePaymentIsCollectedInFullOnceTheOrderHasShipped() async throws {
        let s = try await Self.order(.shipped)
        try await s.then(
            Shop.staff, CollectOrderPayment(orderId: "o-1"),
            appends: [(stream("order-o-1"), OrderPaymentCollected(orderId: "o-1", amount: Self.total, method: .cash, collectedBy: Shop.staff))])
        try await s.then(Shop.staff, CollectOrderPayment(orderId: "o-1"), appends: [])
        #expect(try await s.state(OrderState.self, Streams.order("o-1")).collected == Self.total)
    }

    @Test func aCustomerMayPayAnotherWayThanChosen() async throws {
        let s = try await Self.order(.delivered)
        try await s.then(
            Shop.staff, CollectOrderPayment(orderId: "o-1", method: .cardOnDelivery),
            appends: [
                (stream("order-o-1"), OrderPaymentCollected(orderId: "o-1", amount: Self.total, method: .cardOnDelivery, collectedBy: Shop.staff))
            ])
    }

    @Test func noPaymentIsCollectedBeforeShippingOrForACancelledOrder() async throws {
        for status in [OrderStatus.placed, .confirmed] {
            let s = try await Self.order(status)
            try await s.then(
                Shop.staff, CollectOrderPayment(orderId: "o-1"),
                throws: .invalidState("order 'o-1' is \(status.rawValue); a payment is collected at the door, once the order has shipped"))
        }
        let s = try await Self.order(.placed)
        _ = try await s.when(Shop.ann, CancelOrder(orderId: "o-1"))
        try await s.then(
            Shop.staff, CollectOrderPayment(orderId: "o-1"),
            throws: .invalidState("order 'o-1' is cancelled; a payment is collected at the door, once the order has shipped"))
        try await s.then(Shop.staff, CollectOrderPayment(orderId: "o-9"), throws: .notFound("order 'o-9' does not exist"))
    }

    @Test func onlyStaffCollectReturnAndRefund() async throws {
        let s = try await Self.order(.delivered)
        try await s.refuses(CollectOrderPayment(orderId: "o-1"), Shop.notStaff("order.collect-payment", "collect payments"))
        try await s.refuses(
            ReturnOrder(orderId: "o-1", lines: [SaleItem(productId: "litter", quantity: 1)]), Shop.notStaff("order.return", "take back orders"))
        try await s.refuses(RefundOrder(orderId: "o-1", amount: Money(100, "BDT")), Shop.notStaff("order.refund", "refund orders"))
    }

    // MARK: - order.return

    @Test func returnedUnitsGoBackOnTheShelfOrAreWrittenOff() async throws {
        let s = try await Self.order(.delivered)
        try await s.then(
            Shop.staff, ReturnOrder(orderId: "o-1", lines: [SaleItem(productId: "litter", quantity: 1)], reason: "torn bag"),
            appends: [
                (
                    stream("order-o-1"),
                    OrderReturned(
                        orderId: "o-1", lines: [ReturnedLine(productId: "litter", name: "Name of litter", quantity: 1, amount: Money(62_000, "BDT"))],
                        restocked: true, returnedBy: Shop.staff, reason: "torn bag")
                ),
                (stream("inventory-litter"), StockReturned(productId: "litter", orderId: "o-1", quantity: 1, restocked: true)),
            ])
        try await s.then(
            Shop.staff,
            ReturnOrder(orderId: "o-1", lines: [SaleItem(productId: "food", quantity: 1), SaleItem(productId: "litter", quantity: 1)], disposition: .writeOff),
            appends: [
                (
                    stream("order-o-1"),
                    OrderReturned(
                        orderId: "o-1",
                        lines: [
                            ReturnedLine(productId: "food", name: "Name of food", quantity: 1, amount: Money(78_000, "BDT")),
                            ReturnedLine(productId: "litter", name: "Name of litter", quantity: 1, amount: Money(62_000, "BDT")),
                        ],
                        restocked: false, returnedBy: Shop.staff)
                ),
                (stream("inventory-food"), StockReturned(productId: "food", orderId: "o-1", quantity: 1, restocked: false)),
                (stream("inventory-litter"), StockReturned(productId: "litter", orderId: "o-1", quantity: 1, restocked: false)),
            ])
        // 15 received, 2 shipped, 1 back on the shelf, 1 written off.
        #expect(try await s.state(InventoryState.self, Streams.inventory("litter")).onHand == 14)
        #expect(try await s.state(OrderState.self, Streams.order("o-1")).returned == ["litter": 2, "food": 1])
    }

    @Test func aReturnTakesBackOnlyWhatWasDeliveredAndNotYetReturned() async throws {
        let s = try await Self.order(.delivered)
        func refused(_ lines: [SaleItem], _ error: DomainError) async throws {
            try await s.then(Shop.staff, ReturnOrder(orderId: "o-1", lines: lines), throws: error)
        }
        try await refused([], .invalid(field: "lines", reason: "name at least one product and its units"))
        try await refused([SaleItem(productId: "bowl", quantity: 1)], .invalid(field: "lines", reason: "product 'bowl' is not in order 'o-1'"))
        try await refused(
            [SaleItem(productId: "litter", quantity: 0)], .invalid(field: "lines.quantity", reason: "must be at least 1 (got 0)"))
        try await refused(
            [SaleItem(productId: "litter", quantity: 2), SaleItem(productId: "litter", quantity: 1)],
            .invalid(field: "lines", reason: "3 of 'litter' cannot come back: 2 delivered and not yet returned"))
        _ = try await s.when(Shop.staff, ReturnOrder(orderId: "o-1", lines: [SaleItem(productId: "litter", quantity: 2)]))
        try await refused(
            [SaleItem(productId: "litter", quantity: 1)],
            .invalid(field: "lines", reason: "1 of 'litter' cannot come back: 0 delivered and not yet returned"))
    }

    @Test func onlyADeliveredOrderIsReturned() async throws {
        let s = try await Self.order(.shipped)
        try await s.then(
            Shop.staff, ReturnOrder(orderId: "o-1", lines: [SaleItem(productId: "litter", quantity: 1)]),
            throws: .invalidState("order 'o-1' is shipped; only a delivered order can be returned (cancel one not yet delivered)"))
    }

    // MARK: - order.refund

    @Test func refundsGiveBackAtMostWhatWasCollected() async throws {
        let s = try await Self.order(.delivered)
        try await s.then(
            Shop.staff, RefundOrder(orderId: "o-1", amount: Money(62_000, "BDT")),
            throws: .invalidState("order 'o-1' has no payment collected; nothing can be refunded (record it with order collect-payment)"))
        _ = try await s.when(Shop.staff, CollectOrderPayment(orderId: "o-1"))
        try await s.then(
            Shop.staff, RefundOrder(orderId: "o-1", amount: Money(0, "BDT")), throws: .invalid(field: "amount", reason: "must be more than 0 (got 0 BDT)"))
        try await s.then(
            Shop.staff, RefundOrder(orderId: "o-1", amount: Money(100, "USD")),
            throws: .invalid(field: "amount", reason: "the order was paid in BDT, not USD"))
        try await s.then(
            Shop.staff, RefundOrder(orderId: "o-1", amount: Money(150_000, "BDT"), reason: "a bag came torn"),
            appends: [(stream("order-o-1"), OrderRefunded(orderId: "o-1", amount: Money(150_000, "BDT"), refundedBy: Shop.staff, reason: "a bag came torn"))])
        try await s.then(
            Shop.staff, RefundOrder(orderId: "o-1", amount: Money(52_001, "BDT")),
            throws: .invalid(field: "amount", reason: "52001 BDT is more than is left to refund (52000 BDT)"))
        _ = try await s.when(Shop.staff, RefundOrder(orderId: "o-1", amount: Money(52_000, "BDT")))
        #expect(try await s.state(OrderState.self, Streams.order("o-1")).refunded == 202_000)
    }
}
