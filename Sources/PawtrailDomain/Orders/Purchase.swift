public import Events

/// What an online order and an in-store sale both check before taking stock: every product exists and is on
/// sale, all are priced in one currency, and each has at least the requested units available.
public enum Purchase {
    /// One requested line.
    public struct Request: Hashable, Sendable {
        public var productId: String
        public var quantity: Int64

        public init(productId: String, quantity: Int64) {
            self.productId = productId
            self.quantity = quantity
        }
    }

    /// Checks a purchase and snapshots its lines.
    ///
    /// - Parameters:
    ///   - requests: The lines, one per product.
    ///   - products: The state of each product, by id.
    ///   - stock: The state of each product's inventory, by id.
    ///   - refusal: What cannot happen to a delisted product, completing "it cannot be ..." (`sold`).
    /// - Returns: The line snapshots at current prices, and their total.
    /// - Throws: ``DomainError/notFound(_:)`` or ``DomainError/invalidState(_:)`` for the first product missing or
    ///   off sale; ``DomainError/rejected(_:)`` for mixed currencies; ``DomainError/stockShort(_:)`` naming every
    ///   product short of stock, with what is available and what was requested.
    public static func check(
        _ requests: [Request], products: [String: ProductState], stock: [String: InventoryState], refusal: String
    ) throws(DomainError) -> (lines: [PurchaseLine], total: Money) {
        var lines: [PurchaseLine] = []
        for request in requests {
            let product = products[request.productId] ?? ProductState()
            try product.checkOnSale(request.productId, refusal: refusal)
            lines.append(product.purchaseLine(request.productId, quantity: request.quantity))
        }
        let currencies = lines.reduce(into: [String]()) { if !$0.contains($1.unitPrice.currency) { $0.append($1.unitPrice.currency) } }
        guard currencies.count <= 1 else {
            throw .rejected(
                "the products are priced in \(currencies.joined(separator: " and ")); one purchase is paid in one currency")
        }
        let shortages = requests.compactMap { request -> StockShortage? in
            let available = stock[request.productId]?.available ?? 0
            guard available < request.quantity else { return nil }
            return StockShortage(productID: request.productId, available: available, requested: request.quantity)
        }
        guard shortages.isEmpty else { throw .stockShort(shortages) }
        let currency = currencies.first ?? "BDT"
        let total = Money(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }, currency)
        return (lines, total)
    }
}
