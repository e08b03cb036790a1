public import EventLog
public import Events

extension DashboardProjection {
    /// What the dashboard remembers of an open order: enough to move it between statuses, to book its revenue on
    /// delivery and to take it off its day's orders on cancelling.
    public struct OrderFacts: FieldCodable, Hashable {
        public var status: OrdersProjection.Status
        /// The UTC day it was placed, in days since 1970-01-01.
        public var day: Int64
        public var total: Money

        public init(status: OrdersProjection.Status, day: Int64, total: Money) {
            self.status = status
            self.day = day
            self.total = total
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            status = try r.choice("status", OrdersProjection.Status.self)
            day = try r.int("day")
            total = try r.money("total")
        }

        public func write(to w: inout some FieldWriter) {
            w.choice("status", status)
            w.int("day", day)
            w.money("total", total)
        }
    }

    /// One day's takings in one currency.
    public struct Takings: FieldCodable, Hashable {
        /// Orders placed that day and not cancelled (demand: no revenue until delivered).
        public var orders: Int64
        /// Orders delivered that day.
        public var delivered: Int64
        /// Their totals, in minor units: the online revenue of the day.
        public var deliveredAmount: Int64
        /// Sales at the till that day.
        public var sales: Int64
        /// Their totals, in minor units.
        public var salesAmount: Int64
        /// Refunds given that day, in minor units.
        public var refundsAmount: Int64
        /// Payments collected at the door that day, in minor units (cash in hand, not revenue).
        public var collectedAmount: Int64
        /// Grooming bookings completed that day, and their prices, in minor units.
        public var groomings: Int64
        public var groomingAmount: Int64

        public init(
            orders: Int64 = 0, delivered: Int64 = 0, deliveredAmount: Int64 = 0, sales: Int64 = 0, salesAmount: Int64 = 0,
            refundsAmount: Int64 = 0, collectedAmount: Int64 = 0, groomings: Int64 = 0, groomingAmount: Int64 = 0
        ) {
            self.orders = orders
            self.delivered = delivered
            self.deliveredAmount = deliveredAmount
            self.sales = sales
            self.salesAmount = salesAmount
            self.refundsAmount = refundsAmount
            self.collectedAmount = collectedAmount
            self.groomings = groomings
            self.groomingAmount = groomingAmount
        }

        /// The day's revenue: orders delivered, till sales and groomings done, less refunds.
        public var amount: Int64 { deliveredAmount + salesAmount + groomingAmount - refundsAmount }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            orders = try r.int("orders")
            delivered = try r.int("delivered")
            deliveredAmount = try r.int("deliveredAmount")
            sales = try r.int("sales")
            salesAmount = try r.int("salesAmount")
            refundsAmount = try r.int("refundsAmount")
            collectedAmount = try r.int("collectedAmount")
            groomings = try r.int("groomings")
            groomingAmount = try r.int("groomingAmount")
        }

        public func write(to w: inout some FieldWriter) {
            w.int("orders", orders)
            w.int("delivered", delivered)
            w.int("deliveredAmount", deliveredAmount)
            w.int("sales", sales)
            w.int("salesAmount", salesAmount)
            w.int("refundsAmount", refundsAmount)
            w.int("collectedAmount", collectedAmount)
            w.int("groomings", groomings)
            w.int("groomingAmount", groomingAmount)
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

    /// One product's units sold (units that left the shop and did not come back), with the name of its latest snapshot.
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
        /// Its price as booked (`nil` for bookings from before services had prices), earned when completed.
        public var price: Money?

        public init(
            petId: String, ownerId: String, service: GroomingService, slot: Timestamp, status: BookingStatus,
            since: Timestamp, price: Money? = nil
        ) {
            self.petId = petId
            self.ownerId = ownerId
            self.service = service
            self.slot = slot
            self.status = status
            self.since = since
            self.price = price
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            petId = try r.string("petId")
            ownerId = try r.string("ownerId")
            service = try r.choice("service", GroomingService.self)
            slot = try r.timestamp("slot")
            status = try r.choice("status", BookingStatus.self)
            since = try r.timestamp("since")
            price = try r.optionalMoney("price")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("petId", petId)
            w.string("ownerId", ownerId)
            w.choice("service", service)
            w.timestamp("slot", slot)
            w.choice("status", status)
            w.timestamp("since", since)
            w.optionalMoney("price", price)
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
}
