public import EventLog
public import Events

/// `order.place`: a customer checks out their own cart.
///
/// One atomic append reserves every line's stock on its inventory stream at the version read, creates the order
/// stream (`.noStream`) and clears the cart at the version read; the product streams read for the snapshots are
/// check-only conditions. If any of them changed meanwhile (another checkout took stock, the cart changed, a
/// product was repriced), the append fails and the handler decides again from fresh state, a bounded number of
/// times, so stock can never be promised twice.
public struct PlaceOrder: DomainCommand, Hashable {
    public static let name = "order.place"
    public static let staffMayActFor = true
    public static let summary = "Place an order from your cart, with delivery address, slot, recipient and payment method."

    /// The order's id; a fresh `order-…` id when absent.
    public var orderId: String?
    public var deliveryAddress: String
    /// When the customer wants it delivered: in the future of the command's clock.
    public var deliverySlot: Timestamp
    public var recipientName: String
    public var recipientPhone: String
    public var payment: PaymentMethod

    public init(
        orderId: String? = nil, deliveryAddress: String, deliverySlot: Timestamp, recipientName: String,
        recipientPhone: String, payment: PaymentMethod
    ) {
        self.orderId = orderId
        self.deliveryAddress = deliveryAddress
        self.deliverySlot = deliverySlot
        self.recipientName = recipientName
        self.recipientPhone = recipientPhone
        self.payment = payment
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.optionalString("orderId")
        deliveryAddress = try r.string("deliveryAddress")
        deliverySlot = try r.timestamp("deliverySlot")
        recipientName = try r.string("recipientName")
        recipientPhone = try r.string("recipientPhone")
        payment = try r.choice("payment", PaymentMethod.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.optionalString("orderId", orderId)
        w.string("deliveryAddress", deliveryAddress)
        w.timestamp("deliverySlot", deliverySlot)
        w.string("recipientName", recipientName)
        w.string("recipientPhone", recipientPhone)
        w.choice("payment", payment)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let id = orderId ?? context.newID("o")
        try Validate.id(id, field: "orderId")
        let cart = try await loader.load(CartState.self, Streams.cart(context.principal.userID))
        let order = try await loader.load(OrderState.self, Streams.order(id))
        var products: [String: ProductState] = [:]
        var stock: [String: InventoryState] = [:]
        if !order.exists {
            for line in cart.lines {
                products[line.productId] = try await loader.load(ProductState.self, Streams.product(line.productId))
                stock[line.productId] = try await loader.load(InventoryState.self, Streams.inventory(line.productId))
            }
        }
        return try decide(context, orderId: id, existing: order, cart: cart, products: products, stock: stock)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor (the customer) and the clock.
    ///   - orderId: The order's id.
    ///   - existing: The state of the order's stream.
    ///   - cart: The actor's cart.
    ///   - products: The state of each cart product, by id.
    ///   - stock: The state of each cart product's inventory, by id.
    /// - Returns: `StockReserved` for each line, `OrderPlaced`, `CartCleared`; nothing when this customer's order
    ///   with this id exists already (a re-send after success).
    /// - Throws: ``DomainError`` for malformed fields, an id taken by another customer's order, an empty cart, a
    ///   product missing or delisted, mixed currencies, or short stock (naming every short product).
    public func decide(
        _ context: DecisionContext, orderId: String, existing: OrderState, cart: CartState, products: [String: ProductState],
        stock: [String: InventoryState]
    ) throws(DomainError) -> Decision {
        let customer = context.principal.userID
        let address = try Validate.text(deliveryAddress, field: "deliveryAddress", max: 300)
        try Validate.future(deliverySlot, field: "deliverySlot", now: context.now)
        let recipient = try Validate.text(recipientName, field: "recipientName", max: 100)
        let phone = try Validate.phone(recipientPhone, field: "recipientPhone")
        if existing.exists {
            guard existing.customerId == customer else { throw .alreadyExists("order '\(orderId)' exists already") }
            return .nothing
        }
        guard !cart.lines.isEmpty else { throw .rejected("the cart is empty; add products before placing an order") }
        let requests = cart.lines.map { Purchase.Request(productId: $0.productId, quantity: $0.quantity) }
        let (lines, total) = try Purchase.check(
            requests, products: products, stock: stock, refusal: "ordered (remove it from the cart)")
        var writes = lines.map {
            StreamWrite(Streams.inventory($0.productId), [StockReserved(productId: $0.productId, orderId: orderId, quantity: $0.quantity)])
        }
        writes.append(
            StreamWrite(
                Streams.order(orderId),
                [
                    OrderPlaced(
                        orderId: orderId, customerId: customer, lines: lines, subtotal: total, total: total,
                        deliveryAddress: address, deliverySlot: deliverySlot, recipientName: recipient,
                        recipientPhone: phone, payment: payment)
                ], expected: .noStream))
        writes.append(
            StreamWrite(Streams.cart(customer), [CartCleared(ownerId: customer, reason: .checkedOut, reference: orderId)]))
        return Decision(writes)
    }
}
