public import Events
public import PawtrailJSON

/// A product's units available to buy (on hand less reserved), as the catalog and the carts show it: "only 3 left",
/// "out of stock". The inventory read model keeps the full count (on hand, reserved, sold); this keeps only what a
/// customer needs, in a row of its own, so a stock change never writes a new version of the product's details.
public struct ProductStock: FieldCodable, Hashable, Sendable {
    /// On hand less reserved: what an order can still take.
    public var available: Int64

    public init(available: Int64 = 0) {
        self.available = available
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        available = try r.int("available")
    }

    public func write(to w: inout some FieldWriter) {
        w.int("available", available)
    }

    /// At most this many units available shows as "only N left".
    public static let fewLeft: Int64 = 5

    /// How a customer sees the stock: `in-stock`, `low` (1 to ``fewLeft`` units) or `out-of-stock`.
    public var level: String {
        available <= 0 ? "out-of-stock" : available <= Self.fewLeft ? "low" : "in-stock"
    }

    /// The stock in the shop's words: "in stock", "only 3 left", "out of stock".
    public var label: String {
        available <= 0 ? "out of stock" : available <= Self.fewLeft ? "only \(available) left" : "in stock"
    }

    /// The stock as JSON, as a customer may see it: `{"level":"in-stock"}`, or with the count when few are left or
    /// none: `{"available":3,"level":"low"}`, `{"available":0,"level":"out-of-stock"}` (never below 0). The shop's
    /// exact counts are staff's (`view inventory`).
    public var json: JSONValue {
        available > Self.fewLeft
            ? .object(["level": .string(level)]) : .object(["available": .int(max(0, available)), "level": .string(level)])
    }

    /// The events that change what is available (a shipped reservation leaves it as it was: the units were already
    /// reserved).
    public static let eventTypes: Set<String> = Set(
        [
            StockReceived.eventType, StockAdjusted.eventType, StockReserved.eventType, StockReleased.eventType, StockSoldInStore.eventType,
            StockReturned.eventType,
        ])

    /// Folds one stock event into a table of stock by product id: one keyed update.
    ///
    /// - Returns: Whether the event was one of ``eventTypes``.
    @discardableResult
    public static func apply(_ stock: inout some RecordTable<ProductStock>, _ event: any DomainEvent) -> Bool {
        switch ObjectIdentifier(type(of: event)) {
        case StockReceived.typeID:
            let x = event as! StockReceived
            stock[x.productId, default: ProductStock()].available += x.quantity
        case StockAdjusted.typeID:
            let x = event as! StockAdjusted
            stock[x.productId, default: ProductStock()].available += x.delta
        case StockReserved.typeID:
            let x = event as! StockReserved
            stock[x.productId, default: ProductStock()].available -= x.quantity
        case StockReleased.typeID:
            let x = event as! StockReleased
            stock[x.productId, default: ProductStock()].available += x.quantity
        case StockSoldInStore.typeID:
            let x = event as! StockSoldInStore
            stock[x.productId, default: ProductStock()].available -= x.quantity
        case StockReturned.typeID:
            let x = event as! StockReturned
            guard x.restocked else { return true }
            stock[x.productId, default: ProductStock()].available += x.quantity
        default:
            return false
        }
        return true
    }
}
