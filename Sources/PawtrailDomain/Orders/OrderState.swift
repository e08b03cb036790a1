public import EventLog
public import Events

/// Where an order is in its life: placed -> confirmed -> shipped -> delivered, or cancelled before delivery. Its payment,
/// returns and refunds are kept beside the status (``OrderState/collected``), since they do not move it.
public enum OrderStatus: String, FieldChoice {
    case placed, confirmed, shipped, delivered, cancelled
}

/// An order as decisions see it (stream `order-<orderId>`).
public struct OrderState: Aggregate, Hashable {
    /// Whether the order was placed.
    public var exists = false
    public var customerId = ""
    /// Meaningful only when `exists`.
    public var status = OrderStatus.placed
    /// The products and quantities ordered, in order.
    public var lines: [PurchaseLine] = []
    /// What the customer pays.
    public var total = Money(0, "BDT")
    /// How the customer said they would pay.
    public var payment = PaymentMethod.cash
    /// The payment collected at the door, `nil` until it is.
    public var collected: Money?
    /// Minor units refunded so far.
    public var refunded: Int64 = 0
    /// Units brought back so far, by product.
    public var returned: [String: Int64] = [:]

    public init() {}

    public static let snapshotKind = "order"
    public static let schemaVersion = 2

    public init(reading r: inout some FieldReader) throws(FieldError) {
        exists = try r.bool("exists")
        customerId = try r.string("customerId")
        status = try r.choice("status", OrderStatus.self)
        lines = try r.records("lines", PurchaseLine.self)
        total = try r.money("total")
        payment = try r.choice("payment", PaymentMethod.self)
        collected = try r.optionalMoney("collected")
        refunded = try r.int("refunded")
        returned = try r.counts("returned")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("exists", exists)
        w.string("customerId", customerId)
        w.choice("status", status)
        w.records("lines", lines)
        w.money("total", total)
        w.choice("payment", payment)
        w.optionalMoney("collected", collected)
        w.int("refunded", refunded)
        w.counts("returned", returned)
    }

    /// Units of a product delivered and not brought back.
    public func returnable(_ productId: String) -> Int64 {
        lines.filter { $0.productId == productId }.reduce(0) { $0 + $1.quantity } - (returned[productId] ?? 0)
    }

    public static func evolve(_ state: OrderState, _ event: any DomainEvent) -> OrderState {
        var s = state
        switch event {
        case let e as OrderPlaced:
            s.exists = true
            s.customerId = e.customerId
            s.status = .placed
            s.lines = e.lines
            s.total = e.total
            s.payment = e.payment
        case is OrderConfirmed:
            s.status = .confirmed
        case is OrderShipped:
            s.status = .shipped
        case is OrderDelivered:
            s.status = .delivered
        case is OrderCancelled:
            s.status = .cancelled
        case let e as OrderPaymentCollected:
            s.collected = e.amount
        case let e as OrderReturned:
            for line in e.lines { s.returned[line.productId, default: 0] += line.quantity }
        case let e as OrderRefunded:
            s.refunded += e.amount.minorUnits
        default:
            break
        }
        return s
    }

    /// Checks that the order exists.
    ///
    /// - Throws: ``DomainError/notFound(_:)``.
    public func checkExists(_ orderId: String) throws(DomainError) {
        guard exists else { throw .notFound("order '\(orderId)' does not exist") }
    }

    /// Checks a staff step of the lifecycle (confirm, ship, deliver): the actor is staff, the order exists and is
    /// in the status the step starts from.
    ///
    /// - Parameters:
    ///   - orderId: The order, for messages.
    ///   - actor: Who takes the step.
    ///   - action: The step for the refusal of a non-staff actor (`ship orders`).
    ///   - from: The status the step starts from.
    ///   - to: The status it leads to; an order already there is a re-send.
    ///   - done: The step's participle for messages (`shipped`).
    /// - Returns: `false` when the order is already at `to` (nothing to append).
    /// - Throws: ``DomainError/forbidden(_:)``, ``DomainError/notFound(_:)``, or ``DomainError/invalidState(_:)``
    ///   naming the current status.
    public func checkStaffStep(
        _ orderId: String, actor: Actor, action: String, from: OrderStatus, to: OrderStatus, done: String
    ) throws(DomainError) -> Bool {
        try actor.requireStaff(action)
        try checkExists(orderId)
        guard status != to else { return false }
        guard status == from else {
            throw .invalidState("order '\(orderId)' is \(status.rawValue); only a \(from.rawValue) order can be \(done)")
        }
        return true
    }
}

extension Streams {
    /// An order, from placing to delivery or cancellation.
    public static func order(_ orderId: String) -> StreamID { named("order", orderId) }
}
