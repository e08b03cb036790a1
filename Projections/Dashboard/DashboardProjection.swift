public import EventLog
public import Events

/// The admin dashboard: orders by status, revenue and sign-ups per day, low-stock products, bookings awaiting
/// confirmation, open vet requests and the top products. The fold only updates counters and small records by key;
/// every list is filtered and sorted in the view.
///
/// Rules where the issue is silent:
/// - Days are UTC days of the business time (`occurredAt`).
/// - Online revenue of a day is the sum of the totals of the orders placed that day; a cancelled order is taken
///   off the day it was placed (whenever it is cancelled, even after shipping), so a day's figure is what that
///   day's orders are still worth. Till sales count on the day of the sale (they are never cancelled). A day's
///   revenue is online plus till, per currency (one purchase is in one currency; different products may not be).
/// - Sign-ups count `AccountSignedUp` on its day; a later deletion does not undo the sign-up.
/// - Low stock follows the inventory projection: listed products whose available units (on hand - reserved) are
///   at or below the threshold; a delisted product is not restocked, so it is left out.
/// - A booking awaits confirmation while requested: after `BookingRequested`, and again after `BookingRescheduled`
///   (the domain puts a moved booking back to requested); confirmation, cancellation and completion end the wait.
/// - A vet request is open while submitted or answered, until closed.
/// - Top products rank by units in orders not cancelled plus units sold at the till.
public enum DashboardProjection: Projection {
    /// Units of one product in an order, kept to take them off the top products when the order is cancelled.
    public struct ProductUnits: FieldCodable, Hashable {
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

    /// What the dashboard remembers of an order: enough to move it between statuses and to undo it on cancelling.
    public struct OrderFacts: FieldCodable, Hashable {
        public var status: OrdersProjection.Status
        /// The UTC day it was placed, in days since 1970-01-01.
        public var day: Int64
        public var total: Money
        public var units: [ProductUnits]

        public init(status: OrdersProjection.Status, day: Int64, total: Money, units: [ProductUnits]) {
            self.status = status
            self.day = day
            self.total = total
            self.units = units
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            status = try r.choice("status", OrdersProjection.Status.self)
            day = try r.int("day")
            total = try r.money("total")
            units = try r.records("units", ProductUnits.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.choice("status", status)
            w.int("day", day)
            w.money("total", total)
            w.records("units", units)
        }
    }

    /// One day's takings in one currency.
    public struct Takings: FieldCodable, Hashable {
        /// Orders placed that day and not cancelled.
        public var orders: Int64
        /// Their totals, in minor units.
        public var ordersAmount: Int64
        /// Sales at the till that day.
        public var sales: Int64
        /// Their totals, in minor units.
        public var salesAmount: Int64

        public init(orders: Int64 = 0, ordersAmount: Int64 = 0, sales: Int64 = 0, salesAmount: Int64 = 0) {
            self.orders = orders
            self.ordersAmount = ordersAmount
            self.sales = sales
            self.salesAmount = salesAmount
        }

        /// Online plus till.
        public var amount: Int64 { ordersAmount + salesAmount }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            orders = try r.int("orders")
            ordersAmount = try r.int("ordersAmount")
            sales = try r.int("sales")
            salesAmount = try r.int("salesAmount")
        }

        public func write(to w: inout some FieldWriter) {
            w.int("orders", orders)
            w.int("ordersAmount", ordersAmount)
            w.int("sales", sales)
            w.int("salesAmount", salesAmount)
        }
    }

    /// One UTC day: sign-ups and takings by currency. A day exists once anything happened on it (an order placed,
    /// even if later cancelled, a till sale, a sign-up), which is what "the last day with data" means.
    public struct Day: FieldCodable, Hashable {
        public var signUps: Int64
        public var takings: [String: Takings]

        public init(signUps: Int64 = 0, takings: [String: Takings] = [:]) {
            self.signUps = signUps
            self.takings = takings
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            signUps = try r.int("signUps")
            takings = try r.keyed("takings", Takings.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.int("signUps", signUps)
            w.keyed("takings", takings)
        }
    }

    /// One product's stock, for the low-stock section.
    public struct Stock: FieldCodable, Hashable {
        public var name: String
        public var listed: Bool
        public var onHand: Int64
        public var reserved: Int64

        public init(name: String = "", listed: Bool = true, onHand: Int64 = 0, reserved: Int64 = 0) {
            self.name = name
            self.listed = listed
            self.onHand = onHand
            self.reserved = reserved
        }

        /// Units that can still be ordered.
        public var available: Int64 { onHand - reserved }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            name = try r.string("name")
            listed = try r.bool("listed")
            onHand = try r.int("onHand")
            reserved = try r.int("reserved")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("name", name)
            w.bool("listed", listed)
            w.int("onHand", onHand)
            w.int("reserved", reserved)
        }
    }

    /// One product's units sold (orders not cancelled plus till sales), with the name of its latest snapshot.
    public struct Seller: FieldCodable, Hashable {
        public var name: String
        public var units: Int64

        public init(name: String = "", units: Int64 = 0) {
            self.name = name
            self.units = units
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            name = try r.string("name")
            units = try r.int("units")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("name", name)
            w.int("units", units)
        }
    }

    /// A booking that is still active (requested or confirmed); completed and cancelled ones are dropped.
    public struct ActiveBooking: FieldCodable, Hashable {
        public var petId: String
        public var ownerId: String
        public var service: GroomingService
        public var slot: Timestamp
        public var status: BookingStatus
        /// When it last became requested (requested or rescheduled).
        public var since: Timestamp

        public init(
            petId: String, ownerId: String, service: GroomingService, slot: Timestamp, status: BookingStatus,
            since: Timestamp
        ) {
            self.petId = petId
            self.ownerId = ownerId
            self.service = service
            self.slot = slot
            self.status = status
            self.since = since
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            petId = try r.string("petId")
            ownerId = try r.string("ownerId")
            service = try r.choice("service", GroomingService.self)
            slot = try r.timestamp("slot")
            status = try r.choice("status", BookingStatus.self)
            since = try r.timestamp("since")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("petId", petId)
            w.string("ownerId", ownerId)
            w.choice("service", service)
            w.timestamp("slot", slot)
            w.choice("status", status)
            w.timestamp("since", since)
        }
    }

    /// A vet request not yet closed.
    public struct OpenVetRequest: FieldCodable, Hashable {
        public var petId: String
        public var ownerId: String
        public var urgency: VetUrgency
        public var status: VetRequestStatus
        public var submittedAt: Timestamp

        public init(
            petId: String, ownerId: String, urgency: VetUrgency, status: VetRequestStatus, submittedAt: Timestamp
        ) {
            self.petId = petId
            self.ownerId = ownerId
            self.urgency = urgency
            self.status = status
            self.submittedAt = submittedAt
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            petId = try r.string("petId")
            ownerId = try r.string("ownerId")
            urgency = try r.choice("urgency", VetUrgency.self)
            status = try r.choice("status", VetRequestStatus.self)
            submittedAt = try r.timestamp("submittedAt")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("petId", petId)
            w.string("ownerId", ownerId)
            w.choice("urgency", urgency)
            w.choice("status", status)
            w.timestamp("submittedAt", submittedAt)
        }
    }

    /// Everything the dashboard shows, kept as counters and records by key.
    public struct State: ProjectionState {
        /// Orders by status (raw value) -> count.
        public var ordersByStatus: [String: Int64] = [:]
        /// The facts of every order still open (placed, confirmed or shipped), by order id. A delivered or cancelled
        /// order is final (the domain cancels only before delivery), so its facts are dropped: the state then grows
        /// with the business's open orders, not with all it ever had, and time travel loads a small state.
        public var orders: [String: OrderFacts] = [:]
        /// Days since 1970-01-01 (UTC) -> that day's figures. Written with ISO dates (`2026-12-01`) as keys.
        public var days: [Int64: Day] = [:]
        /// Stock by product id.
        public var stock: [String: Stock] = [:]
        /// Units sold by product id.
        public var sold: [String: Seller] = [:]
        /// Active bookings by booking id.
        public var bookings: [String: ActiveBooking] = [:]
        /// Open vet requests by request id.
        public var vet: [String: OpenVetRequest] = [:]

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            ordersByStatus = try r.counts("ordersByStatus")
            orders = try r.keyed("orders", OrderFacts.self)
            var days: [Int64: Day] = [:]
            for (date, day) in try r.keyed("days", Day.self) {
                guard let n = DashboardProjection.dayNumber(date) else {
                    throw FieldError(field: "days", message: "'\(date)' is not a date")
                }
                days[n] = day
            }
            self.days = days
            stock = try r.keyed("stock", Stock.self)
            sold = try r.keyed("sold", Seller.self)
            bookings = try r.keyed("bookings", ActiveBooking.self)
            vet = try r.keyed("vet", OpenVetRequest.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.counts("ordersByStatus", ordersByStatus)
            w.keyed("orders", orders)
            w.keyed("days", Dictionary(uniqueKeysWithValues: days.map { (DashboardProjection.date($0.key), $0.value) }))
            w.keyed("stock", stock)
            w.keyed("sold", sold)
            w.keyed("bookings", bookings)
            w.keyed("vet", vet)
        }
    }

    public static let name = "dashboard"
    public static let schemaVersion = 3
    public static let foldCost = 550
    public static let summary =
        "Orders by status, revenue and sign-ups per day, low stock, bookings awaiting confirmation, open vet requests, top products."
    public static let eventTypes = types(
        OrderPlaced.self, OrderConfirmed.self, OrderShipped.self, OrderDelivered.self, OrderCancelled.self,
        InStoreSaleCompleted.self, AccountSignedUp.self,
        ProductListed.self, ProductDetailsChanged.self, ProductDelisted.self, ProductRelisted.self,
        StockReceived.self, StockAdjusted.self, StockReserved.self, StockReleased.self, StockReservationFulfilled.self,
        StockSoldInStore.self,
        BookingRequested.self, BookingConfirmed.self, BookingRescheduled.self, BookingCancelled.self,
        BookingCompleted.self,
        VetRequestSubmitted.self, VetRequestAnswered.self, VetRequestClosed.self)

    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The UTC day of a time, in days since 1970-01-01 (floored, so times before 1970 fall on the right day).
    public static func dayNumber(_ t: Timestamp) -> Int64 {
        let us = t.microsecondsSinceEpoch
        let d = us / microsecondsPerDay
        return us % microsecondsPerDay < 0 ? d - 1 : d
    }

    /// The day number of an ISO date (`2026-12-01`), or `nil`.
    static func dayNumber(_ date: String) -> Int64? {
        guard date.utf8.count == 10, let t = Timestamp(iso8601: date) else { return nil }
        return dayNumber(t)
    }

    /// The ISO date of a day number.
    public static func date(_ day: Int64) -> String {
        Format.day(Timestamp(microsecondsSinceEpoch: day * microsecondsPerDay))
    }

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        // Cases in rough order of frequency (stock movements come with every order and sale); see EventTypeID.swift.
        switch e.typeID {
        // Stock.
        case StockReserved.typeID:
            let x = e.event as! StockReserved
            state.stock[x.productId, default: Stock()].reserved += x.quantity
        case StockReservationFulfilled.typeID:
            let x = e.event as! StockReservationFulfilled
            update(&state.stock[x.productId, default: Stock()]) {
                $0.reserved -= x.quantity
                $0.onHand -= x.quantity
            }
        case StockReleased.typeID:
            let x = e.event as! StockReleased
            state.stock[x.productId, default: Stock()].reserved -= x.quantity
        case StockSoldInStore.typeID:
            let x = e.event as! StockSoldInStore
            state.stock[x.productId, default: Stock()].onHand -= x.quantity

        // Orders.
        case OrderPlaced.typeID:
            let x = e.event as! OrderPlaced
            guard state.orders[x.orderId] == nil else { throw ProjectionError("order '\(x.orderId)' was placed twice") }
            let day = dayNumber(e.occurredAt)
            state.orders[x.orderId] = OrderFacts(
                status: .placed, day: day, total: x.total,
                units: x.lines.map { ProductUnits(productId: $0.productId, quantity: $0.quantity) })
            state.ordersByStatus[OrdersProjection.Status.placed.rawValue, default: 0] += 1
            count(&state.days[day, default: Day()].takings[x.total.currency, default: Takings()], order: x.total, 1)
            for line in x.lines { addSold(&state, line) }
        case OrderConfirmed.typeID:
            _ = try move(&state, (e.event as! OrderConfirmed).orderId, to: .confirmed)
        case OrderShipped.typeID:
            _ = try move(&state, (e.event as! OrderShipped).orderId, to: .shipped)
        case OrderDelivered.typeID:
            _ = try move(&state, (e.event as! OrderDelivered).orderId, to: .delivered)
        case OrderCancelled.typeID:
            let facts = try move(&state, (e.event as! OrderCancelled).orderId, to: .cancelled)
            // Taken off the day it was placed: that day's orders are worth less now.
            count(
                &state.days[facts.day, default: Day()].takings[facts.total.currency, default: Takings()],
                order: facts.total, -1)
            for u in facts.units { state.sold[u.productId, default: Seller()].units -= u.quantity }

        // The till.
        case InStoreSaleCompleted.typeID:
            let x = e.event as! InStoreSaleCompleted
            let day = dayNumber(e.occurredAt)
            count(&state.days[day, default: Day()].takings[x.total.currency, default: Takings()], sale: x.total)
            for line in x.lines { addSold(&state, line) }

        // Accounts.
        case AccountSignedUp.typeID:
            state.days[dayNumber(e.occurredAt), default: Day()].signUps += 1

        // Bookings: only active ones are kept; events of a finished booking find nothing to change.
        case BookingRequested.typeID:
            let x = e.event as! BookingRequested
            state.bookings[x.bookingId] = ActiveBooking(
                petId: x.petId, ownerId: x.ownerId, service: x.service, slot: x.slot, status: .requested,
                since: e.occurredAt)
        case BookingConfirmed.typeID:
            let x = e.event as! BookingConfirmed
            if let i = state.bookings.index(forKey: x.bookingId) {
                state.bookings.values[i].status = .confirmed
                state.bookings.values[i].slot = x.slot
            }
        case BookingRescheduled.typeID:
            let x = e.event as! BookingRescheduled
            // The domain makes a moved booking requested again: staff confirmed the old slot, not the new one.
            if let i = state.bookings.index(forKey: x.bookingId) {
                state.bookings.values[i].status = .requested
                state.bookings.values[i].slot = x.slot
                state.bookings.values[i].since = e.occurredAt
            }
        case BookingCancelled.typeID:
            state.bookings[(e.event as! BookingCancelled).bookingId] = nil
        case BookingCompleted.typeID:
            state.bookings[(e.event as! BookingCompleted).bookingId] = nil

        // Vet requests: only open ones are kept.
        case VetRequestSubmitted.typeID:
            let x = e.event as! VetRequestSubmitted
            state.vet[x.requestId] = OpenVetRequest(
                petId: x.petId, ownerId: x.ownerId, urgency: x.urgency, status: .submitted, submittedAt: e.occurredAt)
        case VetRequestAnswered.typeID:
            state.vet[(e.event as! VetRequestAnswered).requestId]?.status = .answered
        case VetRequestClosed.typeID:
            state.vet[(e.event as! VetRequestClosed).requestId] = nil

        // Catalog and stock arrivals, rarer.
        case StockReceived.typeID:
            let x = e.event as! StockReceived
            state.stock[x.productId, default: Stock()].onHand += x.quantity
        case StockAdjusted.typeID:
            let x = e.event as! StockAdjusted
            state.stock[x.productId, default: Stock()].onHand += x.delta
        case ProductListed.typeID:
            let x = e.event as! ProductListed
            update(&state.stock[x.productId, default: Stock()]) {
                $0.name = x.name
                $0.listed = true
            }
        case ProductDetailsChanged.typeID:
            let x = e.event as! ProductDetailsChanged
            state.stock[x.productId, default: Stock()].name = x.name
        case ProductDelisted.typeID:
            state.stock[(e.event as! ProductDelisted).productId, default: Stock()].listed = false
        case ProductRelisted.typeID:
            state.stock[(e.event as! ProductRelisted).productId, default: Stock()].listed = true

        default:
            return
        }
    }

    /// Adds a line's units to its product's sales, keeping the latest snapshot's name.
    private static func addSold(_ state: inout State, _ line: PurchaseLine) {
        update(&state.sold[line.productId, default: Seller()]) {
            $0.units += line.quantity
            $0.name = line.name
        }
    }

    /// Changes a value in place: one hash lookup through the dictionary's `default:` subscript.
    @inline(__always)
    private static func update<T>(_ value: inout T, _ change: (inout T) -> Void) { change(&value) }

    /// Counts an order into (sign 1) or out of (sign -1) a day's takings.
    private static func count(_ t: inout Takings, order total: Money, _ sign: Int64) {
        t.orders += sign
        t.ordersAmount += sign * total.minorUnits
    }

    /// Counts a till sale into a day's takings.
    private static func count(_ t: inout Takings, sale total: Money) {
        t.sales += 1
        t.salesAmount += total.minorUnits
    }

    /// Moves an order to a status, keeping the counts by status; returns its facts.
    private static func move(
        _ state: inout State, _ orderId: String, to status: OrdersProjection.Status
    ) throws(ProjectionError)
        -> OrderFacts
    {
        guard let i = state.orders.index(forKey: orderId) else {
            throw ProjectionError("order '\(orderId)' became \(status.rawValue) but is not open (never placed, or already delivered or cancelled)")
        }
        let from = state.orders.values[i].status
        state.orders.values[i].status = status
        state.ordersByStatus[from.rawValue, default: 0] -= 1
        state.ordersByStatus[status.rawValue, default: 0] += 1
        let facts = state.orders.values[i]
        if status == .delivered || status == .cancelled { state.orders.remove(at: i) }
        return facts
    }
}
