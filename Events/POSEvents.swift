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
    public static let summary = "Staff sold products over the counter: line snapshots, total, payment, and the customer when named."
    /// Version 2 added `customerId`.
    public static let schemaVersion = 2
    public var saleId: String
    /// The staff member at the till.
    public var soldBy: String
    public var lines: [PurchaseLine]
    /// The sum of the line totals.
    public var total: Money
    public var payment: StorePayment
    /// The customer the sale was for, when the till named one (an account holder); `nil` for a walk-in sale.
    public var customerId: String?

    public init(saleId: String, soldBy: String, lines: [PurchaseLine], total: Money, payment: StorePayment, customerId: String? = nil) {
        self.saleId = saleId
        self.soldBy = soldBy
        self.lines = lines
        self.total = total
        self.payment = payment
        self.customerId = customerId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        self = try Self.version1Fields(&r)
        customerId = try r.optionalString("customerId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("saleId", saleId)
        w.string("soldBy", soldBy)
        w.records("lines", lines)
        w.money("total", total)
        w.choice("payment", payment)
        w.optionalString("customerId", customerId)
    }

    private static func version1Fields(_ r: inout some FieldReader) throws(FieldError) -> InStoreSaleCompleted {
        InStoreSaleCompleted(
            saleId: try r.string("saleId"), soldBy: try r.string("soldBy"), lines: try r.records("lines", PurchaseLine.self),
            total: try r.money("total"), payment: try r.choice("payment", StorePayment.self))
    }

    /// Reads version 1, which named no customer.
    ///
    /// - Parameters:
    ///   - version: The stored version.
    ///   - reader: A reader at the first field.
    /// - Returns: The sale in the version 2 shape, without a customer.
    /// - Throws: ``FieldError`` for an unknown version or malformed fields.
    public static func upcast(from version: Int, reading r: inout BinaryFieldReader) throws(FieldError) -> InStoreSaleCompleted {
        guard version == 1 else { throw FieldError(field: "", message: "\(eventType) has no schema version \(version)") }
        return try version1Fields(&r)
    }
}

/// The POS area's event types, in catalog order.
public enum POSEvents {
    public static let all: [any DomainEvent.Type] = [InStoreSaleCompleted.self]
}
