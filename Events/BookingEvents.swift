public import EventLog

// The bookings area: grooming bookings (stream `booking-<bookingId>`) and the slots each pet holds (stream
// `petschedule-<petId>`), which every request, reschedule, cancel and complete writes in the same atomic append
// as the booking, so two active bookings of one pet can never share a slot, even when requested concurrently.

/// The grooming services a pet can be booked for.
public enum GroomingService: String, FieldChoice {
    case bath, haircut
    case nailTrim = "nail-trim"
    case fullGroom = "full-groom"
    case deShedding = "de-shedding"
}

/// Where a grooming booking is in its lifecycle: requested -> confirmed -> completed (or a no-show once its slot
/// has started), or cancelled.
public enum BookingStatus: String, FieldChoice {
    case requested, confirmed, completed, cancelled
    case noShow = "no-show"
}

/// An owner requested a grooming slot for a pet.
///
/// Schema version 2 added the service's terms as booked: how long it takes, the groomers it needs and its price.
/// Version 1 bookings were half an hour, one groomer and unpriced; ``upcast(from:reading:)`` reads them so.
public struct BookingRequested: DomainEvent {
    public static let eventType = "BookingRequested"
    public static let schemaVersion = 2
    public static let area = "bookings"
    public static let summary =
        "An owner requested a grooming service for their pet in a slot, at the service's duration, groomers and price; the booking is requested."
    public var bookingId: String
    public var petId: String
    /// The pet's owner, who requested it.
    public var ownerId: String
    public var service: GroomingService
    public var slot: Timestamp
    /// How long the service takes, in minutes (a multiple of the 30-minute slot).
    public var durationMinutes: Int64
    /// Groomers it needs at once.
    public var groomers: Int64
    /// Its price when booked; `nil` for bookings made before services had prices.
    public var price: Money?

    public init(
        bookingId: String, petId: String, ownerId: String, service: GroomingService, slot: Timestamp, durationMinutes: Int64 = 30,
        groomers: Int64 = 1, price: Money? = nil
    ) {
        self.bookingId = bookingId
        self.petId = petId
        self.ownerId = ownerId
        self.service = service
        self.slot = slot
        self.durationMinutes = durationMinutes
        self.groomers = groomers
        self.price = price
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        self = try Self.version1Fields(&r)
        durationMinutes = try r.int("durationMinutes")
        groomers = try r.int("groomers")
        price = try r.optionalMoney("price")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.string("petId", petId)
        w.string("ownerId", ownerId)
        w.choice("service", service)
        w.timestamp("slot", slot)
        w.int("durationMinutes", durationMinutes)
        w.int("groomers", groomers)
        w.optionalMoney("price", price)
    }

    private static func version1Fields(_ r: inout some FieldReader) throws(FieldError) -> BookingRequested {
        BookingRequested(
            bookingId: try r.string("bookingId"), petId: try r.string("petId"), ownerId: try r.string("ownerId"),
            service: try r.choice("service", GroomingService.self), slot: try r.timestamp("slot"))
    }

    /// Reads version 1: a half-hour booking for one groomer, with no price.
    public static func upcast(from version: Int, reading r: inout BinaryFieldReader) throws(FieldError) -> BookingRequested {
        guard version == 1 else { throw FieldError(field: "", message: "\(eventType) has no schema version \(version)") }
        return try version1Fields(&r)
    }

    /// When the service ends.
    public var end: Timestamp { Timestamp(microsecondsSinceEpoch: slot.microsecondsSinceEpoch + durationMinutes * 60_000_000) }
}

/// Staff confirmed a requested booking; a reminder is due 24 hours before its slot.
public struct BookingConfirmed: DomainEvent {
    public static let eventType = "BookingConfirmed"
    public static let area = "bookings"
    public static let summary = "Staff confirmed a requested booking; the owner's reminder is due 24 h before the slot."
    public var bookingId: String
    public var slot: Timestamp
    /// The slot minus 24 hours (may be past already when the slot is near).
    public var reminderDueAt: Timestamp
    public var confirmedBy: String

    public init(bookingId: String, slot: Timestamp, reminderDueAt: Timestamp, confirmedBy: String) {
        self.bookingId = bookingId
        self.slot = slot
        self.reminderDueAt = reminderDueAt
        self.confirmedBy = confirmedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        slot = try r.timestamp("slot")
        reminderDueAt = try r.timestamp("reminderDueAt")
        confirmedBy = try r.string("confirmedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.timestamp("slot", slot)
        w.timestamp("reminderDueAt", reminderDueAt)
        w.string("confirmedBy", confirmedBy)
    }
}

/// Staff completed a confirmed booking.
public struct BookingCompleted: DomainEvent {
    public static let eventType = "BookingCompleted"
    public static let area = "bookings"
    public static let summary = "Staff completed a confirmed booking; its slot is released."
    public var bookingId: String
    public var completedBy: String

    public init(bookingId: String, completedBy: String) {
        self.bookingId = bookingId
        self.completedBy = completedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        completedBy = try r.string("completedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.string("completedBy", completedBy)
    }
}

/// The owner or staff cancelled a requested or confirmed booking (or the pet was removed).
public struct BookingCancelled: DomainEvent {
    public static let eventType = "BookingCancelled"
    public static let area = "bookings"
    public static let summary =
        "The owner or staff cancelled a requested or confirmed booking, or its pet was removed; its slot is released."
    public var bookingId: String
    public var cancelledBy: String
    public var reason: String?

    public init(bookingId: String, cancelledBy: String, reason: String? = nil) {
        self.bookingId = bookingId
        self.cancelledBy = cancelledBy
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        cancelledBy = try r.string("cancelledBy")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.string("cancelledBy", cancelledBy)
        w.optionalString("reason", reason)
    }
}

/// The owner or staff moved a booking to another slot. A rescheduled booking is requested again, even when it was
/// confirmed: staff confirmed the old slot, not the new one, and the old slot's reminder no longer applies.
public struct BookingRescheduled: DomainEvent {
    public static let eventType = "BookingRescheduled"
    public static let area = "bookings"
    public static let summary =
        "The owner or staff moved a booking to a new slot; it is requested again and needs confirming (no reminder until then)."
    public var bookingId: String
    public var previousSlot: Timestamp
    public var slot: Timestamp
    public var rescheduledBy: String

    public init(bookingId: String, previousSlot: Timestamp, slot: Timestamp, rescheduledBy: String) {
        self.bookingId = bookingId
        self.previousSlot = previousSlot
        self.slot = slot
        self.rescheduledBy = rescheduledBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        previousSlot = try r.timestamp("previousSlot")
        slot = try r.timestamp("slot")
        rescheduledBy = try r.string("rescheduledBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.timestamp("previousSlot", previousSlot)
        w.timestamp("slot", slot)
        w.string("rescheduledBy", rescheduledBy)
    }
}

/// A pet's schedule took a slot for an active booking (stream `petschedule-<petId>`).
public struct PetSlotHeld: DomainEvent {
    public static let eventType = "PetSlotHeld"
    public static let schemaVersion = 2
    public static let area = "bookings"
    public static let summary = "A pet's schedule holds the time of one of its active bookings, from its slot until it ends."
    public var petId: String
    public var bookingId: String
    public var slot: Timestamp
    /// When the booking ends (version 1: half an hour after the slot).
    public var until: Timestamp

    public init(petId: String, bookingId: String, slot: Timestamp, until: Timestamp? = nil) {
        self.petId = petId
        self.bookingId = bookingId
        self.slot = slot
        self.until = until ?? Timestamp(microsecondsSinceEpoch: slot.microsecondsSinceEpoch + 30 * 60_000_000)
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        self = try Self.version1Fields(&r)
        until = try r.timestamp("until")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("bookingId", bookingId)
        w.timestamp("slot", slot)
        w.timestamp("until", until)
    }

    private static func version1Fields(_ r: inout some FieldReader) throws(FieldError) -> PetSlotHeld {
        PetSlotHeld(petId: try r.string("petId"), bookingId: try r.string("bookingId"), slot: try r.timestamp("slot"))
    }

    /// Reads version 1, which held one half-hour slot.
    public static func upcast(from version: Int, reading r: inout BinaryFieldReader) throws(FieldError) -> PetSlotHeld {
        guard version == 1 else { throw FieldError(field: "", message: "\(eventType) has no schema version \(version)") }
        return try version1Fields(&r)
    }
}

/// A pet's schedule gave a slot back: its booking was cancelled, completed or moved.
public struct PetSlotReleased: DomainEvent {
    public static let eventType = "PetSlotReleased"
    public static let area = "bookings"
    public static let summary = "A pet's schedule released a slot: its booking was cancelled, completed or rescheduled."
    public var petId: String
    public var bookingId: String
    public var slot: Timestamp

    public init(petId: String, bookingId: String, slot: Timestamp) {
        self.petId = petId
        self.bookingId = bookingId
        self.slot = slot
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        bookingId = try r.string("bookingId")
        slot = try r.timestamp("slot")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("bookingId", bookingId)
        w.timestamp("slot", slot)
    }
}

/// The bookings area's event types, in catalog order.
public enum BookingEvents {
    public static let all: [any DomainEvent.Type] = [
        BookingRequested.self, BookingConfirmed.self, BookingCompleted.self, BookingCancelled.self,
        BookingRescheduled.self, PetSlotHeld.self, PetSlotReleased.self, BookingNoShow.self, GroomingServiceSet.self,
        SalonCapacitySet.self, SalonSlotsHeld.self, SalonSlotsReleased.self,
    ]
}

extension BookingRequested: OwnedSubjectCreated {
    /// The pet's owner: the customer side of a conversation about the booking.
    public var subjectOwnerId: String { ownerId }
}
