public import EventLog
public import Events

/// The favourites of a customer or a guest as decisions see them (stream `favourites-<ownerId>`).
public struct FavouritesState: Aggregate, Hashable {
    /// The favourite products, in the order they were added, each once.
    public var productIds: [String] = []

    /// The most favourites one owner keeps: a guest's favourites merge into an account in one append, which
    /// must stay within the log's per-append limits.
    public static let maxFavourites = 500

    public init() {}

    public static let snapshotKind = "favourites"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productIds = try r.strings("productIds")
    }

    public func write(to w: inout some FieldWriter) {
        w.strings("productIds", productIds)
    }

    /// Whether a product is a favourite.
    public func contains(_ productId: String) -> Bool {
        productIds.contains(productId)
    }

    public static func evolve(_ state: FavouritesState, _ event: any DomainEvent) -> FavouritesState {
        var s = state
        switch event {
        case let e as FavouriteAdded:
            if !s.productIds.contains(e.productId) { s.productIds.append(e.productId) }
        case let e as FavouriteRemoved:
            s.productIds.removeAll { $0 == e.productId }
        case is FavouritesMerged:
            // Written to the guest's stream: its favourites now live in the account's.
            s.productIds = []
        default:
            break
        }
        return s
    }
}

extension Streams {
    /// The favourites of a customer or a guest.
    public static func favourites(_ ownerId: String) -> StreamID { named("favourites", ownerId) }
}
