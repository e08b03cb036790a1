public import Events

/// `order.collect-payment`: staff record that a shipped or delivered order's payment was collected at the door, in
/// full. The method defaults to the one chosen at checkout (a customer may pay by card after choosing cash).
public struct CollectOrderPayment: DomainCommand, Hashable {
    public static let name = "order.collect-payment"
    public static let summary = "Record an order's payment as collected on delivery, in full (staff)."

    public var orderId: String
    /// How the customer paid, when not as chosen at checkout.
    public var method: PaymentMethod?

    public init(orderId: String, method: PaymentMethod? = nil) {
        self.orderId = orderId
        self.method = method
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        method = try r.optionalChoice("method", PaymentMethod.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.optionalChoice("method", method)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(orderId, field: "orderId")
        return try decide(context, order: try await loader.load(OrderState.self, Streams.order(orderId)))
    }

    /// The pure decision; a payment already collected is not collected again (a re-send).
    ///
    /// - Returns: `OrderPaymentCollected` of the order's total.
    /// - Throws: ``DomainError`` for a non-staff actor, a missing order, or one not shipped or delivered.
    public func decide(_ context: DecisionContext, order: OrderState) throws(DomainError) -> Decision {
        try context.actor.requireStaff("collect payments")
        try order.checkExists(orderId)
        if order.collected != nil { return .nothing }
        guard order.status == .shipped || order.status == .delivered else {
            throw .invalidState("order '\(orderId)' is \(order.status.rawValue); a payment is collected at the door, once the order has shipped")
        }
        let collected = OrderPaymentCollected(
            orderId: orderId, amount: order.total, method: method ?? order.payment, collectedBy: context.actor.userID)
        return .append(Streams.order(orderId), collected)
    }
}

/// `order.return`: staff take back units of a delivered order, restocking them or writing them off; the units
/// sold of each product shrink in the same append (``StockReturned``). Money goes back only with `order.refund`.
public struct ReturnOrder: DomainCommand, Hashable {
    public static let name = "order.return"
    public static let summary = "Take back units of a delivered order: restocked, or written off (staff)."

    public var orderId: String
    /// The products and units brought back; a product named twice is one line with the units summed.
    public var lines: [SaleItem]
    /// What becomes of the units: back on the shelf (the default), or written off (damaged, opened).
    public var disposition: ReturnDisposition?
    public var reason: String?

    public init(orderId: String, lines: [SaleItem], disposition: ReturnDisposition? = nil, reason: String? = nil) {
        self.orderId = orderId
        self.lines = lines
        self.disposition = disposition
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        lines = try r.records("lines", SaleItem.self)
        disposition = try r.optionalChoice("disposition", ReturnDisposition.self)
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.records("lines", lines)
        w.optionalChoice("disposition", disposition)
        w.optionalString("reason", reason)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(orderId, field: "orderId")
        return try decide(context, order: try await loader.load(OrderState.self, Streams.order(orderId)))
    }

    /// The pure decision.
    ///
    /// - Returns: `OrderReturned`, then `StockReturned` on each product's inventory.
    /// - Throws: ``DomainError`` for a non-staff actor, a missing or undelivered order, no lines, a product not in
    ///   the order, or more units than were delivered and not yet returned.
    public func decide(_ context: DecisionContext, order: OrderState) throws(DomainError) -> Decision {
        try context.actor.requireStaff("take back orders")
        try order.checkExists(orderId)
        let reason = try reason.map { r throws(DomainError) in try Validate.text(r, field: "reason", max: 300) }
        guard order.status == .delivered else {
            throw .invalidState("order '\(orderId)' is \(order.status.rawValue); only a delivered order can be returned (cancel one not yet delivered)")
        }
        guard !lines.isEmpty else { throw .invalid(field: "lines", reason: "name at least one product and its units") }
        var units: [String: Int64] = [:]
        var products: [String] = []
        for line in lines {
            try Validate.id(line.productId, field: "lines.productId")
            guard line.quantity > 0 else { throw .invalid(field: "lines.quantity", reason: "must be at least 1 (got \(line.quantity))") }
            if units[line.productId] == nil { products.append(line.productId) }
            units[line.productId, default: 0] += line.quantity
        }
        var returned: [ReturnedLine] = []
        for productId in products {
            guard let bought = order.lines.first(where: { $0.productId == productId }) else {
                throw .invalid(field: "lines", reason: "product '\(productId)' is not in order '\(orderId)'")
            }
            let quantity = units[productId]!
            let left = order.returnable(productId)
            guard quantity <= left else {
                throw .invalid(field: "lines", reason: "\(quantity) of '\(productId)' cannot come back: \(left) delivered and not yet returned")
            }
            let amount = Money(bought.unitPrice.minorUnits * quantity, bought.unitPrice.currency)
            returned.append(ReturnedLine(productId: productId, name: bought.name, quantity: quantity, amount: amount))
        }
        let by = context.actor.userID
        let restocked = (disposition ?? .restock) == .restock
        var writes = [StreamWrite(Streams.order(orderId), [OrderReturned(orderId: orderId, lines: returned, restocked: restocked, returnedBy: by, reason: reason)])]
        for line in returned {
            let back = StockReturned(productId: line.productId, orderId: orderId, quantity: line.quantity, restocked: restocked)
            writes.append(StreamWrite(Streams.inventory(line.productId), [back], expected: .any))
        }
        return Decision(writes)
    }
}

/// What becomes of units a customer brings back.
public enum ReturnDisposition: String, FieldChoice {
    /// Back on the shelf, to be sold again.
    case restock
    /// Not sellable (damaged, opened): off the units sold, not back on hand.
    case writeOff = "write-off"
}

/// `order.refund`: staff give back money of an order's collected payment (after a return, or as a goodwill
/// gesture). The refunds of an order never exceed what was collected.
public struct RefundOrder: DomainCommand, Hashable {
    public static let name = "order.refund"
    public static let summary = "Refund an amount of an order's collected payment (staff)."

    public var orderId: String
    public var amount: Money
    public var reason: String?

    public init(orderId: String, amount: Money, reason: String? = nil) {
        self.orderId = orderId
        self.amount = amount
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        amount = try r.money("amount")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.money("amount", amount)
        w.optionalString("reason", reason)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(orderId, field: "orderId")
        return try decide(context, order: try await loader.load(OrderState.self, Streams.order(orderId)))
    }

    /// The pure decision.
    ///
    /// - Returns: `OrderRefunded`.
    /// - Throws: ``DomainError`` for a non-staff actor, a missing order, a payment not collected, an amount not
    ///   positive or in another currency, or more than is left of the payment.
    public func decide(_ context: DecisionContext, order: OrderState) throws(DomainError) -> Decision {
        try context.actor.requireStaff("refund orders")
        try order.checkExists(orderId)
        let reason = try reason.map { r throws(DomainError) in try Validate.text(r, field: "reason", max: 300) }
        guard let collected = order.collected else {
            throw .invalidState("order '\(orderId)' has no payment collected; nothing can be refunded (record it with order collect-payment)")
        }
        guard amount.minorUnits > 0 else { throw .invalid(field: "amount", reason: "must be more than 0 (got \(amount))") }
        guard amount.currency == collected.currency else {
            throw .invalid(field: "amount", reason: "the order was paid in \(collected.currency), not \(amount.currency)")
        }
        let left = collected.minorUnits - order.refunded
        guard amount.minorUnits <= left else {
            throw .invalid(field: "amount", reason: "\(amount) is more than is left to refund (\(Money(left, collected.currency)))")
        }
        return .append(Streams.order(orderId), OrderRefunded(orderId: orderId, amount: amount, refundedBy: context.actor.userID, reason: reason))
    }
}
