public import EventLog
public import Events

/// A grooming booking as decisions see it (stream `booking-<bookingId>`).
public struct BookingState: Aggregate, Equatable {
    /// The event that created it: a re-sent `booking.request` is recognised by it.
    public var requested: BookingRequested?
    /// The pet.
    public var petId = ""
    /// The pet's owner, who requested it (messaging reads it to tell who owns a booking).
    public var ownerId = ""
    /// The service.
    public var service: GroomingService = .bath
    /// The current slot.
    public var slot = Timestamp(microsecondsSinceEpoch: 0)
    /// Where it is in its lifecycle.
    public var status: BookingStatus = .requested
    /// How long the service takes, in minutes, and the groomers it needs (as booked).
    public var durationMinutes: Int64 = 30
    public var groomers: Int64 = 1

    /// Whether the booking was requested.
    public var exists: Bool { requested != nil }
    /// Whether it holds its slot (requested or confirmed).
    public var isActive: Bool { exists && (status == .requested || status == .confirmed) }

    public init() {}

    public static let snapshotKind = "booking"
    public static let schemaVersion = 2

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requested = try r.records("requested", BookingRequested.self).first
        petId = try r.string("petId")
        ownerId = try r.string("ownerId")
        service = try r.choice("service", GroomingService.self)
        slot = try r.timestamp("slot")
        status = try r.choice("status", BookingStatus.self)
        durationMinutes = try r.int("durationMinutes")
        groomers = try r.int("groomers")
    }

    public func write(to w: inout some FieldWriter) {
        w.records("requested", requested.map { [$0] } ?? [])
        w.string("petId", petId)
        w.string("ownerId", ownerId)
        w.choice("service", service)
        w.timestamp("slot", slot)
        w.choice("status", status)
        w.int("durationMinutes", durationMinutes)
        w.int("groomers", groomers)
    }

    public static func evolve(_ state: BookingState, _ event: any DomainEvent) -> BookingState {
        var s = state
        switch event {
        case let e as BookingRequested:
            s.requested = e
            s.petId = e.petId
            s.ownerId = e.ownerId
            s.service = e.service
            s.slot = e.slot
            s.status = .requested
            s.durationMinutes = e.durationMinutes
            s.groomers = e.groomers
        case is BookingConfirmed:
            s.status = .confirmed
        case is BookingCompleted:
            s.status = .completed
        case is BookingCancelled:
            s.status = .cancelled
        case is BookingNoShow:
            s.status = .noShow
        case let e as BookingRescheduled:
            // A new slot needs confirming again: staff confirmed the old one.
            s.slot = e.slot
            s.status = .requested
        default:
            break
        }
        return s
    }

    /// Checks that the booking exists.
    ///
    /// - Throws: ``DomainError/notFound(_:)``.
    /// When the service ends.
    public var end: Timestamp { Timestamp(microsecondsSinceEpoch: slot.microsecondsSinceEpoch + durationMinutes * 60_000_000) }

    public func checkExists(_ bookingId: String) throws(DomainError) {
        guard exists else { throw .notFound("booking '\(bookingId)' does not exist") }
    }

    /// Checks that the actor is the booking's owner or staff.
    ///
    /// - Throws: ``DomainError/forbidden(_:)``.
    public func checkOwnerOrStaff(_ bookingId: String, actor: Actor) throws(DomainError) {
        guard actor.userID == ownerId || actor.isStaff else {
            throw .forbidden("booking '\(bookingId)' belongs to another owner; \(actor) may not act on it")
        }
    }

    /// Checks that the booking is in one of the allowed statuses, naming the current one otherwise.
    ///
    /// - Parameters:
    ///   - allowed: The statuses the transition starts from.
    ///   - verb: The transition's past participle (`cancelled`).
    /// - Throws: ``DomainError/invalidState(_:)``.
    public func checkStatus(_ bookingId: String, in allowed: [BookingStatus], toBe verb: String) throws(DomainError) {
        guard allowed.contains(status) else {
            let names = allowed.map(\.rawValue).joined(separator: " or ")
            throw .invalidState("booking '\(bookingId)' is \(status.rawValue); only a \(names) booking can be \(verb)")
        }
    }
}

/// The grid grooming slots start on, and the rules a slot follows.
public enum BookingSlot {
    /// Slots start every 30 minutes (on the hour and half past, UTC), so "the same slot" means the same start time.
    public static let minutes: Int64 = 30
    /// How long before a confirmed slot its reminder is due.
    public static let reminderLead: Int64 = 24 * 3_600 * 1_000_000

    /// Checks a slot: on the grid and in the future of the command's clock.
    ///
    /// - Throws: ``DomainError/invalid(field:reason:)`` naming `slot`.
    public static func check(_ slot: Timestamp, now: Timestamp) throws(DomainError) {
        guard slot.microsecondsSinceEpoch % (minutes * 60 * 1_000_000) == 0 else {
            throw .invalid(
                field: "slot", reason: "\(slot.iso8601) does not start a slot; slots start on the hour or half past (UTC)")
        }
        try Validate.future(slot, field: "slot", now: now)
    }

    /// When the reminder of a slot is due: 24 hours before it.
    public static func reminderDue(for slot: Timestamp) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: slot.microsecondsSinceEpoch - reminderLead)
    }
}

extension Streams {
    /// A grooming booking's stream.
    public static func booking(_ bookingId: String) -> StreamID { named("booking", bookingId) }
    /// The slots a pet's active bookings hold.
    public static func petSchedule(_ petId: String) -> StreamID { named("petschedule", petId) }
}
