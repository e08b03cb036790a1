public import Events

/// `favourite.add`: mark a product as one of the actor's own favourites (guests too).
public struct AddFavourite: DomainCommand, Hashable {
    public static let name = "favourite.add"
    public static let summary = "Add a product to your favourites."
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
        try Validate.id(productId, field: "productId")
        let favourites = try await loader.load(FavouritesState.self, Streams.favourites(context.actor.userID))
        // Read-only: a product delisted while this decides makes the append fail and the decision run again.
        let product = try await loader.load(ProductState.self, Streams.product(productId))
        return try decide(context, favourites: favourites, product: product)
    }

    /// The pure decision; a product that is a favourite already appends nothing (the heart is simply on), and only
    /// a listed product on sale becomes one.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - favourites: The actor's favourites.
    ///   - product: The product.
    /// - Returns: ``FavouriteAdded``, or nothing.
    /// - Throws: ``DomainError/notFound(_:)`` for a product never listed, ``DomainError/invalidState(_:)`` for a
    ///   delisted one, ``DomainError/rejected(_:)`` when the owner keeps ``FavouritesState/maxFavourites`` already.
    public func decide(_ context: DecisionContext, favourites: FavouritesState, product: ProductState) throws(DomainError) -> Decision {
        let owner = context.actor.userID
        guard !favourites.contains(productId) else { return .nothing }
        try product.checkOnSale(productId, refusal: "added to favourites")
        guard favourites.productIds.count < FavouritesState.maxFavourites else {
            throw .rejected("the favourites hold \(FavouritesState.maxFavourites) products already, the most they may hold")
        }
        return .append(Streams.favourites(owner), FavouriteAdded(ownerId: owner, productId: productId))
    }
}

/// `favourite.remove`: take a product out of the actor's own favourites (guests too).
public struct RemoveFavourite: DomainCommand, Hashable {
    public static let name = "favourite.remove"
    public static let summary = "Remove a product from your favourites."
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
        try Validate.id(productId, field: "productId")
        return try decide(context, favourites: try await loader.load(FavouritesState.self, Streams.favourites(context.actor.userID)))
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - favourites: The actor's favourites.
    /// - Returns: ``FavouriteRemoved``.
    /// - Throws: ``DomainError/notFound(_:)`` when the product is not a favourite.
    public func decide(_ context: DecisionContext, favourites: FavouritesState) throws(DomainError) -> Decision {
        let owner = context.actor.userID
        guard favourites.contains(productId) else {
            throw .notFound("product '\(productId)' is not among the favourites")
        }
        return .append(Streams.favourites(owner), FavouriteRemoved(ownerId: owner, productId: productId))
    }
}
