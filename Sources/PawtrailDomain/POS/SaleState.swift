public import EventLog
public import Events

/// Whether a sale exists (stream `sale-<saleId>`): a sale is never changed once made.
public struct SaleState: Aggregate, Hashable {
    public var exists = false

    public init() {}

    public static let snapshotKind = "sale"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        exists = try r.bool("exists")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("exists", exists)
    }

    public static func evolve(_ state: SaleState, _ event: any DomainEvent) -> SaleState {
        var s = state
        if event is InStoreSaleCompleted { s.exists = true }
        return s
    }
}

extension Streams {
    /// An in-store sale.
    public static func sale(_ saleId: String) -> StreamID { named("sale", saleId) }
}
