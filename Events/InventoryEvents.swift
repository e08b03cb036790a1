// The inventory area: one stream per product (`inventory-<productId>`), so a checkout touching three products
// conflicts only with writers of those three, and each stream's version guards its product's stock.
//
// On hand is what is physically in the shop; reserved is the part of it promised to placed orders that have
// not shipped; available = on hand - reserved is what a new order or an in-store sale may take.

/// Stock arrived: on hand grows.
public struct StockReceived: DomainEvent {
    public static let eventType = "StockReceived"
    public static let area = "inventory"
    public static let summary = "Units of a product arrived in stock."
    public var productId: String
    public var quantity: Int64

    public init(productId: String, quantity: Int64) {
        self.productId = productId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.int("quantity", quantity)
    }
}

/// On hand was corrected by a count, breakage, a return or shrinkage.
public struct StockAdjusted: DomainEvent {
    public static let eventType = "StockAdjusted"
    public static let area = "inventory"
    public static let summary = "On-hand stock of a product was corrected up or down, with the reason."
    public var productId: String
    /// The change, positive or negative, never zero.
    public var delta: Int64
    public var reason: String

    public init(productId: String, delta: Int64, reason: String) {
        self.productId = productId
        self.delta = delta
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        delta = try r.int("delta")
        reason = try r.string("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.int("delta", delta)
        w.string("reason", reason)
    }
}

/// Units were promised to a placed order: reserved grows, available shrinks, on hand stays.
public struct StockReserved: DomainEvent {
    public static let eventType = "StockReserved"
    public static let area = "inventory"
    public static let summary = "Units of a product were reserved for a placed order."
    public var productId: String
    public var orderId: String
    public var quantity: Int64

    public init(productId: String, orderId: String, quantity: Int64) {
        self.productId = productId
        self.orderId = orderId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        orderId = try r.string("orderId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("orderId", orderId)
        w.int("quantity", quantity)
    }
}

/// A cancelled order's reservation was given back: reserved shrinks, available grows.
public struct StockReleased: DomainEvent {
    public static let eventType = "StockReleased"
    public static let area = "inventory"
    public static let summary = "A cancelled order's reserved units were released back to available stock."
    public var productId: String
    public var orderId: String
    public var quantity: Int64

    public init(productId: String, orderId: String, quantity: Int64) {
        self.productId = productId
        self.orderId = orderId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        orderId = try r.string("orderId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("orderId", orderId)
        w.int("quantity", quantity)
    }
}

/// A shipped order's reserved units left the shop: on hand and reserved both shrink, available stays.
public struct StockReservationFulfilled: DomainEvent {
    public static let eventType = "StockReservationFulfilled"
    public static let area = "inventory"
    public static let summary = "A shipped order's reserved units left the shop (on hand and reserved both drop)."
    public var productId: String
    public var orderId: String
    public var quantity: Int64

    public init(productId: String, orderId: String, quantity: Int64) {
        self.productId = productId
        self.orderId = orderId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        orderId = try r.string("orderId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("orderId", orderId)
        w.int("quantity", quantity)
    }
}

/// Units were sold over the counter: on hand shrinks, taken from available stock.
public struct StockSoldInStore: DomainEvent {
    public static let eventType = "StockSoldInStore"
    public static let area = "inventory"
    public static let summary = "Units of a product were sold in the shop through the till."
    public var productId: String
    public var saleId: String
    public var quantity: Int64

    public init(productId: String, saleId: String, quantity: Int64) {
        self.productId = productId
        self.saleId = saleId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        saleId = try r.string("saleId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("saleId", saleId)
        w.int("quantity", quantity)
    }
}

/// Units that had left the shop came back for an order (a return, or a cancel after shipping): units sold shrink, and
/// on hand grows when they are restocked (written-off units are not sellable).
public struct StockReturned: DomainEvent {
    public static let eventType = "StockReturned"
    public static let area = "inventory"
    public static let summary = "Units of a shipped order came back: restocked (on hand grows) or written off; units sold shrink."
    public var productId: String
    public var orderId: String
    public var quantity: Int64
    public var restocked: Bool

    public init(productId: String, orderId: String, quantity: Int64, restocked: Bool) {
        self.productId = productId
        self.orderId = orderId
        self.quantity = quantity
        self.restocked = restocked
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        orderId = try r.string("orderId")
        quantity = try r.int("quantity")
        restocked = try r.bool("restocked")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("orderId", orderId)
        w.int("quantity", quantity)
        w.bool("restocked", restocked)
    }
}

/// The inventory area's event types, in catalog order.
public enum InventoryEvents {
    public static let all: [any DomainEvent.Type] = [
        StockReceived.self, StockAdjusted.self, StockReserved.self, StockReleased.self,
        StockReservationFulfilled.self, StockSoldInStore.self, StockReturned.self,
    ]
}
