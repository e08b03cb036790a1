public import EventLog
public import Events

/// The admin dashboard: orders by status, revenue and sign-ups per day, low-stock products, bookings awaiting
/// confirmation, open vet requests and the top products. The fold only updates counters and small records by key;
/// every list is filtered and sorted in the view.
///
/// Rules where the issue is silent:
/// - Days are days of the business time (`occurredAt`) in the business's time zone (UTC until `shop set-time-zone`).
/// - Revenue is recognized when the goods reach the customer or the service is done: an order's total on the day it
///   is delivered, a till sale's on the day of the sale, a grooming's price (as booked) on the day it is completed
///   (a no-show earns nothing); a refund takes its amount off the day it is given. A day's revenue is orders
///   delivered plus till sales less refunds, per currency (one purchase is in one currency; different products may
///   not be). Orders placed count on their day as demand (a cancelled one is taken off it), and payments collected
///   at the door on theirs as cash, neither as revenue.
/// - Sign-ups count `AccountSignedUp` on its day; a later deletion does not undo the sign-up.
/// - Low stock follows the inventory projection: listed products whose available units (on hand - reserved) are
///   at or below the threshold; a delisted product is not restocked, so it is left out.
/// - A booking awaits confirmation while requested: after `BookingRequested`, and again after `BookingRescheduled`
///   (the domain puts a moved booking back to requested); confirmation, cancellation and completion end the wait.
/// - A vet request is open while submitted or answered, until closed.
/// - Top products rank by units sold as the inventory counts them: units that left the shop (shipped or sold at the
///   till) less units that came back (returned, or a shipped order cancelled), so they agree with `inventory` and
///   the catalog's popularity.
public enum DashboardProjection: Projection {
    /// Everything the dashboard shows, kept as counters and records by key.
    public struct State: ProjectionState {
        /// Orders by status (raw value) -> count.
        public var ordersByStatus: [String: Int64] = [:]
        /// The facts of every order still open (placed, confirmed or shipped), by order id. A delivered or cancelled
        /// order is final (the domain cancels only before delivery), so its facts are dropped: the state then grows
        /// with the business's open orders, not with all it ever had, and time travel loads a small state.
        public var orders: [String: OrderFacts] = [:]
        /// Business days since 1970-01-01 -> that day's figures. Written with ISO dates (`2026-12-01`) as keys.
        public var days: [Int64: Day] = [:]
        /// Stock by product id.
        public var stock: [String: Stock] = [:]
        /// Units sold by product id.
        public var sold: [String: Seller] = [:]
        /// Active bookings by booking id.
        public var bookings: [String: ActiveBooking] = [:]
        /// Open vet requests by request id.
        public var vet: [String: OpenVetRequest] = [:]
        /// The business's time zone, whose days the figures fall on (``BusinessTimeZone``).
        public var timeZone = "UTC"

        public init() {}

        /// The business day of an instant, in the time zone in force.
        func dayNumber(_ t: Timestamp) -> Int64 { BusinessTimeZone(stored: timeZone).dayNumber(t) }

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
            timeZone = try r.string("timeZone")
        }

        public func write(to w: inout some FieldWriter) {
            w.counts("ordersByStatus", ordersByStatus)
            w.keyed("orders", orders)
            w.keyed("days", Dictionary(uniqueKeysWithValues: days.map { (DashboardProjection.date($0.key), $0.value) }))
            w.keyed("stock", stock)
            w.keyed("sold", sold)
            w.keyed("bookings", bookings)
            w.keyed("vet", vet)
            w.string("timeZone", timeZone)
        }
    }

    public static let name = "dashboard"
    public static let schemaVersion = 6
    public static let foldCost = 550
    public static let summary =
        "Orders by status, revenue and sign-ups per day, low stock, bookings awaiting confirmation, open vet requests, top products."
    public static let eventTypes = types(
        OrderPlaced.self, OrderConfirmed.self, OrderShipped.self, OrderDelivered.self, OrderCancelled.self,
        InStoreSaleCompleted.self, AccountSignedUp.self,
        ProductListed.self, ProductDetailsChanged.self, ProductDelisted.self, ProductRelisted.self,
        StockReceived.self, StockAdjusted.self, StockReserved.self, StockReleased.self, StockReservationFulfilled.self,
        StockSoldInStore.self, StockReturned.self, OrderPaymentCollected.self, OrderRefunded.self,
        BookingRequested.self, BookingConfirmed.self, BookingRescheduled.self, BookingCancelled.self,
        BookingCompleted.self, BookingNoShow.self,
        VetRequestSubmitted.self, VetRequestAnswered.self, VetRequestClosed.self, BusinessTimeZoneSet.self)

    /// The UTC day of a time, in days since 1970-01-01 (``Format/dayNumber(_:)``); the fold uses the business's.
    public static func dayNumber(_ t: Timestamp) -> Int64 { Format.dayNumber(t) }

    /// The day number of an ISO date (`2026-12-01`), or `nil`.
    static func dayNumber(_ date: String) -> Int64? {
        guard date.utf8.count == 10, let t = Timestamp(iso8601: date) else { return nil }
        return dayNumber(t)
    }

    /// The ISO date of a day number.
    public static func date(_ day: Int64) -> String { Format.date(dayNumber: day) }

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
            state.sold[x.productId, default: Seller()].units += x.quantity
        case StockReleased.typeID:
            let x = e.event as! StockReleased
            state.stock[x.productId, default: Stock()].reserved -= x.quantity
        case StockSoldInStore.typeID:
            let x = e.event as! StockSoldInStore
            state.stock[x.productId, default: Stock()].onHand -= x.quantity
            state.sold[x.productId, default: Seller()].units += x.quantity
        case StockReturned.typeID:
            let x = e.event as! StockReturned
            if x.restocked { state.stock[x.productId, default: Stock()].onHand += x.quantity }
            state.sold[x.productId, default: Seller()].units -= x.quantity

        // Orders.
        case OrderPlaced.typeID:
            let x = e.event as! OrderPlaced
            guard state.orders[x.orderId] == nil else { throw ProjectionError("order '\(x.orderId)' was placed twice") }
            let day = state.dayNumber(e.occurredAt)
            state.orders[x.orderId] = OrderFacts(status: .placed, day: day, total: x.total)
            state.ordersByStatus[OrdersProjection.Status.placed.rawValue, default: 0] += 1
            state.days[day, default: Day()].takings[x.total.currency, default: Takings()].orders += 1
            for line in x.lines { name(&state, line) }
        case OrderConfirmed.typeID:
            _ = try move(&state, (e.event as! OrderConfirmed).orderId, to: .confirmed)
        case OrderShipped.typeID:
            _ = try move(&state, (e.event as! OrderShipped).orderId, to: .shipped)
        case OrderDelivered.typeID:
            let facts = try move(&state, (e.event as! OrderDelivered).orderId, to: .delivered)
            update(&state.days[state.dayNumber(e.occurredAt), default: Day()].takings[facts.total.currency, default: Takings()]) {
                $0.delivered += 1
                $0.deliveredAmount += facts.total.minorUnits
            }
        case OrderCancelled.typeID:
            let facts = try move(&state, (e.event as! OrderCancelled).orderId, to: .cancelled)
            // Taken off the day it was placed: that day's demand is less now.
            state.days[facts.day, default: Day()].takings[facts.total.currency, default: Takings()].orders -= 1
        case OrderPaymentCollected.typeID:
            let x = e.event as! OrderPaymentCollected
            state.days[state.dayNumber(e.occurredAt), default: Day()].takings[x.amount.currency, default: Takings()].collectedAmount +=
                x.amount.minorUnits
        case OrderRefunded.typeID:
            let x = e.event as! OrderRefunded
            state.days[state.dayNumber(e.occurredAt), default: Day()].takings[x.amount.currency, default: Takings()].refundsAmount +=
                x.amount.minorUnits

        // The till.
        case InStoreSaleCompleted.typeID:
            let x = e.event as! InStoreSaleCompleted
            let day = state.dayNumber(e.occurredAt)
            update(&state.days[day, default: Day()].takings[x.total.currency, default: Takings()]) {
                $0.sales += 1
                $0.salesAmount += x.total.minorUnits
            }
            for line in x.lines { name(&state, line) }

        // Settings.
        case BusinessTimeZoneSet.typeID:
            state.timeZone = (e.event as! BusinessTimeZoneSet).timeZone

        // Accounts.
        case AccountSignedUp.typeID:
            state.days[state.dayNumber(e.occurredAt), default: Day()].signUps += 1

        // Bookings: only active ones are kept; events of a finished booking find nothing to change.
        case BookingRequested.typeID:
            let x = e.event as! BookingRequested
            state.bookings[x.bookingId] = ActiveBooking(
                petId: x.petId, ownerId: x.ownerId, service: x.service, slot: x.slot, status: .requested,
                since: e.occurredAt, price: x.price)
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
            guard let done = state.bookings.removeValue(forKey: (e.event as! BookingCompleted).bookingId), let price = done.price else { return }
            update(&state.days[state.dayNumber(e.occurredAt), default: Day()].takings[price.currency, default: Takings()]) {
                $0.groomings += 1
                $0.groomingAmount += price.minorUnits
            }
        case BookingNoShow.typeID:
            state.bookings[(e.event as! BookingNoShow).bookingId] = nil

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

    /// Names a product's sales after the latest snapshot of it bought.
    private static func name(_ state: inout State, _ line: PurchaseLine) {
        state.sold[line.productId, default: Seller()].name = line.name
    }

    /// Changes a value in place: one hash lookup through the dictionary's `default:` subscript.
    @inline(__always)
    private static func update<T>(_ value: inout T, _ change: (inout T) -> Void) { change(&value) }

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
