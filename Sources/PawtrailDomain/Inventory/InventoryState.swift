public import EventLog
public import Events

/// A product's stock as decisions see it (stream `inventory-<productId>`).
///
/// Invariants every command keeps: `0 <= reserved <= onHand`, so `available >= 0`. Orders and in-store sales
/// take only from `available`, and an adjustment may not cut on hand below what is reserved.
public struct InventoryState: Aggregate, Hashable {
    /// Units physically in the shop.
    public var onHand: Int64 = 0
    /// Units of `onHand` promised to placed orders that have not shipped.
    public var reserved: Int64 = 0
    /// Units reserved per order id, so a cancellation releases and a shipment fulfils exactly what was reserved.
    public var reservations: [String: Int64] = [:]

    public init() {}

    public static let snapshotKind = "inventory"
    public static let schemaVersion = 2

    public init(reading r: inout some FieldReader) throws(FieldError) {
        onHand = try r.int("onHand")
        reserved = try r.int("reserved")
        reservations = try r.counts("reservations")
    }

    public func write(to w: inout some FieldWriter) {
        w.int("onHand", onHand)
        w.int("reserved", reserved)
        w.counts("reservations", reservations)
    }

    /// Units a new order or an in-store sale may take.
    public var available: Int64 { onHand - reserved }

    /// Units reserved for an order, 0 when none.
    public func reserved(for orderId: String) -> Int64 { reservations[orderId] ?? 0 }

    public static func evolve(_ state: InventoryState, _ event: any DomainEvent) -> InventoryState {
        var s = state
        switch event {
        case let e as StockReceived:
            s.onHand += e.quantity
        case let e as StockAdjusted:
            s.onHand += e.delta
        case let e as StockReserved:
            s.reserved += e.quantity
            s.reservations[e.orderId, default: 0] += e.quantity
        case let e as StockReleased:
            s.unreserve(e.orderId, e.quantity)
        case let e as StockReservationFulfilled:
            s.unreserve(e.orderId, e.quantity)
            s.onHand -= e.quantity
        case let e as StockSoldInStore:
            s.onHand -= e.quantity
        case let e as StockReturned:
            if e.restocked { s.onHand += e.quantity }
        default:
            break
        }
        return s
    }

    private mutating func unreserve(_ orderId: String, _ quantity: Int64) {
        reserved -= quantity
        let left = reserved(for: orderId) - quantity
        reservations[orderId] = left > 0 ? left : nil
    }
}

extension Streams {
    /// A product's stock: received, adjusted, reserved, released, fulfilled, sold in store.
    public static func inventory(_ productId: String) -> StreamID { named("inventory", productId) }
}
