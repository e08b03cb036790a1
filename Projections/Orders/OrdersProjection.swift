public import EventLog
public import Events

/// Every order as its customer and staff read it: the lines as they were bought (the `OrderPlaced` snapshots),
/// the totals, the delivery details, where the order is now, and its timeline of status changes; and each
/// customer's orders, so `orders --customer` needs no scan.
public enum OrdersProjection: KeyedProjection {
    /// Where an order is: placed -> confirmed -> shipped -> delivered, or cancelled before delivery.
    public enum Status: String, FieldChoice {
        case placed, confirmed, shipped, delivered, cancelled
    }

    /// One status change of an order.
    public struct Step: FieldCodable, Hashable {
        /// The status the order reached.
        public var status: Status
        /// The business time of the change (the command's clock).
        public var at: Timestamp
        /// Who made the change: the event's own record (`confirmedBy`, `cancelledBy`, ...); for the placing, the
        /// customer (the domain places an order only as its customer).
        public var actor: String
        /// Why it was cancelled, when the canceller said.
        public var reason: String?

        public init(status: Status, at: Timestamp, actor: String, reason: String? = nil) {
            self.status = status
            self.at = at
            self.actor = actor
            self.reason = reason
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            status = try r.choice("status", Status.self)
            at = try r.timestamp("at")
            actor = try r.string("actor")
            reason = try r.optionalString("reason")
        }

        public func write(to w: inout some FieldWriter) {
            w.choice("status", status)
            w.timestamp("at", at)
            w.string("actor", actor)
            w.optionalString("reason", reason)
        }
    }

    /// One order in detail.
    public struct Order: FieldCodable, Hashable {
        public var customerId: String
        /// When it was placed (business time).
        public var placedAt: Timestamp
        /// The products as they were when bought.
        public var lines: [PurchaseLine]
        public var subtotal: Money
        public var total: Money
        public var deliveryAddress: String
        public var deliverySlot: Timestamp
        public var recipientName: String
        public var recipientPhone: String
        public var payment: PaymentMethod
        /// Where it is now: the last step's status.
        public var status: Status
        /// Every status change, oldest first, starting with `placed`.
        public var timeline: [Step]
        /// The payment collected at the door, `nil` until it is.
        public var collected: Money?
        /// Minor units refunded, in the payment's currency.
        public var refunded: Int64 = 0
        /// Units brought back, by product.
        public var returned: [String: Int64] = [:]

        public init(
            customerId: String, placedAt: Timestamp, lines: [PurchaseLine], subtotal: Money, total: Money,
            deliveryAddress: String, deliverySlot: Timestamp, recipientName: String, recipientPhone: String,
            payment: PaymentMethod, status: Status, timeline: [Step]
        ) {
            self.customerId = customerId
            self.placedAt = placedAt
            self.lines = lines
            self.subtotal = subtotal
            self.total = total
            self.deliveryAddress = deliveryAddress
            self.deliverySlot = deliverySlot
            self.recipientName = recipientName
            self.recipientPhone = recipientPhone
            self.payment = payment
            self.status = status
            self.timeline = timeline
        }

        /// Units ordered over all lines.
        public var units: Int64 { lines.reduce(0) { $0 + $1.quantity } }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            customerId = try r.string("customerId")
            placedAt = try r.timestamp("placedAt")
            lines = try r.records("lines", PurchaseLine.self)
            subtotal = try r.money("subtotal")
            total = try r.money("total")
            deliveryAddress = try r.string("deliveryAddress")
            deliverySlot = try r.timestamp("deliverySlot")
            recipientName = try r.string("recipientName")
            recipientPhone = try r.string("recipientPhone")
            payment = try r.choice("payment", PaymentMethod.self)
            status = try r.choice("status", Status.self)
            timeline = try r.records("timeline", Step.self)
            collected = try r.optionalMoney("collected")
            refunded = try r.int("refunded")
            returned = try r.counts("returned")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("customerId", customerId)
            w.timestamp("placedAt", placedAt)
            w.records("lines", lines)
            w.money("subtotal", subtotal)
            w.money("total", total)
            w.string("deliveryAddress", deliveryAddress)
            w.timestamp("deliverySlot", deliverySlot)
            w.string("recipientName", recipientName)
            w.string("recipientPhone", recipientPhone)
            w.choice("payment", payment)
            w.choice("status", status)
            w.records("timeline", timeline)
            w.optionalMoney("collected", collected)
            w.int("refunded", refunded)
            w.counts("returned", returned)
        }
    }

    /// A customer's order ids in the order they were placed (position order); views sort them newest first.
    public typealias OrderIDs = IDList

    /// Every order by id, and each customer's order ids, row by row with every version: an order, or a customer's
    /// orders, as of any moment is read from its own rows.
    public struct State: KeyedProjectionState {
        public var orders = KeyedTable<Order>(id: 1, history: .exact)
        public var byCustomer = KeyedTable<OrderIDs>(id: 2, history: .exact)

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            orders = KeyedTable(id: 1, history: .exact, rows: try r.keyed("orders", Order.self))
            byCustomer = KeyedTable(id: 2, history: .exact, rows: try r.keyed("byCustomer", OrderIDs.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("orders", orders.entries)
            w.keyed("byCustomer", byCustomer.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&orders)
            visitor.visit(&byCustomer)
        }
    }

    public static let name = "orders"
    /// Personal values (names, emails, addresses, recipients, message texts) are kept as tokens that views open.
    public static let foldsPersonalReferences = true
    public static let schemaVersion = 3
    public static let foldCost = 470
    public static let summary =
        "Each customer's orders, newest first; one order in detail with its lines, totals, status, delivery, payment, returns and timeline."
    public static let eventTypes = types(
        OrderPlaced.self, OrderConfirmed.self, OrderShipped.self, OrderDelivered.self, OrderCancelled.self,
        OrderPaymentCollected.self, OrderReturned.self, OrderRefunded.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {  // see EventTypeID.swift
        case OrderPlaced.typeID:
            let x = e.event as! OrderPlaced
            // The domain refuses a second placing of an id; seeing one means the log and this fold disagree.
            guard state.orders[x.orderId] == nil else { throw ProjectionError("order '\(x.orderId)' was placed twice") }
            let at = e.occurredAt
            // Room for the longest life (placed, confirmed, shipped, delivered or cancelled) in one allocation.
            var timeline: [Step] = []
            timeline.reserveCapacity(4)
            timeline.append(Step(status: .placed, at: at, actor: x.customerId))
            state.orders[x.orderId] = Order(
                customerId: x.customerId, placedAt: at, lines: x.lines, subtotal: x.subtotal, total: x.total,
                deliveryAddress: x.deliveryAddress, deliverySlot: x.deliverySlot, recipientName: x.recipientName,
                recipientPhone: x.recipientPhone, payment: x.payment, status: .placed, timeline: timeline)
            state.byCustomer[x.customerId, default: OrderIDs()].ids.append(x.orderId)
        case OrderConfirmed.typeID:
            let x = e.event as! OrderConfirmed
            try advance(&state, x.orderId, Step(status: .confirmed, at: e.occurredAt, actor: x.confirmedBy))
        case OrderShipped.typeID:
            let x = e.event as! OrderShipped
            try advance(&state, x.orderId, Step(status: .shipped, at: e.occurredAt, actor: x.shippedBy))
        case OrderDelivered.typeID:
            let x = e.event as! OrderDelivered
            try advance(&state, x.orderId, Step(status: .delivered, at: e.occurredAt, actor: x.deliveredBy))
        case OrderCancelled.typeID:
            let x = e.event as! OrderCancelled
            try advance(
                &state, x.orderId, Step(status: .cancelled, at: e.occurredAt, actor: x.cancelledBy, reason: x.reason))
        case OrderPaymentCollected.typeID:
            let x = e.event as! OrderPaymentCollected
            try change(&state, x.orderId) { $0.collected = x.amount }
        case OrderReturned.typeID:
            let x = e.event as! OrderReturned
            try change(&state, x.orderId) { order in for line in x.lines { order.returned[line.productId, default: 0] += line.quantity } }
        case OrderRefunded.typeID:
            let x = e.event as! OrderRefunded
            try change(&state, x.orderId) { $0.refunded += x.amount.minorUnits }
        default:
            return
        }
    }

    /// Changes a placed order in place (one lookup).
    private static func change(_ state: inout State, _ orderId: String, _ body: (inout Order) -> Void) throws(ProjectionError) {
        try state.orders.modify(orderId) { (order: inout Order?) throws(ProjectionError) in
            guard order != nil else { throw ProjectionError("order '\(orderId)' was paid, returned or refunded but never placed") }
            body(&order!)
        }
    }

    /// Records a status change in place (one lookup). Transitions are not re-checked: the domain decided them, and
    /// the read model shows what the log says.
    private static func advance(_ state: inout State, _ orderId: String, _ step: Step) throws(ProjectionError) {
        try state.orders.modify(orderId) { (order: inout Order?) throws(ProjectionError) in
            guard order != nil else { throw ProjectionError("order '\(orderId)' became \(step.status.rawValue) but was never placed") }
            order!.status = step.status
            order!.timeline.append(step)
        }
    }
}
