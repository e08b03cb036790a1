// An order's money and goods after it ships: the payment collected at the door, goods the customer brings back,
// and money given back. Revenue is recognized at delivery; a refund takes it back (see docs/domain.md).

/// Staff recorded that a shipped or delivered order's payment was collected at the door.
public struct OrderPaymentCollected: DomainEvent {
    public static let eventType = "OrderPaymentCollected"
    public static let area = "orders"
    public static let summary = "Staff recorded an order's payment as collected on delivery: amount and method."
    public var orderId: String
    public var amount: Money
    public var method: PaymentMethod
    public var collectedBy: String

    public init(orderId: String, amount: Money, method: PaymentMethod, collectedBy: String) {
        self.orderId = orderId
        self.amount = amount
        self.method = method
        self.collectedBy = collectedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        amount = try r.money("amount")
        method = try r.choice("method", PaymentMethod.self)
        collectedBy = try r.string("collectedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.money("amount", amount)
        w.choice("method", method)
        w.string("collectedBy", collectedBy)
    }
}

/// One product line of a return: the units brought back and what they were sold for.
public struct ReturnedLine: FieldCodable, Hashable {
    public var productId: String
    public var name: String
    public var quantity: Int64
    /// The units' price at purchase times the units returned.
    public var amount: Money

    public init(productId: String, name: String, quantity: Int64, amount: Money) {
        self.productId = productId
        self.name = name
        self.quantity = quantity
        self.amount = amount
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        name = try r.string("name")
        quantity = try r.int("quantity")
        amount = try r.money("amount")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("name", name)
        w.int("quantity", quantity)
        w.money("amount", amount)
    }
}

/// A customer brought back units of a delivered order; they are restocked or written off on their inventories in
/// the same append (``StockReturned``).
public struct OrderReturned: DomainEvent {
    public static let eventType = "OrderReturned"
    public static let area = "orders"
    public static let summary =
        "Staff took back units of a delivered order: the lines and their value, restocked or written off, and why."
    public var orderId: String
    public var lines: [ReturnedLine]
    /// Whether the units went back on the shelf (`false`: written off, damaged or opened).
    public var restocked: Bool
    public var returnedBy: String
    public var reason: String?

    public init(orderId: String, lines: [ReturnedLine], restocked: Bool, returnedBy: String, reason: String? = nil) {
        self.orderId = orderId
        self.lines = lines
        self.restocked = restocked
        self.returnedBy = returnedBy
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        lines = try r.records("lines", ReturnedLine.self)
        restocked = try r.bool("restocked")
        returnedBy = try r.string("returnedBy")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.records("lines", lines)
        w.bool("restocked", restocked)
        w.string("returnedBy", returnedBy)
        w.optionalString("reason", reason)
    }
}

/// Staff gave money back for an order whose payment was collected.
public struct OrderRefunded: DomainEvent {
    public static let eventType = "OrderRefunded"
    public static let area = "orders"
    public static let summary = "Staff refunded an amount of an order's collected payment, with the reason."
    public var orderId: String
    public var amount: Money
    public var refundedBy: String
    public var reason: String?

    public init(orderId: String, amount: Money, refundedBy: String, reason: String? = nil) {
        self.orderId = orderId
        self.amount = amount
        self.refundedBy = refundedBy
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        amount = try r.money("amount")
        refundedBy = try r.string("refundedBy")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.money("amount", amount)
        w.string("refundedBy", refundedBy)
        w.optionalString("reason", reason)
    }
}
