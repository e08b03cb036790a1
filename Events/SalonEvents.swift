public import EventLog

// The salon: the grooming services it offers with their terms, how many groomers work each slot (stream
// `salon`), and the groomers each day's slots hold for bookings (stream `salonday-<YYYY-MM-DD>`, a UTC day), written
// in the same append as the booking, so no slot is ever booked beyond the groomers on duty.

/// Staff did not see the pet: the owner did not come to a booking whose slot had started; its time is released.
public struct BookingNoShow: DomainEvent {
    public static let eventType = "BookingNoShow"
    public static let area = "bookings"
    public static let summary = "Staff recorded that the pet did not come to a booking whose slot had started; its time is released."
    public var bookingId: String
    public var recordedBy: String

    public init(bookingId: String, recordedBy: String) {
        self.bookingId = bookingId
        self.recordedBy = recordedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        recordedBy = try r.string("recordedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.string("recordedBy", recordedBy)
    }
}

/// An admin set a grooming service's terms: its name, price, duration and the groomers it needs.
public struct GroomingServiceSet: DomainEvent {
    public static let eventType = "GroomingServiceSet"
    public static let area = "bookings"
    public static let summary = "An admin set a grooming service's name, price, duration and the groomers it needs, or withdrew it."
    public var service: GroomingService
    public var name: String
    public var price: Money
    /// A multiple of the 30-minute slot.
    public var durationMinutes: Int64
    public var groomers: Int64
    /// Whether customers may book it.
    public var offered: Bool

    public init(service: GroomingService, name: String, price: Money, durationMinutes: Int64, groomers: Int64, offered: Bool = true) {
        self.service = service
        self.name = name
        self.price = price
        self.durationMinutes = durationMinutes
        self.groomers = groomers
        self.offered = offered
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        service = try r.choice("service", GroomingService.self)
        name = try r.string("name")
        price = try r.money("price")
        durationMinutes = try r.int("durationMinutes")
        groomers = try r.int("groomers")
        offered = try r.bool("offered")
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("service", service)
        w.string("name", name)
        w.money("price", price)
        w.int("durationMinutes", durationMinutes)
        w.int("groomers", groomers)
        w.bool("offered", offered)
    }
}

extension GroomingServiceSet {
    /// The terms of each service before an admin sets them, in the catalog's order: what bookings take then, and what
    /// `catalog seed` writes out.
    public static let defaults: [GroomingServiceSet] = [
        GroomingServiceSet(service: .bath, name: "Bath & blow-dry", price: Money(80_000, "BDT"), durationMinutes: 60, groomers: 1),
        GroomingServiceSet(service: .haircut, name: "Breed haircut", price: Money(120_000, "BDT"), durationMinutes: 90, groomers: 1),
        GroomingServiceSet(service: .nailTrim, name: "Nail trim", price: Money(30_000, "BDT"), durationMinutes: 30, groomers: 1),
        GroomingServiceSet(service: .fullGroom, name: "Full groom", price: Money(250_000, "BDT"), durationMinutes: 120, groomers: 2),
        GroomingServiceSet(service: .deShedding, name: "De-shedding treatment", price: Money(150_000, "BDT"), durationMinutes: 90, groomers: 1),
    ]
}

/// An admin set how many groomers work each slot: the salon's capacity.
public struct SalonCapacitySet: DomainEvent {
    public static let eventType = "SalonCapacitySet"
    public static let area = "bookings"
    public static let summary = "An admin set how many groomers work each slot (the salon's capacity)."
    public var groomers: Int64

    /// Groomers on duty each slot before an admin says.
    public static let defaultGroomers: Int64 = 3

    public init(groomers: Int64) {
        self.groomers = groomers
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        groomers = try r.int("groomers")
    }

    public func write(to w: inout some FieldWriter) {
        w.int("groomers", groomers)
    }
}

/// A day's slots hold groomers for a booking: the consecutive slots its service covers on that day.
public struct SalonSlotsHeld: DomainEvent {
    public static let eventType = "SalonSlotsHeld"
    public static let area = "bookings"
    public static let summary = "A day's salon slots hold groomers for a booking: the consecutive slots its service covers that day."
    public var bookingId: String
    /// The first slot held.
    public var from: Timestamp
    /// Consecutive 30-minute slots held from `from`.
    public var slots: Int64
    public var groomers: Int64

    public init(bookingId: String, from: Timestamp, slots: Int64, groomers: Int64) {
        self.bookingId = bookingId
        self.from = from
        self.slots = slots
        self.groomers = groomers
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        from = try r.timestamp("from")
        slots = try r.int("slots")
        groomers = try r.int("groomers")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.timestamp("from", from)
        w.int("slots", slots)
        w.int("groomers", groomers)
    }
}

/// A day's salon slots gave back a booking's groomers: it was cancelled, completed, moved or a no-show.
public struct SalonSlotsReleased: DomainEvent {
    public static let eventType = "SalonSlotsReleased"
    public static let area = "bookings"
    public static let summary = "A day's salon slots gave back a booking's groomers (cancelled, completed, moved or a no-show)."
    public var bookingId: String

    public init(bookingId: String) {
        self.bookingId = bookingId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
    }
}
