public import EventLog
public import Events

/// The slots a pet's active (requested or confirmed) bookings hold (stream `petschedule-<petId>`).
///
/// Every command that takes or gives back a slot loads this stream and writes it in the same atomic append as the
/// booking: two concurrent requests for the same pet then expect the same version, and only one append succeeds;
/// the other re-decides and sees the slot taken. That is what keeps one pet from holding a slot twice.
public struct PetScheduleState: Aggregate, Equatable {
    /// The booking holding each slot.
    public var held: [Timestamp: String] = [:]

    public init() {}

    public static let snapshotKind = "pet-schedule"
    public static let schemaVersion = 1

    /// One held slot, as a record.
    private struct Hold: FieldCodable {
        var slot: Timestamp
        var bookingId: String

        init(slot: Timestamp, bookingId: String) {
            self.slot = slot
            self.bookingId = bookingId
        }

        init(reading r: inout some FieldReader) throws(FieldError) {
            slot = try r.timestamp("slot")
            bookingId = try r.string("bookingId")
        }

        func write(to w: inout some FieldWriter) {
            w.timestamp("slot", slot)
            w.string("bookingId", bookingId)
        }
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        for hold in try r.records("held", Hold.self) { held[hold.slot] = hold.bookingId }
    }

    public func write(to w: inout some FieldWriter) {
        w.records("held", bookings.map { Hold(slot: $0.slot, bookingId: $0.bookingId) })
    }

    /// The booking holding a slot, if any.
    public func holder(of slot: Timestamp) -> String? { held[slot] }

    /// The active bookings, by slot.
    public var bookings: [(slot: Timestamp, bookingId: String)] {
        held.sorted { $0.key < $1.key }.map { (slot: $0.key, bookingId: $0.value) }
    }

    public static func evolve(_ state: PetScheduleState, _ event: any DomainEvent) -> PetScheduleState {
        var s = state
        switch event {
        case let e as PetSlotHeld:
            s.held[e.slot] = e.bookingId
        case let e as PetSlotReleased:
            if s.held[e.slot] == e.bookingId { s.held[e.slot] = nil }
        default:
            break
        }
        return s
    }

    /// Checks that a slot is free for a booking (or held by that very booking).
    ///
    /// - Throws: ``DomainError/rejected(_:)`` naming the booking that holds it.
    public func checkFree(_ slot: Timestamp, petId: String, for bookingId: String) throws(DomainError) {
        if let other = held[slot], other != bookingId {
            throw .rejected("pet '\(petId)' already has booking '\(other)' at \(slot.iso8601)")
        }
    }
}
