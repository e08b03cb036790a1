public import Events

/// `order.confirm`: staff accept a placed order.
public struct ConfirmOrder: DomainCommand, Hashable {
    public static let name = "order.confirm"
    public static let summary = "Confirm a placed order (staff)."

    public var orderId: String

    public init(orderId: String) {
        self.orderId = orderId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(orderId, field: "orderId")
        return try decide(context, order: try await loader.load(OrderState.self, Streams.order(orderId)))
    }

    /// The pure decision; a confirmed order stays as it is (a re-send).
    public func decide(_ context: DecisionContext, order: OrderState) throws(DomainError) -> Decision {
        guard try order.checkStaffStep(orderId, actor: context.actor, action: "confirm orders", from: .placed, to: .confirmed, done: "confirmed")
        else { return .nothing }
        return .append(Streams.order(orderId), OrderConfirmed(orderId: orderId, confirmedBy: context.actor.userID))
    }
}

/// `order.ship`: staff hand a confirmed order to the courier; its reserved units leave the shop in the same
/// append (on hand and reserved both drop).
public struct ShipOrder: DomainCommand, Hashable {
    public static let name = "order.ship"
    public static let summary = "Ship a confirmed order; its reserved stock leaves the shop (staff)."

    public var orderId: String

    public init(orderId: String) {
        self.orderId = orderId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(orderId, field: "orderId")
        let order = try await loader.load(OrderState.self, Streams.order(orderId))
        var stock: [String: InventoryState] = [:]
        if order.status == .confirmed {
            for line in order.lines {
                stock[line.productId] = try await loader.load(InventoryState.self, Streams.inventory(line.productId))
            }
        }
        return try decide(context, order: order, stock: stock)
    }

    /// The pure decision; a shipped order stays as it is (a re-send).
    ///
    /// - Parameters:
    ///   - context: The actor.
    ///   - order: The order.
    ///   - stock: The inventory of each of its products, by id.
    /// - Returns: `OrderShipped`, then `StockReservationFulfilled` for each line's reservation on its inventory.
    /// - Throws: ``DomainError`` for a non-staff actor, a missing order, or an order not confirmed.
    public func decide(_ context: DecisionContext, order: OrderState, stock: [String: InventoryState]) throws(DomainError)
        -> Decision
    {
        guard try order.checkStaffStep(orderId, actor: context.actor, action: "ship orders", from: .confirmed, to: .shipped, done: "shipped")
        else { return .nothing }
        var writes = [StreamWrite(Streams.order(orderId), [OrderShipped(orderId: orderId, shippedBy: context.actor.userID)])]
        writes += OrderStock.settle(orderId, order.lines, stock) {
            StockReservationFulfilled(productId: $0, orderId: orderId, quantity: $1)
        }
        return Decision(writes)
    }
}

/// `order.deliver`: staff record that a shipped order reached the customer.
public struct DeliverOrder: DomainCommand, Hashable {
    public static let name = "order.deliver"
    public static let summary = "Record a shipped order as delivered (staff)."

    public var orderId: String

    public init(orderId: String) {
        self.orderId = orderId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(orderId, field: "orderId")
        return try decide(context, order: try await loader.load(OrderState.self, Streams.order(orderId)))
    }

    /// The pure decision; a delivered order stays as it is (a re-send).
    public func decide(_ context: DecisionContext, order: OrderState) throws(DomainError) -> Decision {
        guard try order.checkStaffStep(orderId, actor: context.actor, action: "deliver orders", from: .shipped, to: .delivered, done: "delivered")
        else { return .nothing }
        return .append(Streams.order(orderId), OrderDelivered(orderId: orderId, deliveredBy: context.actor.userID))
    }
}

/// `order.cancel`: the customer cancels their order before it ships, or staff cancel one before delivery; stock
/// still reserved for it is released in the same append.
public struct CancelOrder: DomainCommand, Hashable {
    public static let name = "order.cancel"
    public static let windsDownDeletedAccount = true
    public static let summary = "Cancel an order: your own before it ships, or (staff) any before delivery."

    public var orderId: String
    public var reason: String?

    public init(orderId: String, reason: String? = nil) {
        self.orderId = orderId
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.optionalString("reason", reason)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(orderId, field: "orderId")
        let order = try await loader.load(OrderState.self, Streams.order(orderId))
        var stock: [String: InventoryState] = [:]
        if order.status == .placed || order.status == .confirmed {
            for line in order.lines {
                stock[line.productId] = try await loader.load(InventoryState.self, Streams.inventory(line.productId))
            }
        }
        return try decide(context, order: order, stock: stock)
    }

    /// The pure decision; a cancelled order stays as it is (a re-send).
    ///
    /// - Parameters:
    ///   - context: The actor.
    ///   - order: The order.
    ///   - stock: The inventory of each of its products, by id (needed while stock is reserved: placed, confirmed).
    /// - Returns: `OrderCancelled`, then `StockReleased` for each line still reserved; for a shipped order, whose
    ///   units left the shop, `StockReturned` (restocked) for each product as the courier brings them back.
    /// - Throws: ``DomainError`` for another customer, a missing order, or a status that cannot be cancelled by the
    ///   actor.
    public func decide(_ context: DecisionContext, order: OrderState, stock: [String: InventoryState]) throws(DomainError)
        -> Decision
    {
        let actor = context.actor
        let reason = try reason.map { r throws(DomainError) in try Validate.text(r, field: "reason", max: 300) }
        try order.checkExists(orderId)
        guard actor.isStaff || order.customerId == actor.userID else {
            throw .forbidden("order '\(orderId)' belongs to another customer; \(actor) may not cancel it")
        }
        switch order.status {
        case .cancelled:
            return .nothing
        case .placed, .confirmed:
            break
        case .shipped where actor.isStaff:
            break
        case .shipped:
            throw .invalidState("order '\(orderId)' is shipped; a customer can cancel an order only before it ships")
        case .delivered:
            throw .invalidState("order '\(orderId)' is delivered; only an order not yet delivered can be cancelled")
        }
        var writes = [
            StreamWrite(Streams.order(orderId), [OrderCancelled(orderId: orderId, cancelledBy: actor.userID, reason: reason)])
        ]
        if order.status == .shipped {
            // The courier brings the parcel back: its units return to the shelf.
            writes += OrderStock.units(order.lines).map { productId, quantity in
                StreamWrite(
                    Streams.inventory(productId), [StockReturned(productId: productId, orderId: orderId, quantity: quantity, restocked: true)],
                    expected: .any)
            }
        } else {
            writes += OrderStock.settle(orderId, order.lines, stock) {
                StockReleased(productId: $0, orderId: orderId, quantity: $1)
            }
        }
        return Decision(writes)
    }
}

/// How an order's reservations are settled when it ships or is cancelled.
enum OrderStock {
    /// The units of each product of some lines, in the order the products first appear.
    static func units(_ lines: [PurchaseLine]) -> [(String, Int64)] {
        var order: [String] = []
        var units: [String: Int64] = [:]
        for line in lines {
            if units[line.productId] == nil { order.append(line.productId) }
            units[line.productId, default: 0] += line.quantity
        }
        return order.map { ($0, units[$0]!) }
    }

    /// One write per line whose inventory still holds a reservation for the order, of exactly the reserved units:
    /// the inventory's own record, so settling can never take more than was reserved.
    static func settle(
        _ orderId: String, _ lines: [PurchaseLine], _ stock: [String: InventoryState],
        _ event: (String, Int64) -> any DomainEvent
    ) -> [StreamWrite] {
        lines.compactMap { line in
            let reserved = stock[line.productId]?.reserved(for: orderId) ?? 0
            guard reserved > 0 else { return nil }
            return StreamWrite(Streams.inventory(line.productId), [event(line.productId, reserved)])
        }
    }
}
