public import EventLog
public import Events

/// The salon's terms (stream `salon`): each grooming service's name, price, duration and groomers, and how many
/// groomers work each slot. A store that never set them books with ``defaults`` and ``defaultCapacity``, which
/// `catalog seed` writes out as events.
public struct SalonState: Aggregate, Equatable {
    /// Terms set by admins, by service.
    public var services: [GroomingService: GroomingServiceSet] = [:]
    /// Groomers on duty each slot, `nil` until set.
    public var capacitySet: Int64?

    public init() {}

    public static let snapshotKind = "salon"
    public static let schemaVersion = 1

    /// Groomers on duty each slot when no admin has said.
    public static let defaultCapacity = SalonCapacitySet.defaultGroomers

    /// The terms of each service when no admin has set them.
    public static let defaults = GroomingServiceSet.defaults

    public init(reading r: inout some FieldReader) throws(FieldError) {
        for terms in try r.records("services", GroomingServiceSet.self) { services[terms.service] = terms }
        capacitySet = try r.optionalInt("capacity")
    }

    public func write(to w: inout some FieldWriter) {
        w.records("services", services.values.sorted { $0.service.rawValue < $1.service.rawValue })
        w.optionalInt("capacity", capacitySet)
    }

    public static func evolve(_ state: SalonState, _ event: any DomainEvent) -> SalonState {
        var s = state
        switch event {
        case let e as GroomingServiceSet: s.services[e.service] = e
        case let e as SalonCapacitySet: s.capacitySet = e.groomers
        default: break
        }
        return s
    }

    /// Groomers on duty each slot.
    public var capacity: Int64 { capacitySet ?? Self.defaultCapacity }

    /// A service's terms: as set, else the default.
    public func terms(_ service: GroomingService) -> GroomingServiceSet {
        services[service] ?? Self.defaults.first { $0.service == service }!
    }

    /// Every service's terms, in the catalog's order.
    public var allTerms: [GroomingServiceSet] { Self.defaults.map { terms($0.service) } }
}

extension Streams {
    /// The salon's services and capacity.
    public static let salon = StreamID(unchecked: "salon")

    /// The groomers a UTC day's slots hold (`salonday-2026-12-03`).
    public static func salonDay(_ day: String) -> StreamID { named("salonday", day) }
}
