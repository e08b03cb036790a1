import Events

/// What a guest leaves behind when they sign up or log in: their cart and favourites move into the account, in
/// the same atomic append as the sign-up or log-in, so that a guest's items are never in both places or in none.
///
/// The four streams are loaded (not only the guest's): the account's side decides what the sums and the union
/// are, and a concurrent change to either side makes the append fail and the command decide again.
public struct GuestMerge: Sendable, Hashable {
    /// The guest id (`guest-...`).
    public var guestId: String
    /// The guest's cart.
    public var guestCart: CartState
    /// The account's cart.
    public var accountCart: CartState
    /// The guest's favourites.
    public var guestFavourites: FavouritesState
    /// The account's favourites.
    public var accountFavourites: FavouritesState

    /// Creates a merge from loaded states.
    public init(
        guestId: String, guestCart: CartState = CartState(), accountCart: CartState = CartState(),
        guestFavourites: FavouritesState = FavouritesState(), accountFavourites: FavouritesState = FavouritesState()
    ) {
        self.guestId = guestId
        self.guestCart = guestCart
        self.accountCart = accountCart
        self.guestFavourites = guestFavourites
        self.accountFavourites = accountFavourites
    }

    /// Checks a command's `guestId` field: an id that starts with `guest-`.
    ///
    /// - Parameter guestId: The field's value.
    /// - Throws: ``DomainError/invalid(field:reason:)`` naming `guestId`.
    public static func validate(_ guestId: String) throws(DomainError) {
        try Validate.id(guestId, field: "guestId")
        guard Actor.isGuestID(guestId) else {
            throw .invalid(field: "guestId", reason: "'\(guestId)' is not a guest id; guest ids start with '\(Actor.guestPrefix)'")
        }
    }

    /// Validates the guest id and loads the guest's and the account's carts and favourites.
    ///
    /// - Parameters:
    ///   - guestId: The guest to merge, already given by the command.
    ///   - userID: The account merged into.
    ///   - loader: The command's loader; all four streams become expectations of the append.
    /// - Returns: The merge.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a malformed guest id; store errors.
    public static func load(guestId: String, into userID: String, loader: inout StreamLoader) async throws -> GuestMerge {
        try validate(guestId)
        return GuestMerge(
            guestId: guestId,
            guestCart: try await loader.load(CartState.self, Streams.cart(guestId)),
            accountCart: try await loader.load(CartState.self, Streams.cart(userID)),
            guestFavourites: try await loader.load(FavouritesState.self, Streams.favourites(guestId)),
            accountFavourites: try await loader.load(FavouritesState.self, Streams.favourites(userID)))
    }

    /// The writes that move the guest's cart and favourites into the account; none when the guest has neither.
    ///
    /// Cart lines are summed into the account's cart, one ``CartItemAdded`` per guest line carrying the units
    /// actually added. A sum over ``CartState/maxQuantity`` (99) is capped at 99, so the cart's invariant holds and
    /// the extra units are dropped; a product the account holds 99 of already adds nothing. Likewise a new line
    /// that would take the account's cart past ``CartState/maxLines`` is dropped. The guest's cart is then
    /// emptied with ``CartCleared`` (reason `merged`, reference the account).
    ///
    /// Favourites are unioned: a ``FavouriteAdded`` for each guest favourite the account does not hold yet, in
    /// the guest's order, up to ``FavouritesState/maxFavourites`` in all, and the guest's favourites are emptied
    /// with ``FavouritesMerged``.
    ///
    /// - Parameter userID: The account merged into.
    /// - Returns: Writes to `cart-<userID>`, `cart-<guestId>`, `favourites-<userID>` and `favourites-<guestId>`
    ///   (only those with events), in that order.
    public func writes(into userID: String) -> [StreamWrite] {
        var writes: [StreamWrite] = []
        if !guestCart.lines.isEmpty {
            var added: [any DomainEvent] = []
            var lineCount = accountCart.lines.count
            for line in guestCart.lines {
                let current = accountCart.quantity(of: line.productId)
                if current == 0 {
                    guard lineCount < CartState.maxLines else { continue }
                    lineCount += 1
                }
                let units = min(current + line.quantity, CartState.maxQuantity) - current
                guard units > 0 else { continue }
                added.append(CartItemAdded(ownerId: userID, productId: line.productId, quantity: units))
            }
            if !added.isEmpty { writes.append(StreamWrite(Streams.cart(userID), added)) }
            writes.append(
                StreamWrite(Streams.cart(guestId), [CartCleared(ownerId: guestId, reason: .merged, reference: userID)]))
        }
        if !guestFavourites.productIds.isEmpty {
            let room = max(0, FavouritesState.maxFavourites - accountFavourites.productIds.count)
            let added: [any DomainEvent] = guestFavourites.productIds
                .filter { !accountFavourites.contains($0) }
                .prefix(room)
                .map { FavouriteAdded(ownerId: userID, productId: $0) }
            if !added.isEmpty { writes.append(StreamWrite(Streams.favourites(userID), added)) }
            writes.append(
                StreamWrite(
                    Streams.favourites(guestId),
                    [FavouritesMerged(ownerId: guestId, mergedInto: userID, productIds: guestFavourites.productIds)]))
        }
        return writes
    }
}
