public import Events

/// The shop's catalog as customers browse it: every product with its name, description, price, compare-at price,
/// category, tags, image, whether it is on sale, its popularity, and its stock (``ProductStock``: "only 3 left").
///
/// Popularity is **units sold**: units that left the shop, i.e. ``StockReservationFulfilled`` (an online order
/// was shipped) plus ``StockSoldInStore`` (a till sale), less units that came back (``StockReturned``: a return,
/// or a shipped order cancelled). Placed orders that have not shipped do not count: a placed order may still be
/// cancelled. Counting units as the inventory does keeps popularity equal to the inventory read model's `sold` and
/// the dashboard's top products, so the catalog, the cart's recommendations, the inventory and the dashboard never
/// disagree.
///
/// The fold only updates one product by key per event; searching, filtering, sorting and paging happen in
/// ``CatalogView``. The cart read model (``CartProjection``) folds product events with the same
/// ``applyProductEvent(_:_:)``; a change there bumps both schema versions.
public enum CatalogProjection: Projection {
    /// One product as the catalog shows it.
    public struct Product: FieldCodable, Hashable {
        public var name: String
        /// The selling price.
        public var price: Money
        /// The "was" price shown struck through, when set.
        public var compareAtPrice: Money?
        public var category: String
        public var tags: [String]
        public var imageRef: String
        /// What the product page says about it (empty for none).
        public var description: String
        /// Listed at least once. A product known only from sales (whose listing the log does not hold) is not, and
        /// no view shows it; it exists only to keep its units sold for a listing that comes later.
        public var catalogued: Bool
        /// On sale: listed and not delisted since.
        public var listed: Bool
        /// Units sold: shipped order units plus till sales.
        public var unitsSold: Int64

        public init(
            name: String = "", price: Money = Money(0, ""), compareAtPrice: Money? = nil, category: String = "",
            tags: [String] = [], imageRef: String = "", description: String = "", catalogued: Bool = true,
            listed: Bool = false, unitsSold: Int64 = 0
        ) {
            self.name = name
            self.price = price
            self.compareAtPrice = compareAtPrice
            self.category = category
            self.tags = tags
            self.imageRef = imageRef
            self.description = description
            self.catalogued = catalogued
            self.listed = listed
            self.unitsSold = unitsSold
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            name = try r.string("name")
            price = try r.money("price")
            compareAtPrice = try r.optionalMoney("compareAtPrice")
            category = try r.string("category")
            tags = try r.strings("tags")
            imageRef = try r.string("imageRef")
            description = try r.string("description")
            catalogued = try r.bool("catalogued")
            listed = try r.bool("listed")
            unitsSold = try r.int("unitsSold")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("name", name)
            w.money("price", price)
            w.optionalMoney("compareAtPrice", compareAtPrice)
            w.string("category", category)
            w.strings("tags", tags)
            w.string("imageRef", imageRef)
            w.string("description", description)
            w.bool("catalogued", catalogued)
            w.bool("listed", listed)
            w.int("unitsSold", unitsSold)
        }
    }

    /// Every product, and its stock, by product id.
    public struct State: ProjectionState {
        public var products: [String: Product] = [:]
        public var stock: [String: ProductStock] = [:]

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            products = try r.keyed("products", Product.self)
            stock = try r.keyed("stock", ProductStock.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("products", products)
            w.keyed("stock", stock)
        }
    }

    public static let name = "catalog"
    public static let schemaVersion = 3
    public static let foldCost = 85
    public static let summary =
        "Every product with price, compare-at price, category, tags, image, listing and units sold; searchable and paged."
    /// The product events, the two stock events that mean units were sold, and those that change the stock.
    public static let eventTypes = productEventTypes.union(ProductStock.eventTypes)

    /// The events ``applyProductEvent(_:_:)`` reads (shared with ``CartProjection``).
    public static let productEventTypes = types(
        ProductListed.self, ProductRepriced.self, ProductDelisted.self, ProductRelisted.self, ProductDetailsChanged.self,
        StockReservationFulfilled.self, StockSoldInStore.self, StockReturned.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        // A till sale is both: units sold, and units gone from stock.
        applyProductEvent(&state.products, e.event)
        ProductStock.apply(&state.stock, e.event)
    }

    /// The entry of a product sold before (or without) its listing.
    static let uncatalogued = Product(catalogued: false)

    /// Folds one product or sale event into a products dictionary: one keyed update, nothing else.
    ///
    /// A listing again (a re-seed of an existing id, or a v1 record upcast) replaces the product's description and
    /// keeps its units sold. Repricing, delisting and relisting a product never listed change nothing (the domain
    /// refuses them); units sold of a product never listed go to a hidden entry (`catalogued == false`), so a listing
    /// that comes later still finds them.
    ///
    /// - Returns: Whether the event was one of ``productEventTypes``.
    @discardableResult
    public static func applyProductEvent(_ products: inout some RecordTable<Product>, _ event: any DomainEvent) -> Bool {
        switch ObjectIdentifier(type(of: event)) {
        case ProductListed.typeID:
            let x = event as! ProductListed
            let sold = products[x.productId]?.unitsSold ?? 0
            products[x.productId] = Product(
                name: x.name, price: x.price, compareAtPrice: x.compareAtPrice, category: x.category, tags: x.tags,
                imageRef: x.imageRef, description: x.description, catalogued: true, listed: true, unitsSold: sold)
        case ProductDetailsChanged.typeID:
            let x = event as! ProductDetailsChanged
            guard var p = products[x.productId], p.catalogued else { break }
            p.name = x.name
            p.description = x.description
            p.category = x.category
            p.tags = x.tags
            p.imageRef = x.imageRef
            products[x.productId] = p
        case ProductRepriced.typeID:
            let x = event as! ProductRepriced
            // An absent compare-at price in a reprice removes it (the event's contract).
            guard products[x.productId]?.catalogued == true else { break }
            products[x.productId]!.price = x.price
            products[x.productId]!.compareAtPrice = x.compareAtPrice
        case ProductDelisted.typeID:
            let x = event as! ProductDelisted
            guard products[x.productId]?.catalogued == true else { break }
            products[x.productId]!.listed = false
        case ProductRelisted.typeID:
            let x = event as! ProductRelisted
            guard products[x.productId]?.catalogued == true else { break }
            products[x.productId]!.listed = true
        case StockReservationFulfilled.typeID:
            let x = event as! StockReservationFulfilled
            products[x.productId, default: uncatalogued].unitsSold += x.quantity
        case StockSoldInStore.typeID:
            let x = event as! StockSoldInStore
            products[x.productId, default: uncatalogued].unitsSold += x.quantity
        case StockReturned.typeID:
            let x = event as! StockReturned
            products[x.productId, default: uncatalogued].unitsSold -= x.quantity
        default:
            return false
        }
        return true
    }
}
