public import EventLog
public import Events

/// The orders the shop still has to move: to confirm (placed), to ship (confirmed), to deliver (shipped). A stage is
/// a group of a ``GroupedTable``, an order one row in the group of its stage: an order's step moves its row from one
/// group to the next (two rows), a delivery or a cancellation removes it, so the queue costs what is open, not what
/// the shop ever sold, and reads as of any past moment by its rows.
public enum FulfilmentProjection: KeyedProjection {
    /// Where an order waits.
    public enum Stage: String, CaseIterable, Sendable {
        case toConfirm = "to-confirm"
        case toShip = "to-ship"
        case toDeliver = "to-deliver"
    }

    /// An open order as the queue shows it.
    public struct QueuedOrder: FieldCodable, Hashable {
        public var customerId: String
        /// When it was placed (business time).
        public var placedAt: Timestamp
        /// When it reached its stage.
        public var since: Timestamp
        public var total: Money
        public var units: Int64
        public var deliverySlot: Timestamp
        public var payment: PaymentMethod

        public init(
            customerId: String, placedAt: Timestamp, since: Timestamp, total: Money, units: Int64, deliverySlot: Timestamp,
            payment: PaymentMethod
        ) {
            self.customerId = customerId
            self.placedAt = placedAt
            self.since = since
            self.total = total
            self.units = units
            self.deliverySlot = deliverySlot
            self.payment = payment
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            customerId = try r.string("customerId")
            placedAt = try r.timestamp("placedAt")
            since = try r.timestamp("since")
            total = try r.money("total")
            units = try r.int("units")
            deliverySlot = try r.timestamp("deliverySlot")
            payment = try r.choice("payment", PaymentMethod.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.string("customerId", customerId)
            w.timestamp("placedAt", placedAt)
            w.timestamp("since", since)
            w.money("total", total)
            w.int("units", units)
            w.timestamp("deliverySlot", deliverySlot)
            w.choice("payment", payment)
        }
    }

    public struct State: KeyedProjectionState {
        /// Open orders: a group a stage, a part an order.
        public var queue = GroupedTable<QueuedOrder>(id: 1)
        /// One row, `latest`: the business time of the newest order event, what ages count to when the view is given
        /// no moment.
        public var clock = KeyedTable<TimeRow>(id: 2, history: .exact)
        /// Each open order's stage, for the fold (one lookup to find the row an order's step moves).
        public var stageOf = KeyedTable<TextRow>(id: 3, history: .current)

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            queue = GroupedTable(id: 1, rows: try r.keyed("queue", QueuedOrder.self))
            clock = KeyedTable(id: 2, history: .exact, rows: try r.keyed("clock", TimeRow.self))
            stageOf = KeyedTable(id: 3, history: .current, rows: try r.keyed("stageOf", TextRow.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("queue", queue.entries)
            w.keyed("clock", clock.entries)
            w.keyed("stageOf", stageOf.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&queue)
            visitor.visit(&clock)
            visitor.visit(&stageOf)
        }

        /// A stage's orders, oldest placed first (then by id).
        public func orders(at stage: Stage) -> [(orderId: String, order: QueuedOrder)] {
            queue.parts(of: stage.rawValue).map { (orderId: $0.key, order: $0.value) }.sorted {
                ($0.order.placedAt, $0.orderId) < ($1.order.placedAt, $1.orderId)
            }
        }

        /// Moves an order on from the stage that holds it; `nil` leaves the queue (delivered, cancelled).
        mutating func move(_ orderId: String, to stage: Stage?, at time: Timestamp) {
            guard let from = stageOf[orderId]?.text, var order = queue[from, orderId] else { return }
            queue[from, orderId] = nil
            stageOf[orderId] = stage.map { TextRow($0.rawValue) }
            guard let stage else { return }
            order.since = time
            queue[stage.rawValue, orderId] = order
        }
    }

    public static let name = "fulfilment"
    public static let schemaVersion = 2
    public static let foldCost = 40
    public static let summary = "Open orders by stage (to confirm, ship, deliver), oldest first, with their age."
    public static let eventTypes = types(
        OrderPlaced.self, OrderConfirmed.self, OrderShipped.self, OrderDelivered.self, OrderCancelled.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        let at = e.occurredAt
        switch e.typeID {
        case OrderPlaced.typeID:
            let x = e.event as! OrderPlaced
            state.stageOf[x.orderId] = TextRow(Stage.toConfirm.rawValue)
            state.queue[Stage.toConfirm.rawValue, x.orderId] = QueuedOrder(
                customerId: x.customerId, placedAt: at, since: at, total: x.total, units: x.lines.reduce(0) { $0 + $1.quantity },
                deliverySlot: x.deliverySlot, payment: x.payment)
        case OrderConfirmed.typeID:
            state.move((e.event as! OrderConfirmed).orderId, to: .toShip, at: at)
        case OrderShipped.typeID:
            state.move((e.event as! OrderShipped).orderId, to: .toDeliver, at: at)
        case OrderDelivered.typeID:
            state.move((e.event as! OrderDelivered).orderId, to: nil, at: at)
        case OrderCancelled.typeID:
            state.move((e.event as! OrderCancelled).orderId, to: nil, at: at)
        default:
            return
        }
        if (state.clock["latest"]?.at).map({ $0 < at }) ?? true { state.clock["latest"] = TimeRow(at) }
    }
}
