public import EventLog

// The orders area: a customer's order from checkout to delivery (stream `order-<orderId>`). Stock moves on the
// inventory streams in the same appends: reserved at placing, released at cancelling, fulfilled at shipping.

/// How an order is paid. No real payment is taken: the method is only recorded for the courier.
public enum PaymentMethod: String, FieldChoice {
    case cash
    case cardOnDelivery = "card-on-delivery"
}

/// One product line of an order or an in-store sale, snapshotting the product as it was at purchase, so history
/// stays true when the product is later repriced, renamed or delisted.
public struct PurchaseLine: FieldCodable, Hashable {
    public var productId: String
    public var name: String
    public var category: String
    public var imageRef: String
    public var unitPrice: Money
    public var quantity: Int64
    /// `unitPrice` times `quantity`.
    public var lineTotal: Money

    public init(
        productId: String, name: String, category: String, imageRef: String, unitPrice: Money, quantity: Int64,
        lineTotal: Money
    ) {
        self.productId = productId
        self.name = name
        self.category = category
        self.imageRef = imageRef
        self.unitPrice = unitPrice
        self.quantity = quantity
        self.lineTotal = lineTotal
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        name = try r.string("name")
        category = try r.string("category")
        imageRef = try r.string("imageRef")
        unitPrice = try r.money("unitPrice")
        quantity = try r.int("quantity")
        lineTotal = try r.money("lineTotal")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("name", name)
        w.string("category", category)
        w.string("imageRef", imageRef)
        w.money("unitPrice", unitPrice)
        w.int("quantity", quantity)
        w.money("lineTotal", lineTotal)
    }
}

/// A customer placed an order from their cart; its stock is reserved in the same append.
public struct OrderPlaced: DomainEvent {
    public static let eventType = "OrderPlaced"
    public static let area = "orders"
    public static let summary =
        "A customer placed an order from their cart: line snapshots, totals, delivery address and slot, recipient, payment method."
    public var orderId: String
    public var customerId: String
    public var lines: [PurchaseLine]
    /// The sum of the line totals.
    public var subtotal: Money
    /// What the customer pays: the subtotal today (no delivery fee or discount is modelled yet); kept apart so
    /// one can be added without a new schema version.
    public var total: Money
    public var deliveryAddress: String
    public var deliverySlot: Timestamp
    public var recipientName: String
    public var recipientPhone: String
    public var payment: PaymentMethod

    public init(
        orderId: String, customerId: String, lines: [PurchaseLine], subtotal: Money, total: Money,
        deliveryAddress: String, deliverySlot: Timestamp, recipientName: String, recipientPhone: String,
        payment: PaymentMethod
    ) {
        self.orderId = orderId
        self.customerId = customerId
        self.lines = lines
        self.subtotal = subtotal
        self.total = total
        self.deliveryAddress = deliveryAddress
        self.deliverySlot = deliverySlot
        self.recipientName = recipientName
        self.recipientPhone = recipientPhone
        self.payment = payment
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        customerId = try r.string("customerId")
        lines = try r.records("lines", PurchaseLine.self)
        subtotal = try r.money("subtotal")
        total = try r.money("total")
        deliveryAddress = try r.personal("deliveryAddress")
        deliverySlot = try r.timestamp("deliverySlot")
        recipientName = try r.personal("recipientName")
        recipientPhone = try r.personal("recipientPhone")
        payment = try r.choice("payment", PaymentMethod.self)
    }

    public var personalDataSubject: String? { customerId }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.string("customerId", customerId)
        w.records("lines", lines)
        w.money("subtotal", subtotal)
        w.money("total", total)
        w.personal("deliveryAddress", deliveryAddress)
        w.timestamp("deliverySlot", deliverySlot)
        w.personal("recipientName", recipientName)
        w.personal("recipientPhone", recipientPhone)
        w.choice("payment", payment)
    }
}

/// An order's customer is the customer side of a conversation about it (`conversation.start --subject order`).
extension OrderPlaced: OwnedSubjectCreated {
    public var subjectOwnerId: String { customerId }
}

/// Staff accepted a placed order.
public struct OrderConfirmed: DomainEvent {
    public static let eventType = "OrderConfirmed"
    public static let area = "orders"
    public static let summary = "Staff confirmed a placed order."
    public var orderId: String
    public var confirmedBy: String

    public init(orderId: String, confirmedBy: String) {
        self.orderId = orderId
        self.confirmedBy = confirmedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        confirmedBy = try r.string("confirmedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.string("confirmedBy", confirmedBy)
    }
}

/// Staff handed a confirmed order to the courier; its reservations are fulfilled in the same append.
public struct OrderShipped: DomainEvent {
    public static let eventType = "OrderShipped"
    public static let area = "orders"
    public static let summary = "Staff shipped a confirmed order; its reserved stock left the shop."
    public var orderId: String
    public var shippedBy: String

    public init(orderId: String, shippedBy: String) {
        self.orderId = orderId
        self.shippedBy = shippedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        shippedBy = try r.string("shippedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.string("shippedBy", shippedBy)
    }
}

/// The order reached the customer.
public struct OrderDelivered: DomainEvent {
    public static let eventType = "OrderDelivered"
    public static let area = "orders"
    public static let summary = "Staff recorded a shipped order as delivered."
    public var orderId: String
    public var deliveredBy: String

    public init(orderId: String, deliveredBy: String) {
        self.orderId = orderId
        self.deliveredBy = deliveredBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        deliveredBy = try r.string("deliveredBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.string("deliveredBy", deliveredBy)
    }
}

/// The order was cancelled; stock still reserved for it is released in the same append, and units already shipped
/// come back to the shelf (``StockReturned``).
public struct OrderCancelled: DomainEvent {
    public static let eventType = "OrderCancelled"
    public static let area = "orders"
    public static let summary =
        "An order was cancelled by its customer before shipping or by staff before delivery; reserved stock is released, shipped stock comes back."
    public var orderId: String
    public var cancelledBy: String
    public var reason: String?

    public init(orderId: String, cancelledBy: String, reason: String? = nil) {
        self.orderId = orderId
        self.cancelledBy = cancelledBy
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        orderId = try r.string("orderId")
        cancelledBy = try r.string("cancelledBy")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("orderId", orderId)
        w.string("cancelledBy", cancelledBy)
        w.optionalString("reason", reason)
    }
}

/// The orders area's event types, in catalog order.
public enum OrderEvents {
    public static let all: [any DomainEvent.Type] = [
        OrderPlaced.self, OrderConfirmed.self, OrderShipped.self, OrderDelivered.self, OrderCancelled.self,
        OrderPaymentCollected.self, OrderReturned.self, OrderRefunded.self,
    ]
}
