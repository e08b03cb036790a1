public import EventLog
public import Events

/// The time a pet's active (requested or confirmed) bookings hold (stream `petschedule-<petId>`): each booking's
/// slot until it ends.
///
/// Every command that takes or gives back a pet's time loads this stream and writes it in the same atomic append as
/// the booking: two concurrent requests for the same pet then expect the same version, and only one append
/// succeeds; the other re-decides and sees the time taken. That is what keeps one pet out of two bookings at once.
public struct PetScheduleState: Aggregate, Equatable {
    /// The time each active booking holds, by booking.
    public var holds: [String: PetSlotHeld] = [:]

    public init() {}

    public static let snapshotKind = "pet-schedule"
    public static let schemaVersion = 2

    public init(reading r: inout some FieldReader) throws(FieldError) {
        for hold in try r.records("holds", PetSlotHeld.self) { holds[hold.bookingId] = hold }
    }

    public func write(to w: inout some FieldWriter) {
        w.records("holds", holds.values.sorted { ($0.slot, $0.bookingId) < ($1.slot, $1.bookingId) })
    }

    /// Whether a booking holds time, and from which slot.
    public func holds(_ bookingId: String) -> Bool { holds[bookingId] != nil }

    /// The active bookings, by slot.
    public var bookings: [(slot: Timestamp, bookingId: String)] {
        holds.values.sorted { ($0.slot, $0.bookingId) < ($1.slot, $1.bookingId) }.map { (slot: $0.slot, bookingId: $0.bookingId) }
    }

    public static func evolve(_ state: PetScheduleState, _ event: any DomainEvent) -> PetScheduleState {
        var s = state
        switch event {
        case let e as PetSlotHeld:
            s.holds[e.bookingId] = e
        case let e as PetSlotReleased:
            if s.holds[e.bookingId]?.slot == e.slot { s.holds[e.bookingId] = nil }
        default:
            break
        }
        return s
    }

    /// Checks that the time from `slot` to `until` is free for a booking (its own hold aside).
    ///
    /// - Throws: ``DomainError/rejected(_:)`` naming the booking that overlaps it.
    public func checkFree(_ slot: Timestamp, until: Timestamp, petId: String, for bookingId: String) throws(DomainError) {
        for hold in holds.values.sorted(by: { $0.slot < $1.slot }) where hold.bookingId != bookingId {
            if hold.slot < until && slot < hold.until {
                throw .rejected("pet '\(petId)' already has booking '\(hold.bookingId)' from \(hold.slot.iso8601) to \(hold.until.iso8601)")
            }
        }
    }
}
