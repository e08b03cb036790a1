public import Events

/// Whether customers may book a service.
public enum ServiceAvailability: String, FieldChoice {
    case offered, withdrawn
}

/// `salon.set-service`: an admin sets a grooming service's terms. Bookings keep the terms they were made at.
public struct SetGroomingService: DomainCommand, Hashable {
    public static let name = "salon.set-service"
    public static let summary = "Set a grooming service's name, price, duration and groomers, or withdraw it (admins)."

    /// The longest service, in minutes: a working day.
    public static let maxDurationMinutes: Int64 = 480

    public var service: GroomingService
    public var name: String
    public var price: Money
    public var durationMinutes: Int64
    public var groomers: Int64
    public var availability: ServiceAvailability?

    public init(
        service: GroomingService, name: String, price: Money, durationMinutes: Int64, groomers: Int64, availability: ServiceAvailability? = nil
    ) {
        self.service = service
        self.name = name
        self.price = price
        self.durationMinutes = durationMinutes
        self.groomers = groomers
        self.availability = availability
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        service = try r.choice("service", GroomingService.self)
        name = try r.string("name")
        price = try r.money("price")
        durationMinutes = try r.int("durationMinutes")
        groomers = try r.int("groomers")
        availability = try r.optionalChoice("availability", ServiceAvailability.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("service", service)
        w.string("name", name)
        w.money("price", price)
        w.int("durationMinutes", durationMinutes)
        w.int("groomers", groomers)
        w.optionalChoice("availability", availability)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, salon: try await loader.load(SalonState.self, Streams.salon))
    }

    /// The pure decision; terms equal to those in force append nothing.
    ///
    /// - Returns: `GroomingServiceSet` on the salon's stream.
    /// - Throws: ``DomainError`` for a non-admin, a bad name or price, a duration off the 30-minute grid or longer
    ///   than a working day, or a number of groomers the salon does not have.
    public func decide(_ context: DecisionContext, salon: SalonState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("set the salon's services")
        let name = try Validate.text(name, field: "name", max: 80)
        try Validate.price(price, field: "price")
        guard durationMinutes >= BookingSlot.minutes, durationMinutes <= Self.maxDurationMinutes, durationMinutes % BookingSlot.minutes == 0 else {
            throw .invalid(field: "durationMinutes", reason: "must be a multiple of 30 from 30 to \(Self.maxDurationMinutes) (got \(durationMinutes))")
        }
        guard groomers >= 1, groomers <= salon.capacity else {
            throw .invalid(field: "groomers", reason: "must be from 1 to the \(salon.capacity) groomers on duty (got \(groomers))")
        }
        let terms = GroomingServiceSet(
            service: service, name: name, price: price, durationMinutes: durationMinutes, groomers: groomers,
            offered: (availability ?? .offered) == .offered)
        if salon.services[service] == terms { return .nothing }
        return .append(Streams.salon, terms)
    }
}

/// `salon.set-capacity`: an admin sets how many groomers work each slot. Bookings already made keep their slots.
public struct SetSalonCapacity: DomainCommand, Hashable {
    public static let name = "salon.set-capacity"
    public static let summary = "Set how many groomers work each slot: how many pets the salon takes at once (admins)."

    public static let maxGroomers: Int64 = 50

    public var groomers: Int64

    public init(groomers: Int64) {
        self.groomers = groomers
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        groomers = try r.int("groomers")
    }

    public func write(to w: inout some FieldWriter) {
        w.int("groomers", groomers)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, salon: try await loader.load(SalonState.self, Streams.salon))
    }

    /// The pure decision; the capacity in force appends nothing.
    ///
    /// - Returns: `SalonCapacitySet` on the salon's stream.
    /// - Throws: ``DomainError`` for a non-admin, or a number out of range or below what an offered service needs.
    public func decide(_ context: DecisionContext, salon: SalonState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("set the salon's capacity")
        guard groomers >= 1, groomers <= Self.maxGroomers else {
            throw .invalid(field: "groomers", reason: "must be from 1 to \(Self.maxGroomers) (got \(groomers))")
        }
        if let needs = salon.allTerms.filter(\.offered).max(by: { $0.groomers < $1.groomers }), needs.groomers > groomers {
            throw .invalid(field: "groomers", reason: "'\(needs.service.rawValue)' needs \(needs.groomers) groomers at once; withdraw it or change it first")
        }
        if salon.capacitySet == groomers { return .nothing }
        return .append(Streams.salon, SalonCapacitySet(groomers: groomers))
    }
}
