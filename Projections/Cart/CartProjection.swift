public import Events

/// Every owner's cart (customers and guests, stream `cart-<owner>`) as quantities by product, with the products
/// they may hold kept once for all carts, so a cart is always shown at the products' current prices.
///
/// The state is three tables: the products (the catalog's own fold, ``CatalogProjection/applyProductEvent(_:_:)``,
/// for names, prices, compare-at prices, categories, listing and units sold), their stock (``ProductStock``) and the
/// carts. Each event updates one
/// entry by key; line totals, subtotal, savings and recommendations are computed by ``CartView``, because a reprice
/// changes every cart holding the product and recomputing them in the fold would touch every cart.
///
/// Lines follow ``CartState`` (the domain's cart): an add sums into the line, a quantity change sets it (on a line
/// that exists), a removal drops it, ``CartCleared`` (a clear, a checkout or a merge into an account) empties the
/// cart but keeps it known. Line order is the order products were first added since they were last absent: each
/// line keeps the log position of that add, and the view sorts by it.
public enum CartProjection: KeyedProjection {
    /// One cart line: units and the log position of the add that created it (its place in the cart).
    public struct Line: FieldCodable, Hashable {
        public var quantity: Int64
        /// The position of the add that created the line; lines are shown in this order.
        public var addedAt: Int64

        public init(quantity: Int64, addedAt: Int64) {
            self.quantity = quantity
            self.addedAt = addedAt
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            quantity = try r.int("quantity")
            addedAt = try r.int("addedAt")
        }

        public func write(to w: inout some FieldWriter) {
            w.int("quantity", quantity)
            w.int("addedAt", addedAt)
        }
    }

    /// One owner's cart: lines by product id.
    public struct Cart: FieldCodable, Hashable {
        public var lines: [String: Line]

        public init(lines: [String: Line] = [:]) {
            self.lines = lines
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            lines = try r.keyed("lines", Line.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("lines", lines)
        }

        /// Adds units: into the line when the product is in the cart, else as a new last line.
        mutating func add(_ productId: String, _ quantity: Int64, at position: Int64) {
            if lines[productId] != nil {
                lines[productId]!.quantity += quantity
            } else {
                lines[productId] = Line(quantity: quantity, addedAt: position)
            }
        }

        /// The lines in cart order (first added first).
        public var orderedLines: [(productId: String, line: Line)] {
            lines.map { (productId: $0.key, line: $0.value) }.sorted { $0.line.addedAt < $1.line.addedAt }
        }
    }

    /// The products, once, and every cart by owner id, each table row by row with every version: a cart as of a
    /// past moment shows the prices of that moment.
    public struct State: KeyedProjectionState {
        public var products = KeyedTable<CatalogProjection.Product>(id: 1, history: .exact)
        public var carts = KeyedTable<Cart>(id: 2, history: .exact)
        /// Each product's stock, apart from its details: a reservation writes a small row, not the product again.
        public var stock = KeyedTable<ProductStock>(id: 3, history: .exact)

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            products = KeyedTable(id: 1, history: .exact, rows: try r.keyed("products", CatalogProjection.Product.self))
            carts = KeyedTable(id: 2, history: .exact, rows: try r.keyed("carts", Cart.self))
            stock = KeyedTable(id: 3, history: .exact, rows: try r.keyed("stock", ProductStock.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("products", products.entries)
            w.keyed("carts", carts.entries)
            w.keyed("stock", stock.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&products)
            visitor.visit(&carts)
            visitor.visit(&stock)
        }
    }

    public static let name = "cart"
    public static let schemaVersion = 3
    public static let foldCost = 400
    public static let summary =
        "Every cart at current prices: lines, subtotal, savings against compare-at prices, total and recommendations."
    /// The cart events, and the catalog's product and sale events (prices, listing, popularity).
    public static let eventTypes = CatalogProjection.productEventTypes.union(ProductStock.eventTypes).union(
        types(CartItemAdded.self, CartItemQuantityChanged.self, CartItemRemoved.self, CartCleared.self))

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {
        case CartItemAdded.typeID:
            let x = e.event as! CartItemAdded
            state.carts[x.ownerId, default: Cart()].add(x.productId, x.quantity, at: Int64(truncatingIfNeeded: e.position))
        case CartItemQuantityChanged.typeID:
            let x = e.event as! CartItemQuantityChanged
            // Like the domain's cart: a change to a line that is not there changes nothing (the cart is known).
            state.carts[x.ownerId, default: Cart()].lines[x.productId]?.quantity = x.quantity
        case CartItemRemoved.typeID:
            let x = e.event as! CartItemRemoved
            state.carts[x.ownerId, default: Cart()].lines[x.productId] = nil
        case CartCleared.typeID:
            let x = e.event as! CartCleared
            state.carts[x.ownerId, default: Cart()].lines.removeAll()
        default:
            CatalogProjection.applyProductEvent(&state.products, e.event)
            ProductStock.apply(&state.stock, e.event)
        }
    }
}
