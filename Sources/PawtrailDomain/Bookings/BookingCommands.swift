public import EventLog
public import Events

// Grooming bookings. Lifecycle: requested -> confirmed -> completed, or cancelled from requested or confirmed;
// a reschedule moves a requested or confirmed booking to a new slot and makes it requested again. Every command
// that takes or gives back a slot writes the pet's schedule (`petschedule-<petId>`) in the same atomic append as
// the booking, at the version it read, so one pet never holds a slot twice, even under concurrent requests.

/// `booking.request`: the owner of a live pet requests a grooming service in a future slot.
public struct RequestBooking: DomainCommand, Hashable {
    public static let name = "booking.request"
    public static let staffMayActFor = true
    public static let summary =
        "Request a grooming service for your pet in a future slot (on the hour or half past)."

    public var petId: String
    public var service: GroomingService
    public var slot: Timestamp
    /// The new booking's id; generated from the command id when absent.
    public var bookingId: String?

    public init(petId: String, service: GroomingService, slot: Timestamp, bookingId: String? = nil) {
        self.petId = petId
        self.service = service
        self.slot = slot
        self.bookingId = bookingId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        service = try r.choice("service", GroomingService.self)
        slot = try r.timestamp("slot")
        bookingId = try r.optionalString("bookingId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.choice("service", service)
        w.timestamp("slot", slot)
        w.optionalString("bookingId", bookingId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(petId, field: "petId")
        let pet = try await loader.load(PetState.self, Streams.pet(petId))
        let schedule = try await loader.load(PetScheduleState.self, Streams.petSchedule(petId))
        if let bookingId { try Validate.id(bookingId, field: "bookingId") }
        let existing = try await loader.load(BookingState.self, Streams.booking(bookingId ?? context.newID("b")))
        let salon = try await loader.load(SalonState.self, Streams.salon)
        let days = try await BookingTime.loadDays(from: slot, minutes: salon.terms(service).durationMinutes, &loader)
        return try decide(context, pet: pet, schedule: schedule, existing: existing, salon: salon, days: days)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - pet: The pet (read only: a concurrent removal makes the append fail and the command re-decide).
    ///   - schedule: The time the pet's active bookings hold.
    ///   - existing: The stream of the booking id (empty unless the command is re-sent or the id is taken).
    ///   - salon: The services' terms and the groomers on duty.
    ///   - days: The salon days the service's time covers.
    /// - Returns: `BookingRequested` (with the service's duration, groomers and price) on a new booking stream,
    ///   `PetSlotHeld` on the pet's schedule and `SalonSlotsHeld` on each salon day; nothing when the same command
    ///   was accepted already (the booking id derives from the command id).
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a slot off the grid or not in the future; the errors of
    ///   ``PetState/checkActive(_:actor:staffMay:)``; ``DomainError/rejected(_:)`` for a withdrawn service, when the
    ///   pet is booked at that time, or when a slot has no groomer left.
    public func decide(
        _ context: DecisionContext, pet: PetState, schedule: PetScheduleState, existing: BookingState, salon: SalonState,
        days: [String: SalonDayState]
    ) throws(DomainError) -> Decision {
        let bookingId = self.bookingId ?? context.newID("b")
        let terms = salon.terms(service)
        let event = BookingRequested(
            bookingId: bookingId, petId: petId, ownerId: context.principal.userID, service: service, slot: slot,
            durationMinutes: terms.durationMinutes, groomers: terms.groomers, price: terms.price)
        if existing.exists {
            if existing.requested == event { return .nothing }
            throw .alreadyExists("booking '\(bookingId)' exists already")
        }
        try BookingSlot.check(slot, now: context.now)
        try pet.checkActive(petId, actor: context.principal)
        guard terms.offered else { throw .rejected("the salon does not offer '\(service.rawValue)' now") }
        try schedule.checkFree(slot, until: event.end, petId: petId, for: bookingId)
        let holds = try BookingTime.hold(
            bookingId, from: slot, minutes: terms.durationMinutes, groomers: terms.groomers, capacity: salon.capacity, days: days)
        return Decision(
            [
                StreamWrite(Streams.booking(bookingId), [event], expected: .noStream),
                StreamWrite(Streams.petSchedule(petId), [PetSlotHeld(petId: petId, bookingId: bookingId, slot: slot, until: event.end)]),
            ] + BookingTime.writes(holds.map { ($0.day, $0.event as any DomainEvent) }))
    }
}

/// `booking.confirm`: staff confirm a requested booking whose slot is still ahead.
public struct ConfirmBooking: DomainCommand, Hashable {
    public static let name = "booking.confirm"
    public static let summary = "Confirm a requested booking (staff); the owner's reminder falls due 24 h before the slot."

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

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(bookingId, field: "bookingId")
        return try decide(context, booking: try await loader.load(BookingState.self, Streams.booking(bookingId)))
    }

    /// The pure decision.
    ///
    /// - Returns: `BookingConfirmed` with the reminder due 24 h before the slot.
    /// - Throws: ``DomainError/forbidden(_:)`` for non-staff, ``DomainError/notFound(_:)``,
    ///   ``DomainError/invalidState(_:)`` unless requested, ``DomainError/rejected(_:)`` when the slot has passed.
    public func decide(_ context: DecisionContext, booking: BookingState) throws(DomainError) -> Decision {
        guard context.actor.isStaff else { throw .forbidden("only staff confirm bookings; \(context.actor) is not staff") }
        try booking.checkExists(bookingId)
        try booking.checkStatus(bookingId, in: [.requested], toBe: "confirmed")
        // Confirming a slot that has gone by would promise a visit that cannot happen.
        guard booking.slot > context.now else {
            throw .rejected("the slot of booking '\(bookingId)' (\(booking.slot.iso8601)) has passed; reschedule or cancel it")
        }
        return .append(
            Streams.booking(bookingId),
            BookingConfirmed(
                bookingId: bookingId, slot: booking.slot, reminderDueAt: BookingSlot.reminderDue(for: booking.slot),
                confirmedBy: context.actor.userID))
    }
}

/// `booking.reschedule`: the owner or staff move a requested or confirmed booking to a new future slot. The
/// booking becomes requested again: staff confirmed the old slot, not the new one, and the reminder moves with
/// the next confirmation.
public struct RescheduleBooking: DomainCommand, Hashable {
    public static let name = "booking.reschedule"
    public static let staffMayActFor = true
    public static let summary =
        "Move a requested or confirmed booking to a new future slot (its owner or staff); it then needs confirming again."

    public var bookingId: String
    public var slot: Timestamp

    public init(bookingId: String, slot: Timestamp) {
        self.bookingId = bookingId
        self.slot = slot
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        slot = try r.timestamp("slot")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.timestamp("slot", slot)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let (booking, schedule, oldDays) = try await BookingTime.loadBooking(bookingId, &loader)
        let salon = try await loader.load(SalonState.self, Streams.salon)
        var days = oldDays
        if booking.exists {
            for (day, state) in try await BookingTime.loadDays(from: slot, minutes: booking.durationMinutes, &loader) { days[day] = state }
        }
        return try decide(context, booking: booking, schedule: schedule, salon: salon, days: days)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - salon: The groomers on duty.
    ///   - days: The salon days the booking holds now and those its new time covers.
    /// - Returns: `BookingRescheduled`; on the pet's schedule `PetSlotReleased` (old time) and `PetSlotHeld` (new
    ///   time); on the salon days `SalonSlotsReleased` and `SalonSlotsHeld`; nothing when the booking is in that slot
    ///   already.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a slot off the grid or not in the future,
    ///   ``DomainError/notFound(_:)``, ``DomainError/forbidden(_:)`` unless owner or staff,
    ///   ``DomainError/invalidState(_:)`` unless requested or confirmed, ``DomainError/rejected(_:)`` when another
    ///   booking of the pet overlaps the new time or a slot has no groomer left.
    public func decide(
        _ context: DecisionContext, booking: BookingState, schedule: PetScheduleState, salon: SalonState, days: [String: SalonDayState]
    ) throws(DomainError) -> Decision {
        try BookingSlot.check(slot, now: context.now)
        try booking.checkExists(bookingId)
        try booking.checkOwnerOrStaff(bookingId, actor: context.principal)
        try booking.checkStatus(bookingId, in: [.requested, .confirmed], toBe: "rescheduled")
        guard slot != booking.slot else { return .nothing }
        let until = Timestamp(microsecondsSinceEpoch: slot.microsecondsSinceEpoch + booking.durationMinutes * 60_000_000)
        try schedule.checkFree(slot, until: until, petId: booking.petId, for: bookingId)
        // The booking's own groomers do not count against its new time: they move with it.
        let released = BookingTime.release(bookingId, days: days)
        var after = days
        for (day, event) in released { after[day] = SalonDayState.evolve(after[day]!, event) }
        let holds = try BookingTime.hold(
            bookingId, from: slot, minutes: booking.durationMinutes, groomers: booking.groomers, capacity: salon.capacity, days: after)
        var scheduleEvents: [any DomainEvent] = []
        if let old = schedule.holds[bookingId] {
            scheduleEvents.append(PetSlotReleased(petId: booking.petId, bookingId: bookingId, slot: old.slot))
        }
        scheduleEvents.append(PetSlotHeld(petId: booking.petId, bookingId: bookingId, slot: slot, until: until))
        let salonEvents = released.map { ($0.day, $0.event as any DomainEvent) } + holds.map { ($0.day, $0.event as any DomainEvent) }
        return Decision(
            [
                StreamWrite(
                    Streams.booking(bookingId),
                    [BookingRescheduled(bookingId: bookingId, previousSlot: booking.slot, slot: slot, rescheduledBy: context.actor.userID)]),
                StreamWrite(Streams.petSchedule(booking.petId), scheduleEvents),
            ] + BookingTime.writes(salonEvents))
    }
}
