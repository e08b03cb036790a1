// The favourites area: the products a customer or a guest marked with a heart (stream `favourites-<ownerId>`).

/// A product was marked as a favourite.
public struct FavouriteAdded: DomainEvent {
    public static let eventType = "FavouriteAdded"
    public static let area = "favourites"
    public static let summary = "A product was added to the favourites of a customer or a guest."
    public var ownerId: String
    public var productId: String

    public init(ownerId: String, productId: String) {
        self.ownerId = ownerId
        self.productId = productId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.string("ownerId")
        productId = try r.string("productId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("ownerId", ownerId)
        w.string("productId", productId)
    }
}

/// A product was taken out of the favourites.
public struct FavouriteRemoved: DomainEvent {
    public static let eventType = "FavouriteRemoved"
    public static let area = "favourites"
    public static let summary = "A product was removed from the favourites of a customer or a guest."
    public var ownerId: String
    public var productId: String

    public init(ownerId: String, productId: String) {
        self.ownerId = ownerId
        self.productId = productId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.string("ownerId")
        productId = try r.string("productId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("ownerId", ownerId)
        w.string("productId", productId)
    }
}

/// A guest's favourites were merged into an account on sign-up or log-in; the guest's favourites are now empty.
public struct FavouritesMerged: DomainEvent {
    public static let eventType = "FavouritesMerged"
    public static let area = "favourites"
    public static let summary = "A guest's favourites were moved into an account on sign-up or log-in, emptying the guest's."
    /// The guest whose favourites were emptied.
    public var ownerId: String
    /// The account they were merged into.
    public var mergedInto: String
    /// The guest's favourites at the merge, in the order they were added (some the account may have held already).
    public var productIds: [String]

    public init(ownerId: String, mergedInto: String, productIds: [String]) {
        self.ownerId = ownerId
        self.mergedInto = mergedInto
        self.productIds = productIds
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.string("ownerId")
        mergedInto = try r.string("mergedInto")
        productIds = try r.strings("productIds")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("ownerId", ownerId)
        w.string("mergedInto", mergedInto)
        w.strings("productIds", productIds)
    }
}

/// The favourites area's event types, in catalog order.
public enum FavouriteEvents {
    public static let all: [any DomainEvent.Type] = [FavouriteAdded.self, FavouriteRemoved.self, FavouritesMerged.self]
}
