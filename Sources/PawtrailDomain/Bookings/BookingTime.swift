import EventLog
import Events

/// How booking commands take and give back time: the pet's (its schedule stream) and the salon's groomers (the day
/// streams the booking covers). Both are written in the same append as the booking, at the versions read.
enum BookingTime {
    /// The salon days a booking's time covers, loaded.
    static func loadDays(from slot: Timestamp, minutes: Int64, _ loader: inout StreamLoader) async throws -> [String: SalonDayState] {
        var days: [String: SalonDayState] = [:]
        for d in SalonTime.days(from: slot, durationMinutes: minutes) {
            days[d.day] = try await loader.load(SalonDayState.self, Streams.salonDay(d.day))
        }
        return days
    }

    /// Holds the salon's groomers for a booking on every slot it covers, after checking each has room.
    ///
    /// - Parameters:
    ///   - days: The day states of the days covered (see ``loadDays(from:minutes:_:)``), with any release of the same
    ///     booking already applied.
    /// - Returns: The hold of each day.
    /// - Throws: ``DomainError/rejected(_:)`` naming the first slot without room.
    static func hold(
        _ bookingId: String, from slot: Timestamp, minutes: Int64, groomers: Int64, capacity: Int64, days: [String: SalonDayState]
    ) throws(DomainError) -> [(day: String, event: SalonSlotsHeld)] {
        var out: [(day: String, event: SalonSlotsHeld)] = []
        for d in SalonTime.days(from: slot, durationMinutes: minutes) {
            let state = days[d.day] ?? SalonDayState()
            for k in 0..<d.slots {
                let t = Timestamp(microsecondsSinceEpoch: d.from.microsecondsSinceEpoch + k * SalonTime.slotMicroseconds)
                let used = state.groomers(at: t, except: bookingId)
                guard used + groomers <= capacity else {
                    throw .rejected(
                        "the salon is full at \(t.iso8601): \(used) of its \(capacity) groomers are booked, and this service needs \(groomers)")
                }
            }
            out.append((d.day, SalonSlotsHeld(bookingId: bookingId, from: d.from, slots: d.slots, groomers: groomers)))
        }
        return out
    }

    /// The releases of a booking's groomers: one per day that holds them.
    static func release(_ bookingId: String, days: [String: SalonDayState]) -> [(day: String, event: SalonSlotsReleased)] {
        days.keys.sorted().compactMap { day in days[day]!.holds[bookingId] == nil ? nil : (day, SalonSlotsReleased(bookingId: bookingId)) }
    }

    /// One write per salon day, its events in the order given (a move may release and hold on one day).
    static func writes(_ events: [(day: String, event: any DomainEvent)]) -> [StreamWrite] {
        var order: [String] = []
        var byDay: [String: [any DomainEvent]] = [:]
        for (day, event) in events {
            if byDay[day] == nil { order.append(day) }
            byDay[day, default: []].append(event)
        }
        return order.sorted().map { StreamWrite(Streams.salonDay($0), byDay[$0]!) }
    }

    /// Loads a booking, and when it exists its pet's schedule and the salon days it holds: the commands that give
    /// back a booking's time write them all.
    static func loadBooking(_ bookingId: String, _ loader: inout StreamLoader) async throws
        -> (BookingState, PetScheduleState, [String: SalonDayState])
    {
        try Validate.id(bookingId, field: "bookingId")
        let booking = try await loader.load(BookingState.self, Streams.booking(bookingId))
        guard booking.exists else { return (booking, PetScheduleState(), [:]) }
        let schedule = try await loader.load(PetScheduleState.self, Streams.petSchedule(booking.petId))
        let days = try await loadDays(from: booking.slot, minutes: booking.durationMinutes, &loader)
        return (booking, schedule, days)
    }

    /// The writes that give back all of a booking's time: its pet's and the salon's.
    static func releaseAll(_ bookingId: String, _ booking: BookingState, _ schedule: PetScheduleState, _ days: [String: SalonDayState])
        -> [StreamWrite]
    {
        var writes: [StreamWrite] = []
        if let hold = schedule.holds[bookingId] {
            writes.append(
                StreamWrite(Streams.petSchedule(booking.petId), [PetSlotReleased(petId: booking.petId, bookingId: bookingId, slot: hold.slot)]))
        }
        return writes + BookingTime.writes(release(bookingId, days: days).map { ($0.day, $0.event as any DomainEvent) })
    }
}
