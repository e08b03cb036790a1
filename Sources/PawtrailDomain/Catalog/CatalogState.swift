public import EventLog
public import Events

/// Whether the bundled catalog was seeded (stream `catalog`, the marker that makes seeding happen once).
public struct CatalogState: Aggregate, Hashable {
    /// Whether `CatalogSeeded` is in the stream.
    public var seeded = false
    /// The products the seed listed.
    public var seededProductIds: [String] = []

    public init() {}

    public static let snapshotKind = "catalog"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        seeded = try r.bool("seeded")
        seededProductIds = try r.strings("seededProductIds")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("seeded", seeded)
        w.strings("seededProductIds", seededProductIds)
    }

    public static func evolve(_ state: CatalogState, _ event: any DomainEvent) -> CatalogState {
        var s = state
        if let e = event as? CatalogSeeded {
            s.seeded = true
            s.seededProductIds = e.productIds
        }
        return s
    }
}

extension Streams {
    /// The marker of the one-time catalog seed.
    public static let catalog = StreamID(unchecked: "catalog")
}
