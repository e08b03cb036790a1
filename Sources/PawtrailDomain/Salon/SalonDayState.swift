public import EventLog
public import Events

/// The groomers one UTC day's slots hold for bookings (stream `salonday-<YYYY-MM-DD>`). Every command that books,
/// moves or ends a booking writes the days it covers in the same append as the booking, at the versions it read:
/// two requests for the last groomer of a slot then expect the same version, and only one append succeeds.
public struct SalonDayState: Aggregate, Equatable {
    /// The holds, by booking.
    public var holds: [String: SalonSlotsHeld] = [:]

    public init() {}

    public static let snapshotKind = "salon-day"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        for hold in try r.records("holds", SalonSlotsHeld.self) { holds[hold.bookingId] = hold }
    }

    public func write(to w: inout some FieldWriter) {
        w.records("holds", holds.values.sorted { $0.bookingId < $1.bookingId })
    }

    public static func evolve(_ state: SalonDayState, _ event: any DomainEvent) -> SalonDayState {
        var s = state
        switch event {
        case let e as SalonSlotsHeld: s.holds[e.bookingId] = e
        case let e as SalonSlotsReleased: s.holds[e.bookingId] = nil
        default: break
        }
        return s
    }

    /// Groomers held in the slot starting at `slot`, by every booking but `except`.
    public func groomers(at slot: Timestamp, except: String? = nil) -> Int64 {
        holds.values.reduce(0) { sum, h in
            guard h.bookingId != except else { return sum }
            let offset = slot.microsecondsSinceEpoch - h.from.microsecondsSinceEpoch
            let covers = offset >= 0 && offset < h.slots * SalonTime.slotMicroseconds
            return covers ? sum + h.groomers : sum
        }
    }
}

/// How a booking's time falls on the salon's 30-minute slots and UTC days.
public enum SalonTime {
    public static let slotMicroseconds: Int64 = BookingSlot.minutes * 60_000_000
    static let dayMicroseconds: Int64 = 86_400_000_000

    /// The slots from `slot` for `durationMinutes`, grouped by UTC day, days in order.
    public static func days(from slot: Timestamp, durationMinutes: Int64) -> [(day: String, from: Timestamp, slots: Int64)] {
        let count = max(1, (durationMinutes + BookingSlot.minutes - 1) / BookingSlot.minutes)
        var out: [(day: String, from: Timestamp, slots: Int64)] = []
        for k in 0..<count {
            let t = Timestamp(microsecondsSinceEpoch: slot.microsecondsSinceEpoch + k * slotMicroseconds)
            let day = String(t.iso8601.prefix(10))
            if let last = out.last, last.day == day {
                out[out.count - 1].slots += 1
            } else {
                out.append((day, t, 1))
            }
        }
        return out
    }

    /// Every slot start from `slot` for `durationMinutes`.
    public static func slots(from slot: Timestamp, durationMinutes: Int64) -> [Timestamp] {
        days(from: slot, durationMinutes: durationMinutes).flatMap { d in
            (0..<d.slots).map { Timestamp(microsecondsSinceEpoch: d.from.microsecondsSinceEpoch + $0 * slotMicroseconds) }
        }
    }
}
