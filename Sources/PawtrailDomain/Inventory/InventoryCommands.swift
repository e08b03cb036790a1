public import Events

/// `inventory.receive`: an admin books units that arrived.
public struct ReceiveStock: DomainCommand, Hashable {
    public static let name = "inventory.receive"
    public static let summary = "Book units of a product that arrived in stock (admins only)."

    /// The most units one delivery books.
    public static let maxQuantity: Int64 = 1_000_000

    public var productId: String
    public var quantity: Int64

    public init(productId: String, quantity: Int64) {
        self.productId = productId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.int("quantity", quantity)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(productId, field: "productId")
        // The product is read only to refuse stock for a product nobody listed: a check-only condition. The
        // inventory stream is not read: adding units can break no invariant, so the append expects `.any` there
        // and never conflicts with checkouts racing on the same product.
        return try decide(context, product: try await loader.load(ProductState.self, Streams.product(productId)))
    }

    /// The pure decision. Delisted products still receive stock: what is on the shelf is a fact.
    public func decide(_ context: DecisionContext, product: ProductState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("receive stock")
        try Validate.quantity(quantity, min: 1, max: Self.maxQuantity)
        try product.checkExists(productId)
        return .append(Streams.inventory(productId), StockReceived(productId: productId, quantity: quantity), expected: .any)
    }
}

/// `inventory.adjust`: an admin corrects on hand after a count, breakage, a return or shrinkage.
public struct AdjustStock: DomainCommand, Hashable {
    public static let name = "inventory.adjust"
    public static let summary = "Correct a product's on-hand stock up or down, with the reason (admins only)."

    public var productId: String
    /// The change: positive or negative, never zero.
    public var delta: Int64
    public var reason: String

    public init(productId: String, delta: Int64, reason: String) {
        self.productId = productId
        self.delta = delta
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        delta = try r.int("delta")
        reason = try r.string("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.int("delta", delta)
        w.string("reason", reason)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(productId, field: "productId")
        let product = try await loader.load(ProductState.self, Streams.product(productId))
        let stock = try await loader.load(InventoryState.self, Streams.inventory(productId))
        return try decide(context, product: product, stock: stock)
    }

    /// The pure decision: on hand may not drop below what is reserved for placed orders (nor below zero).
    public func decide(_ context: DecisionContext, product: ProductState, stock: InventoryState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("adjust stock")
        guard delta != 0 else { throw .invalid(field: "delta", reason: "must not be zero") }
        guard delta.magnitude <= ReceiveStock.maxQuantity else {
            throw .invalid(field: "delta", reason: "must be between -\(ReceiveStock.maxQuantity) and \(ReceiveStock.maxQuantity), got \(delta)")
        }
        let reason = try Validate.text(reason, field: "reason")
        try product.checkExists(productId)
        guard stock.onHand + delta >= stock.reserved else {
            throw .rejected(
                "product '\(productId)' has \(stock.onHand) on hand with \(stock.reserved) reserved for orders; "
                    + "on hand can go down by at most \(stock.available), not \(-delta)")
        }
        return .append(Streams.inventory(productId), StockAdjusted(productId: productId, delta: delta, reason: reason))
    }
}
