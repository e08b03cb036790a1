public import Events

/// One line a till rings up.
public struct SaleItem: FieldCodable, Hashable {
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
}

/// `pos.sell`: staff sell products over the counter, from the same stock online orders reserve from, naming the
/// customer when the customer has an account (`customerId`), so the sale shows in the sales list under their name.
///
/// Stock-safe as checkout is: each line needs that many units available (on hand minus reserved) at the version
/// read, and one atomic append writes `StockSoldInStore` on every inventory stream at that version with the sale.
public struct SellInStore: DomainCommand, Hashable {
    public static let name = "pos.sell"
    public static let summary = "Sell products over the counter from the shop's stock (staff)."

    /// The most lines one sale holds.
    public static let maxLines = 100
    /// The most units of one product one sale holds.
    public static let maxQuantity: Int64 = 999

    /// The lines; a product rung up twice is one line with the quantities summed.
    public var lines: [SaleItem]
    public var payment: StorePayment
    /// The customer the sale is for, an account holder; absent for a walk-in sale.
    public var customerId: String?

    public init(lines: [SaleItem], payment: StorePayment, customerId: String? = nil) {
        self.lines = lines
        self.payment = payment
        self.customerId = customerId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        lines = try r.records("lines", SaleItem.self)
        payment = try r.choice("payment", StorePayment.self)
        customerId = try r.optionalString("customerId")
    }

    public func write(to w: inout some FieldWriter) {
        w.records("lines", lines)
        w.choice("payment", payment)
        w.optionalString("customerId", customerId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let saleId = context.newID("s")
        let sale = try await loader.load(SaleState.self, Streams.sale(saleId))
        var customer: AccountState?
        if context.actor.isStaff, let customerId {
            try Validate.id(customerId, field: "customerId")
            // Read for the check only: a sale does not write the customer's account.
            customer = try await loader.load(AccountState.self, Streams.account(customerId))
        }
        var products: [String: ProductState] = [:]
        var stock: [String: InventoryState] = [:]
        if context.actor.isStaff, !sale.exists, let requests = try? Self.requests(lines) {
            for request in requests {
                products[request.productId] = try await loader.load(ProductState.self, Streams.product(request.productId))
                stock[request.productId] = try await loader.load(InventoryState.self, Streams.inventory(request.productId))
            }
        }
        return try decide(context, saleId: saleId, existing: sale, products: products, stock: stock, customer: customer)
    }

    /// The lines checked and merged by product, in first-rung order.
    static func requests(_ lines: [SaleItem]) throws(DomainError) -> [Purchase.Request] {
        guard !lines.isEmpty else { throw .invalid(field: "lines", reason: "a sale needs at least one line") }
        var out: [Purchase.Request] = []
        for (n, line) in lines.enumerated() {
            try Validate.id(line.productId, field: "lines[\(n)].productId")
            try Validate.quantity(line.quantity, field: "lines[\(n)].quantity", max: maxQuantity)
            if let i = out.firstIndex(where: { $0.productId == line.productId }) {
                out[i].quantity += line.quantity
                guard out[i].quantity <= maxQuantity else {
                    throw .invalid(field: "lines[\(n)].quantity", reason: "'\(line.productId)' totals \(out[i].quantity) units; a sale holds at most \(maxQuantity) of one product")
                }
            } else {
                out.append(Purchase.Request(productId: line.productId, quantity: line.quantity))
            }
        }
        guard out.count <= maxLines else { throw .invalid(field: "lines", reason: "a sale holds at most \(maxLines) products, got \(out.count)") }
        return out
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor (staff) and the ids.
    ///   - saleId: The sale's id, derived from the command id.
    ///   - existing: The state of the sale's stream: it exists only when this very command ran before.
    ///   - products: The state of each product sold, by id.
    ///   - stock: The state of each product's inventory, by id.
    ///   - customer: The named customer's account, when `customerId` is given.
    /// - Returns: `StockSoldInStore` on each inventory stream, then `InStoreSaleCompleted`; nothing for a re-sent
    ///   command whose sale exists.
    /// - Throws: ``DomainError`` for a non-staff actor, malformed lines, a named customer without an account or whose
    ///   account is deleted, a product missing or delisted, mixed currencies, or short stock (naming every short
    ///   product).
    public func decide(
        _ context: DecisionContext, saleId: String, existing: SaleState, products: [String: ProductState],
        stock: [String: InventoryState], customer: AccountState? = nil
    ) throws(DomainError) -> Decision {
        try context.actor.requireStaff("sell at the till")
        let requests = try Self.requests(lines)
        if let customerId {
            try Validate.id(customerId, field: "customerId")
            guard let customer, customer.exists else { throw .notFound("customer '\(customerId)' has no account") }
            guard !customer.deleted else { throw .invalidState("the account of '\(customerId)' is deleted; a sale cannot name it") }
        }
        guard !existing.exists else { return .nothing }
        let (snapshots, total) = try Purchase.check(requests, products: products, stock: stock, refusal: "sold")
        var writes = snapshots.map {
            StreamWrite(Streams.inventory($0.productId), [StockSoldInStore(productId: $0.productId, saleId: saleId, quantity: $0.quantity)])
        }
        writes.append(
            StreamWrite(
                Streams.sale(saleId),
                [
                    InStoreSaleCompleted(
                        saleId: saleId, soldBy: context.actor.userID, lines: snapshots, total: total, payment: payment,
                        customerId: customerId)
                ],
                expected: .noStream))
        return Decision(writes)
    }
}
