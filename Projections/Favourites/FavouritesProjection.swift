public import EventLog
public import Events

/// The favourite products of every customer and guest, in the order they were added, with the products' names.
///
/// A guest's favourites move into the account they sign up or log in as: the domain writes a `FavouriteAdded`
/// to the account for each product it did not hold yet, and `FavouritesMerged` to the guest, which empties the
/// guest's favourites here. The merge's own product list is not added to the account again: the account's
/// `FavouriteAdded` events already say which ones it gained (the ones it held already, or past its limit, it did
/// not).
public enum FavouritesProjection: KeyedProjection {
    /// One favourite.
    public struct Favourite: FieldCodable, Hashable {
        /// The log position of the event that added it: the order the favourites are listed in.
        public var order: Int64
        /// The business time it was added.
        public var addedAt: Timestamp

        public init(order: Int64, addedAt: Timestamp) {
            self.order = order
            self.addedAt = addedAt
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            order = try r.int("order")
            addedAt = try r.timestamp("addedAt")
        }

        public func write(to w: inout some FieldWriter) {
            w.int("order", order)
            w.timestamp("addedAt", addedAt)
        }
    }

    /// One customer's or guest's favourites.
    public struct Favourites: FieldCodable, Hashable {
        /// By product id.
        public var products: [String: Favourite]
        /// For a guest whose favourites were merged: the account they went to, when, and how many.
        public var mergedInto: String?
        public var mergedAt: Timestamp?
        public var mergedCount: Int64

        public init(products: [String: Favourite] = [:], mergedInto: String? = nil, mergedAt: Timestamp? = nil, mergedCount: Int64 = 0) {
            self.products = products
            self.mergedInto = mergedInto
            self.mergedAt = mergedAt
            self.mergedCount = mergedCount
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            products = try r.keyed("products", Favourite.self)
            mergedInto = try r.optionalString("mergedInto")
            mergedAt = try r.optionalTimestamp("mergedAt")
            mergedCount = try r.int("mergedCount")
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("products", products)
            w.optionalString("mergedInto", mergedInto)
            w.optionalTimestamp("mergedAt", mergedAt)
            w.int("mergedCount", mergedCount)
        }
    }

    /// A product's name and whether it is on sale, for the list.
    public struct Product: FieldCodable, Hashable {
        public var name: String
        public var listed: Bool

        public init(name: String, listed: Bool = true) {
            self.name = name
            self.listed = listed
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            name = try r.string("name")
            listed = try r.bool("listed")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("name", name)
            w.bool("listed", listed)
        }
    }

    /// Every owner's favourites, and the products' names.
    public struct State: KeyedProjectionState {
        /// Favourites by owner (user or guest id), every version kept.
        public var owners = KeyedTable<Favourites>(id: 1, history: .exact)
        /// Products by id, every version kept.
        public var products = KeyedTable<Product>(id: 2, history: .exact)

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            owners = KeyedTable(id: 1, history: .exact, rows: try r.keyed("owners", Favourites.self))
            products = KeyedTable(id: 2, history: .exact, rows: try r.keyed("products", Product.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("owners", owners.entries)
            w.keyed("products", products.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&owners)
            visitor.visit(&products)
        }
    }

    public static let name = "favourites"
    public static let schemaVersion = 2
    public static let foldCost = 200
    public static let summary = "Favourite products per customer or guest, in the order added; a guest's are emptied by a merge."
    public static let eventTypes = types(
        FavouriteAdded.self, FavouriteRemoved.self, FavouritesMerged.self, ProductListed.self, ProductDetailsChanged.self, ProductDelisted.self,
        ProductRelisted.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {
        case FavouriteAdded.typeID:
            let x = e.event as! FavouriteAdded
            let favourite = Favourite(order: Int64(e.position), addedAt: e.occurredAt)
            state.owners[x.ownerId, default: Favourites()].add(x.productId, favourite)
        case FavouriteRemoved.typeID:
            let x = e.event as! FavouriteRemoved
            state.owners[x.ownerId]?.products[x.productId] = nil
        case FavouritesMerged.typeID:
            let x = e.event as! FavouritesMerged
            state.owners[x.ownerId, default: Favourites()].update {
                $0.products = [:]
                $0.mergedInto = x.mergedInto
                $0.mergedAt = e.occurredAt
                $0.mergedCount = Int64(x.productIds.count)
            }
        case ProductListed.typeID:
            let x = e.event as! ProductListed
            state.products[x.productId] = Product(name: x.name)
        case ProductDetailsChanged.typeID:
            let x = e.event as! ProductDetailsChanged
            state.products[x.productId]?.name = x.name
        case ProductDelisted.typeID:
            let x = e.event as! ProductDelisted
            state.products[x.productId]?.listed = false
        case ProductRelisted.typeID:
            let x = e.event as! ProductRelisted
            state.products[x.productId]?.listed = true
        default:
            return
        }
    }
}

extension FavouritesProjection.Favourites {
    /// Adds a product. The domain adds a product once; should one come twice, the first addition keeps its place.
    fileprivate mutating func add(_ productId: String, _ favourite: FavouritesProjection.Favourite) {
        if products[productId] == nil { products[productId] = favourite }
    }

    /// Runs a change in place.
    fileprivate mutating func update(_ body: (inout Self) -> Void) { body(&self) }
}
