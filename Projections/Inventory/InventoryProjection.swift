public import Events

/// Stock per product: on hand, reserved for orders, available, and sold (shipped orders and till sales, less units
/// that came back).
public enum InventoryProjection: Projection {
    /// One product's stock.
    public struct Row: FieldCodable, Hashable {
        public var name: String
        public var category: String
        public var listed: Bool
        public var onHand: Int64
        public var reserved: Int64
        public var sold: Int64

        public init(name: String = "", category: String = "", listed: Bool = true, onHand: Int64 = 0, reserved: Int64 = 0, sold: Int64 = 0) {
            self.name = name
            self.category = category
            self.listed = listed
            self.onHand = onHand
            self.reserved = reserved
            self.sold = sold
        }

        /// Units that can still be ordered.
        public var available: Int64 { onHand - reserved }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            name = try r.string("name")
            category = try r.string("category")
            listed = try r.bool("listed")
            onHand = try r.int("onHand")
            reserved = try r.int("reserved")
            sold = try r.int("sold")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("name", name)
            w.string("category", category)
            w.bool("listed", listed)
            w.int("onHand", onHand)
            w.int("reserved", reserved)
            w.int("sold", sold)
        }
    }

    /// Every product's stock, by product id.
    public struct State: ProjectionState {
        public var products: [String: Row] = [:]

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            products = try r.keyed("products", Row.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("products", products)
        }
    }

    public static let name = "inventory"
    public static let schemaVersion = 3
    public static let foldCost = 160
    public static let summary = "Stock per product: on hand, reserved, available, sold; and the low-stock list."
    public static let eventTypes = types(
        ProductListed.self, ProductDetailsChanged.self, ProductDelisted.self, ProductRelisted.self, StockReceived.self,
        StockAdjusted.self,
        StockReserved.self, StockReleased.self, StockReservationFulfilled.self, StockSoldInStore.self, StockReturned.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {
        case ProductListed.typeID:
            let x = e.event as! ProductListed
            var row = state.products[x.productId] ?? Row()
            row.name = x.name
            row.category = x.category
            row.listed = true
            state.products[x.productId] = row
        case ProductDetailsChanged.typeID:
            let x = e.event as! ProductDetailsChanged
            guard var row = state.products[x.productId] else { return }
            row.name = x.name
            row.category = x.category
            state.products[x.productId] = row
        case ProductDelisted.typeID:
            let x = e.event as! ProductDelisted
            state.products[x.productId, default: Row()].listed = false
        case ProductRelisted.typeID:
            let x = e.event as! ProductRelisted
            state.products[x.productId, default: Row()].listed = true
        case StockReceived.typeID:
            let x = e.event as! StockReceived
            state.products[x.productId, default: Row()].onHand += x.quantity
        case StockAdjusted.typeID:
            let x = e.event as! StockAdjusted
            state.products[x.productId, default: Row()].onHand += x.delta
        case StockReserved.typeID:
            let x = e.event as! StockReserved
            state.products[x.productId, default: Row()].reserved += x.quantity
        case StockReleased.typeID:
            let x = e.event as! StockReleased
            state.products[x.productId, default: Row()].reserved -= x.quantity
        case StockReservationFulfilled.typeID:
            let x = e.event as! StockReservationFulfilled
            var row = state.products[x.productId] ?? Row()
            row.reserved -= x.quantity
            row.onHand -= x.quantity
            row.sold += x.quantity
            state.products[x.productId] = row
        case StockSoldInStore.typeID:
            let x = e.event as! StockSoldInStore
            var row = state.products[x.productId] ?? Row()
            row.onHand -= x.quantity
            row.sold += x.quantity
            state.products[x.productId] = row
        case StockReturned.typeID:
            let x = e.event as! StockReturned
            var row = state.products[x.productId] ?? Row()
            if x.restocked { row.onHand += x.quantity }
            row.sold -= x.quantity
            state.products[x.productId] = row
        default:
            return
        }
    }
}
