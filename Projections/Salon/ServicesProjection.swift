public import Events

/// The salon's grooming services as customers choose them: each service's name, price, duration and the groomers it
/// needs, whether it is offered, and the groomers on duty each slot. A small whole state: five services and a number.
/// A service no admin has set shows its default terms, which bookings then take.
public enum ServicesProjection: Projection {
    public struct State: ProjectionState {
        /// Terms set, by service (raw value).
        public var services: [String: GroomingServiceSet] = [:]
        /// Groomers on duty each slot, `nil` until set.
        public var capacity: Int64?

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            services = try r.keyed("services", GroomingServiceSet.self)
            capacity = try r.optionalInt("capacity")
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("services", services)
            w.optionalInt("capacity", capacity)
        }

        /// Every service's terms in force, in the catalog's order.
        public var terms: [GroomingServiceSet] { GroomingServiceSet.defaults.map { services[$0.service.rawValue] ?? $0 } }
    }

    public static let name = "services"
    public static let schemaVersion = 1
    public static let foldCost = 5
    public static let summary = "The salon's grooming services with their price, duration and groomers, and the groomers on duty."
    public static let eventTypes = types(GroomingServiceSet.self, SalonCapacitySet.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {
        case GroomingServiceSet.typeID:
            let x = e.event as! GroomingServiceSet
            state.services[x.service.rawValue] = x
        case SalonCapacitySet.typeID:
            state.capacity = (e.event as! SalonCapacitySet).groomers
        default:
            return
        }
    }
}
