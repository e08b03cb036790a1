public import EventLog
public import Events

/// The till's receipts, by day: every in-store sale with its time, staff member, customer (when the till named one),
/// lines, payment and total. A day's receipts are a group of a ``GroupedTable``, one row a sale, so a sale stores one
/// row however busy the day, and a day is read, live or as of any past moment, by its rows.
///
/// Days are business days (the `occurredAt` of the command that rang the sale up, in the business's time zone).
public enum SalesProjection: KeyedProjection {
    /// One sale as the receipt list shows it.
    public struct Receipt: FieldCodable, Hashable {
        /// When it was rung up (business time).
        public var at: Timestamp
        public var soldBy: String
        public var customerId: String?
        public var lines: [PurchaseLine]
        public var total: Money
        public var payment: StorePayment
        /// The local time it was rung up (`HH:MM`), in the business's time zone of the day.
        public var localTime: String

        public init(
            at: Timestamp, soldBy: String, customerId: String?, lines: [PurchaseLine], total: Money, payment: StorePayment,
            localTime: String? = nil
        ) {
            self.localTime = localTime ?? Format.clock(at)
            self.at = at
            self.soldBy = soldBy
            self.customerId = customerId
            self.lines = lines
            self.total = total
            self.payment = payment
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            at = try r.timestamp("at")
            soldBy = try r.string("soldBy")
            customerId = try r.optionalString("customerId")
            lines = try r.records("lines", PurchaseLine.self)
            total = try r.money("total")
            payment = try r.choice("payment", StorePayment.self)
            localTime = try r.string("localTime")
        }

        public func write(to w: inout some FieldWriter) {
            w.timestamp("at", at)
            w.string("soldBy", soldBy)
            w.optionalString("customerId", customerId)
            w.records("lines", lines)
            w.money("total", total)
            w.choice("payment", payment)
            w.string("localTime", localTime)
        }
    }

    public struct State: KeyedProjectionState {
        /// Receipts: a group a day (`YYYY-MM-DD`), a part a sale (by sale id).
        public var receipts = GroupedTable<Receipt>(id: 1)
        /// One row, `latest`: the newest day with a sale, the day the list shows when none is asked for.
        public var latest = KeyedTable<TextRow>(id: 2, history: .exact)
        /// The business's time zone under the key `timeZone` (absent: UTC), every version kept.
        public var settings = KeyedTable<TextRow>(id: 3, history: .exact)

        /// The business's time zone.
        public var zone: BusinessTimeZone { settings.businessTimeZone }

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            receipts = GroupedTable(id: 1, rows: try r.keyed("receipts", Receipt.self))
            latest = KeyedTable(id: 2, history: .exact, rows: try r.keyed("latest", TextRow.self))
            settings = KeyedTable(id: 3, history: .exact, rows: try r.keyed("settings", TextRow.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("receipts", receipts.entries)
            w.keyed("latest", latest.entries)
            w.keyed("settings", settings.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&receipts)
            visitor.visit(&latest)
            visitor.visit(&settings)
        }

        /// A day's receipts, in the order they were rung up (then by sale id).
        public func day(_ day: String) -> [(saleId: String, receipt: Receipt)] {
            receipts.parts(of: day).map { (saleId: $0.key, receipt: $0.value) }.sorted {
                ($0.receipt.at, $0.saleId) < ($1.receipt.at, $1.saleId)
            }
        }
    }

    public static let name = "sales"
    public static let schemaVersion = 2
    public static let foldCost = 30
    public static let summary = "The till's receipts by day: time, staff, customer, lines, payment and total."
    public static let eventTypes = types(InStoreSaleCompleted.self, BusinessTimeZoneSet.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        if e.typeID == BusinessTimeZoneSet.typeID {
            state.settings.keep(e.event as! BusinessTimeZoneSet)
            return
        }
        guard e.typeID == InStoreSaleCompleted.typeID else { return }
        let x = e.event as! InStoreSaleCompleted
        let day = state.zone.day(e.occurredAt)
        state.receipts[day, x.saleId] = Receipt(
            at: e.occurredAt, soldBy: x.soldBy, customerId: x.customerId, lines: x.lines, total: x.total, payment: x.payment,
            localTime: state.zone.clock(e.occurredAt))
        if (state.latest["latest"]?.text).map({ $0 < day }) ?? true { state.latest["latest"] = TextRow(day) }
    }
}
