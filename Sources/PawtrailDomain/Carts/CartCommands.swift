public import Events

/// `cart.add`: put units of a product in the actor's own cart (guests too).
public struct AddToCart: DomainCommand, Hashable {
    public static let name = "cart.add"
    public static let staffMayActFor = true
    public static let summary = "Add units of a product to your cart."
    public static let allowsGuests = true

    public var productId: String
    public var quantity: Int64

    public init(productId: String, quantity: Int64 = 1) {
        self.productId = productId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        quantity = try r.optionalInt("quantity") ?? 1
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.optionalInt("quantity", quantity)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(productId, field: "productId")
        let cart = try await loader.load(CartState.self, Streams.cart(context.principal.userID))
        // Read-only: a product delisted while this decides makes the append fail and the decision run again.
        let product = try await loader.load(ProductState.self, Streams.product(productId))
        return try decide(context, cart: cart, product: product)
    }

    /// The pure decision: only a listed product on sale goes in a cart (stock is checked at checkout).
    public func decide(_ context: DecisionContext, cart: CartState, product: ProductState) throws(DomainError) -> Decision {
        try Validate.quantity(quantity, max: CartState.maxQuantity)
        try product.checkOnSale(productId, refusal: "added to a cart")
        let owner = context.principal.userID
        let current = cart.quantity(of: productId)
        guard current + quantity <= CartState.maxQuantity else {
            throw .invalid(
                field: "quantity",
                reason: "the cart holds \(current) of '\(productId)'; a line holds at most \(CartState.maxQuantity)")
        }
        guard current > 0 || cart.lines.count < CartState.maxLines else {
            throw .rejected("the cart holds \(CartState.maxLines) products already, the most it may hold")
        }
        return .append(Streams.cart(owner), CartItemAdded(ownerId: owner, productId: productId, quantity: quantity))
    }
}

/// `cart.set-quantity`: set the quantity of a product already in the cart.
public struct ChangeCartQuantity: DomainCommand, Hashable {
    public static let name = "cart.set-quantity"
    public static let staffMayActFor = true
    public static let summary = "Set the quantity of a product in your cart."
    public static let allowsGuests = true

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
        try decide(context, cart: try await loader.load(CartState.self, Streams.cart(context.principal.userID)))
    }

    /// The pure decision; an unchanged quantity appends nothing.
    public func decide(_ context: DecisionContext, cart: CartState) throws(DomainError) -> Decision {
        try Validate.quantity(quantity, max: CartState.maxQuantity)
        let owner = context.principal.userID
        let current = cart.quantity(of: productId)
        guard current > 0 else { throw .notFound("product '\(productId)' is not in the cart") }
        guard current != quantity else { return .nothing }
        return .append(Streams.cart(owner), CartItemQuantityChanged(ownerId: owner, productId: productId, quantity: quantity))
    }
}

/// `cart.remove`: take a product out of the cart.
public struct RemoveFromCart: DomainCommand, Hashable {
    public static let name = "cart.remove"
    public static let staffMayActFor = true
    public static let summary = "Remove a product from your cart."
    public static let allowsGuests = true

    public var productId: String

    public init(productId: String) {
        self.productId = productId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, cart: try await loader.load(CartState.self, Streams.cart(context.principal.userID)))
    }

    /// The pure decision.
    public func decide(_ context: DecisionContext, cart: CartState) throws(DomainError) -> Decision {
        let owner = context.principal.userID
        guard cart.quantity(of: productId) > 0 else { throw .notFound("product '\(productId)' is not in the cart") }
        return .append(Streams.cart(owner), CartItemRemoved(ownerId: owner, productId: productId))
    }
}

/// `cart.clear`: empty the cart; an empty cart stays as it is.
public struct ClearCart: DomainCommand, Hashable {
    public static let name = "cart.clear"
    public static let staffMayActFor = true
    public static let summary = "Empty your cart."
    public static let allowsGuests = true

    public init() {}
    public init(reading r: inout some FieldReader) throws(FieldError) {}
    public func write(to w: inout some FieldWriter) {}

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        decide(context, cart: try await loader.load(CartState.self, Streams.cart(context.principal.userID)))
    }

    /// The pure decision.
    public func decide(_ context: DecisionContext, cart: CartState) -> Decision {
        let owner = context.principal.userID
        guard !cart.lines.isEmpty else { return .nothing }
        return .append(Streams.cart(owner), CartCleared(ownerId: owner, reason: .cleared))
    }
}
