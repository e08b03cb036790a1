// The POS area: sales over the counter in the shop (stream `sale-<saleId>`). Each sale takes its units from the
// same inventory streams online orders reserve from, in the same append.

/// How an in-store customer paid at the till.
public enum StorePayment: String, FieldChoice {
    case cash, card
}

/// Staff sold products over the counter.
public struct InStoreSaleCompleted: DomainEvent {
    public static let eventType = "InStoreSaleCompleted"
    public static let area = "pos"
    public static let summary = "Staff sold products over the counter: line snapshots, total and payment."
    public var saleId: String
    /// The staff member at the till.
    public var soldBy: String
    public var lines: [PurchaseLine]
    /// The sum of the line totals.
    public var total: Money
    public var payment: StorePayment

    public init(saleId: String, soldBy: String, lines: [PurchaseLine], total: Money, payment: StorePayment) {
        self.saleId = saleId
        self.soldBy = soldBy
        self.lines = lines
        self.total = total
        self.payment = payment
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        saleId = try r.string("saleId")
        soldBy = try r.string("soldBy")
        lines = try r.records("lines", PurchaseLine.self)
        total = try r.money("total")
        payment = try r.choice("payment", StorePayment.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("saleId", saleId)
        w.string("soldBy", soldBy)
        w.records("lines", lines)
        w.money("total", total)
        w.choice("payment", payment)
    }
}

/// The POS area's event types, in catalog order.
public enum POSEvents {
    public static let all: [any DomainEvent.Type] = [InStoreSaleCompleted.self]
}
