public import EventLog
public import Events

/// Where an order is in its life: placed -> confirmed -> shipped -> delivered, or cancelled before delivery.
public enum OrderStatus: String, Sendable, Hashable {
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

    public init() {}

    public static func evolve(_ state: OrderState, _ event: any DomainEvent) -> OrderState {
        var s = state
        switch event {
        case let e as OrderPlaced:
            s.exists = true
            s.customerId = e.customerId
            s.status = .placed
            s.lines = e.lines
        case is OrderConfirmed:
            s.status = .confirmed
        case is OrderShipped:
            s.status = .shipped
        case is OrderDelivered:
            s.status = .delivered
        case is OrderCancelled:
            s.status = .cancelled
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
}

extension Streams {
    /// An order, from placing to delivery or cancellation.
    public static func order(_ orderId: String) -> StreamID { named("order", orderId) }
}
