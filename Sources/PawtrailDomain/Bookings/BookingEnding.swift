import EventLog
public import Events

/// `booking.complete`: staff complete a confirmed booking once its slot has started; its time is released.
public struct CompleteBooking: DomainCommand, Hashable {
    public static let name = "booking.complete"
    public static let summary = "Complete a confirmed booking once its slot has started (staff)."

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
        let (booking, schedule, days) = try await BookingTime.loadBooking(bookingId, &loader)
        return try decide(context, booking: booking, schedule: schedule, days: days)
    }

    /// The pure decision.
    ///
    /// - Returns: `BookingCompleted`, and the releases of the pet's and the salon's time.
    /// - Throws: ``DomainError/forbidden(_:)`` for non-staff, ``DomainError/notFound(_:)``,
    ///   ``DomainError/invalidState(_:)`` unless confirmed, ``DomainError/rejected(_:)`` before the slot starts.
    public func decide(_ context: DecisionContext, booking: BookingState, schedule: PetScheduleState, days: [String: SalonDayState])
        throws(DomainError) -> Decision
    {
        guard context.actor.isStaff else { throw .forbidden("only staff complete bookings; \(context.actor) is not staff") }
        try booking.checkExists(bookingId)
        try booking.checkStatus(bookingId, in: [.confirmed], toBe: "completed")
        try checkStarted(bookingId, booking, now: context.now, "completed")
        return Decision(
            [StreamWrite(Streams.booking(bookingId), [BookingCompleted(bookingId: bookingId, completedBy: context.actor.userID)])]
                + BookingTime.releaseAll(bookingId, booking, schedule, days))
    }
}

/// `booking.no-show`: staff record that the pet did not come to a booking whose slot has started; its time is
/// released and it earns nothing.
public struct RecordNoShow: DomainCommand, Hashable {
    public static let name = "booking.no-show"
    public static let summary = "Record that the pet did not come to a booking whose slot has started (staff)."

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
        let (booking, schedule, days) = try await BookingTime.loadBooking(bookingId, &loader)
        return try decide(context, booking: booking, schedule: schedule, days: days)
    }

    /// The pure decision; a no-show recorded already stays as it is (a re-send).
    ///
    /// - Returns: `BookingNoShow`, and the releases of the pet's and the salon's time.
    /// - Throws: ``DomainError/forbidden(_:)`` for non-staff, ``DomainError/notFound(_:)``,
    ///   ``DomainError/invalidState(_:)`` unless requested or confirmed, ``DomainError/rejected(_:)`` before the slot
    ///   starts.
    public func decide(_ context: DecisionContext, booking: BookingState, schedule: PetScheduleState, days: [String: SalonDayState])
        throws(DomainError) -> Decision
    {
        guard context.actor.isStaff else { throw .forbidden("only staff record no-shows; \(context.actor) is not staff") }
        try booking.checkExists(bookingId)
        if booking.status == .noShow { return .nothing }
        try booking.checkStatus(bookingId, in: [.requested, .confirmed], toBe: "marked a no-show")
        try checkStarted(bookingId, booking, now: context.now, "marked a no-show")
        return Decision(
            [StreamWrite(Streams.booking(bookingId), [BookingNoShow(bookingId: bookingId, recordedBy: context.actor.userID)])]
                + BookingTime.releaseAll(bookingId, booking, schedule, days))
    }
}

/// Checks that a booking's slot has started by the command's clock.
private func checkStarted(_ bookingId: String, _ booking: BookingState, now: Timestamp, _ verb: String) throws(DomainError) {
    guard now >= booking.slot else {
        throw .rejected("booking '\(bookingId)' starts at \(booking.slot.iso8601); it can be \(verb) once its slot has started")
    }
}

/// `booking.cancel`: the owner or staff cancel a requested or confirmed booking; its time is released.
public struct CancelBooking: DomainCommand, Hashable {
    public static let name = "booking.cancel"
    public static let staffMayActFor = true
    public static let summary = "Cancel a requested or confirmed booking (its owner or staff), with an optional reason."

    public var bookingId: String
    public var reason: String?

    public init(bookingId: String, reason: String? = nil) {
        self.bookingId = bookingId
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        bookingId = try r.string("bookingId")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("bookingId", bookingId)
        w.optionalString("reason", reason)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let (booking, schedule, days) = try await BookingTime.loadBooking(bookingId, &loader)
        return try decide(context, booking: booking, schedule: schedule, days: days)
    }

    /// The pure decision.
    ///
    /// - Returns: `BookingCancelled`, and the releases of the pet's and the salon's time.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a bad reason, ``DomainError/notFound(_:)``,
    ///   ``DomainError/forbidden(_:)`` unless owner or staff, ``DomainError/invalidState(_:)`` unless requested or
    ///   confirmed.
    public func decide(_ context: DecisionContext, booking: BookingState, schedule: PetScheduleState, days: [String: SalonDayState])
        throws(DomainError) -> Decision
    {
        let cleanReason = try reason.map { (r) throws(DomainError) in try Validate.text(r, field: "reason", max: 500) }
        try booking.checkExists(bookingId)
        try booking.checkOwnerOrStaff(bookingId, actor: context.principal)
        try booking.checkStatus(bookingId, in: [.requested, .confirmed], toBe: "cancelled")
        return Decision(
            [
                StreamWrite(
                    Streams.booking(bookingId),
                    [BookingCancelled(bookingId: bookingId, cancelledBy: context.actor.userID, reason: cleanReason)])
            ] + BookingTime.releaseAll(bookingId, booking, schedule, days))
    }
}
