import EventLog
import EventLogMemory
import Events
import PawtrailDomain
import Testing

@Suite("Grooming bookings")
struct BookingTests {
    typealias W = PetWorld
    static let slot = t("2026-12-05T10:00:00Z")
    static let otherSlot = t("2026-12-06T14:30:00Z")
    static let schedule = stream("petschedule-rex")
    static let booking = stream("booking-b-1")

    /// The default terms of a service (the salon's, as no admin changed them in these tests).
    static func terms(_ service: GroomingService) -> GroomingServiceSet { SalonState.defaults.first { $0.service == service }! }

    /// A request as `booking.request` appends it, with the service's default terms.
    static func requested(_ id: String, _ service: GroomingService, _ slot: Timestamp, pet: String = "rex") -> BookingRequested {
        let t = terms(service)
        return BookingRequested(
            bookingId: id, petId: pet, ownerId: W.owner, service: service, slot: slot, durationMinutes: t.durationMinutes, groomers: t.groomers,
            price: t.price)
    }

    /// The salon days' holds of a booking.
    static func salon(_ id: String, _ service: GroomingService, _ slot: Timestamp) -> [(StreamID, any DomainEvent)] {
        SalonTime.days(from: slot, durationMinutes: terms(service).durationMinutes).map {
            (Streams.salonDay($0.day), SalonSlotsHeld(bookingId: id, from: $0.from, slots: $0.slots, groomers: terms(service).groomers))
        }
    }

    /// Everything `booking.request` appends for a new booking.
    static func request(_ id: String, _ service: GroomingService, _ slot: Timestamp, pet: String = "rex") -> [(StreamID, any DomainEvent)] {
        let r = requested(id, service, slot, pet: pet)
        return [(Streams.booking(id), r), (Streams.petSchedule(pet), PetSlotHeld(petId: pet, bookingId: id, slot: slot, until: r.end))]
            + salon(id, service, slot)
    }

    /// What giving back b-1's time appends: the pet's slot and the salon day's groomers.
    /// What moving b-1 to ``otherSlot`` appends besides `BookingRescheduled`: the pet's time and the salon's, given
    /// back on the old day and held on the new.
    static let moved: [(StreamID, any DomainEvent)] = [
        (schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: slot)),
        (schedule, PetSlotHeld(petId: "rex", bookingId: "b-1", slot: otherSlot, until: t("2026-12-06T16:30:00Z"))),
        (stream("salonday-2026-12-05"), SalonSlotsReleased(bookingId: "b-1")),
        (stream("salonday-2026-12-06"), SalonSlotsHeld(bookingId: "b-1", from: otherSlot, slots: 4, groomers: 2)),
    ]

    static let released: [(StreamID, any DomainEvent)] = [
        (schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: slot)),
        (stream("salonday-2026-12-05"), SalonSlotsReleased(bookingId: "b-1")),
    ]

    /// Rex with booking `b-1` (a full groom, two hours, two groomers) at ``slot`` in the given status, its time held
    /// while it is active.
    static func withBooking(_ status: BookingStatus) async throws -> DomainScenario {
        let s = try await W.scenario()
        var events: [any DomainEvent] = []
        let confirmed = BookingConfirmed(bookingId: "b-1", slot: slot, reminderDueAt: t("2026-12-04T10:00:00Z"), confirmedBy: W.staff)
        switch status {
        case .requested: break
        case .confirmed: events.append(confirmed)
        case .completed: events += [confirmed, BookingCompleted(bookingId: "b-1", completedBy: W.staff)]
        case .noShow: events += [confirmed, BookingNoShow(bookingId: "b-1", recordedBy: W.staff)]
        case .cancelled: events.append(BookingCancelled(bookingId: "b-1", cancelledBy: W.owner))
        }
        for (stream, event) in request("b-1", .fullGroom, slot) { try await s.given(stream, event) }
        for e in events { try await s.given(booking, e) }
        if status != .requested && status != .confirmed {
            for (stream, event) in released { try await s.given(stream, event) }
        }
        return s
    }

    // MARK: booking.request

    @Test func requestingABookingHoldsTheSlot() async throws {
        let s = try await W.scenario()
        let id = W.commandID(21)
        let bookingId = W.generated("b", id)
        let command = RequestBooking(petId: "rex", service: .nailTrim, slot: Self.slot)
        try await s.then(
            W.owner, command, id: id, appends: Self.request(bookingId, .nailTrim, Self.slot))
        // The same command again (same command id) is a re-send: nothing more, and no slot clash with itself.
        try await s.then(W.owner, command, id: id, appends: [])
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), id: id,
            throws: .invalid(field: "commandId", reason: "command id \(id.uuidString.lowercased()) was used by booking.request with other fields already; a command id names one command"))
    }

    @Test func aRequestMayNameItsBooking() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot, bookingId: "b-spa"),
            appends: Self.request("b-spa", .bath, Self.slot))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.otherSlot, bookingId: "b-spa"),
            throws: .alreadyExists("booking 'b-spa' exists already"))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.otherSlot, bookingId: "b spa"),
            throws: .invalid(field: "bookingId", reason: "'b spa' may hold only letters, digits and - _ . : @"))
    }

    @Test func aSlotMustBeOnTheGridAndInTheFuture() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: DomainScenario.now),
            throws: .invalid(field: "slot", reason: "2026-12-01T09:00:00.000000Z is not in the future of the command's clock (2026-12-01T09:00:00.000000Z)"))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: t("2026-11-30T10:00:00Z")),
            throws: .invalid(field: "slot", reason: "2026-11-30T10:00:00.000000Z is not in the future of the command's clock (2026-12-01T09:00:00.000000Z)"))
        for offGrid in ["2026-12-05T10:15:00Z", "2026-12-05T10:00:01Z", "2026-12-05T10:00:00.5Z"] {
            try await s.then(
                W.owner, RequestBooking(petId: "rex", service: .bath, slot: t(offGrid)),
                throws: .invalid(field: "slot", reason: "\(t(offGrid).iso8601) does not start a slot; slots start on the hour or half past (UTC)"))
        }
        // The first slot after the clock is accepted.
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: t("2026-12-01T09:30:00Z")), id: W.commandID(1),
            appends: Self.request(W.generated("b", W.commandID(1)), .bath, t("2026-12-01T09:30:00Z")))
    }

    static let b1Overlap = DomainError.rejected("pet 'rex' already has booking 'b-1' from 2026-12-05T10:00:00.000000Z to 2026-12-05T12:00:00.000000Z")

    @Test func onePetCannotBeInTwoBookingsAtOnce() async throws {
        let s = try await Self.withBooking(.requested)
        try await s.then(W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.slot), throws: Self.b1Overlap)
        // b-1 is a two-hour full groom: its last half hour is taken too, and a booking ending as it starts is not.
        try await s.then(W.owner, RequestBooking(petId: "rex", service: .nailTrim, slot: t("2026-12-05T11:30:00Z")), throws: Self.b1Overlap)
        try await s.then(W.owner, RequestBooking(petId: "rex", service: .bath, slot: t("2026-12-05T09:30:00Z")), throws: Self.b1Overlap)
        #expect(try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: t("2026-12-05T09:00:00Z"))).count == 3)
        #expect(try await s.when(W.owner, RequestBooking(petId: "rex", service: .nailTrim, slot: t("2026-12-05T12:00:00Z"))).count == 3)
        // Confirmed bookings hold their time too.
        let c = try await Self.withBooking(.confirmed)
        try await c.then(W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.slot), throws: Self.b1Overlap)
        // Another pet may have the same slot.
        try await c.given(Streams.pet("mimi"), PetAdded(petId: "mimi", ownerId: W.owner, name: "Mimi", species: .cat))
        let appended = try await c.when(W.owner, RequestBooking(petId: "mimi", service: .bath, slot: Self.slot))
        #expect(appended.count == 3)
    }

    @Test(arguments: [BookingStatus.cancelled, .completed, .noShow])
    func aSlotIsFreeAgainOnceItsBookingEnds(_ status: BookingStatus) async throws {
        let s = try await Self.withBooking(status)
        let id = W.commandID(22)
        let bookingId = W.generated("b", id)
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.slot), id: id, appends: Self.request(bookingId, .haircut, Self.slot))
    }

    @Test func reRequestingAfterACancelThroughTheCommands() async throws {
        let s = try await W.scenario()
        let first = W.generated("b", W.commandID(1))
        _ = try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), id: W.commandID(1))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), id: W.commandID(2),
            throws: .rejected("pet 'rex' already has booking '\(first)' from 2026-12-05T10:00:00.000000Z to 2026-12-05T11:00:00.000000Z"))
        _ = try await s.when(W.owner, CancelBooking(bookingId: first))
        let second = W.generated("b", W.commandID(2))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), id: W.commandID(2), appends: Self.request(second, .bath, Self.slot))
    }

    @Test(arguments: W.wrongActors)
    func onlyThePetsOwnerRequests(_ actor: String) async throws {
        try await W.scenario().then(actor, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), throws: W.notOwnerError(actor, RequestBooking.self))
    }

    @Test func thePetMustExistAndBeLive() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, RequestBooking(petId: "ghost", service: .bath, slot: Self.slot), throws: .notFound("pet 'ghost' does not exist"))
        try await s.given(Streams.pet("rex"), PetRemoved(petId: "rex"))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot),
            throws: .invalidState("pet 'rex' was removed and accepts no further commands"))
    }

    // MARK: booking.confirm

    @Test(arguments: [W.staff, W.admin])
    func staffConfirmWithTheReminderADayAhead(_ actor: String) async throws {
        let s = try await Self.withBooking(.requested)
        try await s.then(
            actor, ConfirmBooking(bookingId: "b-1"),
            appends: [(Self.booking, BookingConfirmed(bookingId: "b-1", slot: Self.slot, reminderDueAt: t("2026-12-04T10:00:00Z"), confirmedBy: actor))])
    }

    @Test func aSlotThatHasPassedCannotBeConfirmed() async throws {
        let s = try await Self.withBooking(.requested)
        try await s.then(
            W.staff, ConfirmBooking(bookingId: "b-1"), now: Self.slot,
            throws: .rejected("the slot of booking 'b-1' (2026-12-05T10:00:00.000000Z) has passed; reschedule or cancel it"))
    }

    @Test(arguments: [W.owner, W.otherCustomer, W.guest, W.noAccount])
    func onlyStaffConfirmAndComplete(_ actor: String) async throws {
        let s = try await Self.withBooking(.confirmed)
        let (confirmError, completeError): (DomainError, DomainError) =
            switch actor {
            case W.guest: (.forbidden("guests cannot booking.confirm; sign up or log in first"), .forbidden("guests cannot booking.complete; sign up or log in first"))
            case W.noAccount: (.forbidden("user 'u-nobody' has no account"), .forbidden("user 'u-nobody' has no account"))
            default:
                (.forbidden("only staff confirm bookings; customer '\(actor)' is not staff"), .forbidden("only staff complete bookings; customer '\(actor)' is not staff"))
            }
        try await s.then(actor, ConfirmBooking(bookingId: "b-1"), throws: confirmError)
        try await s.then(actor, CompleteBooking(bookingId: "b-1"), now: Self.slot, throws: completeError)
    }

    // MARK: booking.complete

    @Test func completingOnceTheSlotHasStartedReleasesItsTime() async throws {
        let s = try await Self.withBooking(.confirmed)
        try await s.then(
            W.admin, CompleteBooking(bookingId: "b-1"), now: t("2026-12-05T09:59:59Z"),
            throws: .rejected("booking 'b-1' starts at 2026-12-05T10:00:00.000000Z; it can be completed once its slot has started"))
        try await s.then(
            W.admin, CompleteBooking(bookingId: "b-1"), now: Self.slot,
            appends: [(Self.booking, BookingCompleted(bookingId: "b-1", completedBy: W.admin))] + Self.released)
    }

    // MARK: booking.no-show

    @Test func aNoShowOnceTheSlotHasStartedReleasesItsTime() async throws {
        let s = try await Self.withBooking(.confirmed)
        try await s.then(
            W.staff, RecordNoShow(bookingId: "b-1"), now: DomainScenario.now,
            throws: .rejected("booking 'b-1' starts at 2026-12-05T10:00:00.000000Z; it can be marked a no-show once its slot has started"))
        try await s.then(W.owner, RecordNoShow(bookingId: "b-1"), now: Self.slot, throws: .forbidden("only staff record no-shows; customer '\(W.owner)' is not staff"))
        try await s.then(
            W.staff, RecordNoShow(bookingId: "b-1"), now: t("2026-12-05T10:30:00Z"),
            appends: [(Self.booking, BookingNoShow(bookingId: "b-1", recordedBy: W.staff))] + Self.released)
        try await s.then(W.staff, RecordNoShow(bookingId: "b-1"), now: t("2026-12-05T10:31:00Z"), appends: [])
        try await s.then(
            W.staff, CompleteBooking(bookingId: "b-1"), now: t("2026-12-05T10:31:00Z"),
            throws: .invalidState("booking 'b-1' is no-show; only a confirmed booking can be completed"))
    }

    // MARK: booking.cancel

    @Test(arguments: [W.owner, W.staff, W.admin])
    func theOwnerOrStaffCancel(_ actor: String) async throws {
        let s = try await Self.withBooking(.confirmed)
        try await s.then(
            actor, CancelBooking(bookingId: "b-1", reason: " Travelling "),
            appends: [(Self.booking, BookingCancelled(bookingId: "b-1", cancelledBy: actor, reason: "Travelling"))] + Self.released)
    }

    @Test func cancelRules() async throws {
        let s = try await Self.withBooking(.requested)
        try await s.then(W.owner, CancelBooking(bookingId: "b-1", reason: " "), throws: .invalid(field: "reason", reason: "must not be empty"))
        try await s.then(W.owner, CancelBooking(bookingId: "b-9"), throws: .notFound("booking 'b-9' does not exist"))
    }

    // MARK: booking.reschedule

    @Test func reschedulingARequestedBookingMovesItsSlot() async throws {
        let s = try await Self.withBooking(.requested)
        try await s.then(
            W.owner, RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot),
            appends: [
                (Self.booking, BookingRescheduled(bookingId: "b-1", previousSlot: Self.slot, slot: Self.otherSlot, rescheduledBy: W.owner)),
            ] + Self.moved)
        // The old slot is free again.
        let appended = try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot))
        #expect(appended.count == 3)
    }

    @Test func aRescheduledConfirmedBookingNeedsConfirmingAgain() async throws {
        let s = try await Self.withBooking(.confirmed)
        try await s.then(
            W.staff, RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot),
            appends: [
                (Self.booking, BookingRescheduled(bookingId: "b-1", previousSlot: Self.slot, slot: Self.otherSlot, rescheduledBy: W.staff)),
            ] + Self.moved)
        try await s.then(
            W.staff, CompleteBooking(bookingId: "b-1"), now: Self.otherSlot,
            throws: .invalidState("booking 'b-1' is requested; only a confirmed booking can be completed"))
        try await s.then(
            W.staff, ConfirmBooking(bookingId: "b-1"),
            appends: [(Self.booking, BookingConfirmed(bookingId: "b-1", slot: Self.otherSlot, reminderDueAt: t("2026-12-05T14:30:00Z"), confirmedBy: W.staff))])
    }

    @Test func rescheduleRules() async throws {
        let s = try await Self.withBooking(.confirmed)
        // The slot it has already: a re-send, nothing changes (it stays confirmed).
        try await s.then(W.owner, RescheduleBooking(bookingId: "b-1", slot: Self.slot), appends: [])
        try await s.then(
            W.owner, RescheduleBooking(bookingId: "b-1", slot: DomainScenario.now),
            throws: .invalid(field: "slot", reason: "2026-12-01T09:00:00.000000Z is not in the future of the command's clock (2026-12-01T09:00:00.000000Z)"))
        try await s.then(
            W.owner, RescheduleBooking(bookingId: "b-1", slot: t("2026-12-06T14:45:00Z")),
            throws: .invalid(field: "slot", reason: "2026-12-06T14:45:00.000000Z does not start a slot; slots start on the hour or half past (UTC)"))
        try await s.then(W.owner, RescheduleBooking(bookingId: "b-9", slot: Self.otherSlot), throws: .notFound("booking 'b-9' does not exist"))
        // Another booking of the pet holds the new slot.
        for (stream, event) in Self.request("b-2", .bath, Self.otherSlot) { try await s.given(stream, event) }
        try await s.then(
            W.owner, RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot),
            throws: .rejected("pet 'rex' already has booking 'b-2' from 2026-12-06T14:30:00.000000Z to 2026-12-06T15:30:00.000000Z"))
        // A move by half an hour overlaps its own old time, which moves with it.
        #expect(try await s.when(W.owner, RescheduleBooking(bookingId: "b-1", slot: t("2026-12-05T10:30:00Z"))).count == 5)
    }

    @Test(arguments: [W.otherCustomer, W.guest, W.noAccount])
    func strangersNeitherCancelNorReschedule(_ actor: String) async throws {
        let s = try await Self.withBooking(.requested)
        func error(_ name: String) -> DomainError {
            switch actor {
            case W.guest: .forbidden("guests cannot \(name); sign up or log in first")
            case W.noAccount: .forbidden("user 'u-nobody' has no account")
            default: .forbidden("booking 'b-1' belongs to another owner; customer '\(actor)' may not act on it")
            }
        }
        try await s.then(actor, CancelBooking(bookingId: "b-1"), throws: error("booking.cancel"))
        try await s.then(actor, RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot), throws: error("booking.reschedule"))
    }

    // MARK: messaging reads the owner

    @Test func theOwnerAndStaffMayDiscussABookingOthersMayNot() async throws {
        let s = try await Self.withBooking(.requested)
        try await s.then(
            W.owner, StartConversation(subject: .booking, subjectId: "b-1", conversationId: "c-1"),
            appends: [(stream("conversation-c-1"), ConversationStarted(conversationId: "c-1", subject: .booking, subjectId: "b-1", ownerId: W.owner, startedBy: W.owner))])
        try await s.then(
            W.otherCustomer, StartConversation(subject: .booking, subjectId: "b-1", conversationId: "c-2"),
            throws: .forbidden("booking 'b-1' belongs to another customer; customer 'u-bob' may not discuss it"))
    }

    // MARK: the lifecycle: every status x every transition

    enum Transition: String, CaseIterable, Sendable {
        case confirm, complete, cancel, reschedule, noShow
    }

    @Test(arguments: BookingStatus.allCases, Transition.allCases)
    func lifecycle(_ status: BookingStatus, _ transition: Transition) async throws {
        let s = try await Self.withBooking(status)
        let released = Self.released
        let allowed: [BookingStatus]
        let verb: String
        let accepted: [(StreamID, any DomainEvent)]
        switch transition {
        case .confirm:
            allowed = [.requested]
            verb = "confirmed"
            accepted = [(Self.booking, BookingConfirmed(bookingId: "b-1", slot: Self.slot, reminderDueAt: t("2026-12-04T10:00:00Z"), confirmedBy: W.staff))]
        case .complete:
            allowed = [.confirmed]
            verb = "completed"
            accepted = [(Self.booking, BookingCompleted(bookingId: "b-1", completedBy: W.staff))] + released
        case .cancel:
            allowed = [.requested, .confirmed]
            verb = "cancelled"
            accepted = [(Self.booking, BookingCancelled(bookingId: "b-1", cancelledBy: W.staff))] + released
        case .reschedule:
            allowed = [.requested, .confirmed]
            verb = "rescheduled"
            accepted = [(Self.booking, BookingRescheduled(bookingId: "b-1", previousSlot: Self.slot, slot: Self.otherSlot, rescheduledBy: W.staff))]
                + Self.moved
        case .noShow:
            allowed = [.requested, .confirmed]
            verb = "marked a no-show"
            accepted = [(Self.booking, BookingNoShow(bookingId: "b-1", recordedBy: W.staff))] + released
        }
        // Completing and recording a no-show wait for the slot to start; the others act before it.
        let now = transition == .complete || transition == .noShow ? Self.slot : DomainScenario.now
        func check<C: DomainCommand>(_ command: C) async throws {
            if allowed.contains(status) {
                try await s.then(W.staff, command, now: now, appends: accepted)
            } else if transition == .noShow && status == .noShow {
                try await s.then(W.staff, command, now: now, appends: [])
            } else {
                let names = allowed.map(\.rawValue).joined(separator: " or ")
                try await s.then(W.staff, command, now: now, throws: .invalidState("booking 'b-1' is \(status.rawValue); only a \(names) booking can be \(verb)"))
            }
        }
        switch transition {
        case .confirm: try await check(ConfirmBooking(bookingId: "b-1"))
        case .complete: try await check(CompleteBooking(bookingId: "b-1"))
        case .cancel: try await check(CancelBooking(bookingId: "b-1"))
        case .reschedule: try await check(RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot))
        case .noShow: try await check(RecordNoShow(bookingId: "b-1"))
        }
    }

    @Test(arguments: Transition.allCases)
    func aBookingThatDoesNotExistIsNotFound(_ transition: Transition) async throws {
        let s = try await W.scenario()
        let error = DomainError.notFound("booking 'b-9' does not exist")
        switch transition {
        case .confirm: try await s.then(W.staff, ConfirmBooking(bookingId: "b-9"), throws: error)
        case .complete: try await s.then(W.staff, CompleteBooking(bookingId: "b-9"), throws: error)
        case .cancel: try await s.then(W.staff, CancelBooking(bookingId: "b-9"), throws: error)
        case .reschedule: try await s.then(W.staff, RescheduleBooking(bookingId: "b-9", slot: Self.otherSlot), throws: error)
        case .noShow: try await s.then(W.staff, RecordNoShow(bookingId: "b-9"), throws: error)
        }
    }

    // MARK: the slot rule under concurrency

    /// Two owners' devices request the same slot for Rex at the same moment: both decide from the same schedule
    /// version, both try to append, exactly one wins; the other re-decides and is told the slot is taken.
    @Test func concurrentRequestsForOneSlotLetExactlyOneThrough() async throws {
        let s = try await W.scenario()
        let handler = CommandHandler(store: BarrierStore(s.store, parties: 2))
        let command = RequestBooking(petId: "rex", service: .bath, slot: Self.slot)
        async let a = attempt { try await handler.handle(command, as: W.owner, now: DomainScenario.now, commandID: W.commandID(31)) }
        async let b = attempt { try await handler.handle(command, as: W.owner, now: DomainScenario.now, commandID: W.commandID(32)) }
        let results = await [a, b]
        let winners = results.compactMap { try? $0.get() }
        try #require(winners.count == 1)
        let winner = try #require((winners[0].events.first?.event as? BookingRequested)?.bookingId)
        for case .failure(let error) in results {
            #expect(error as? DomainError == .rejected("pet 'rex' already has booking '\(winner)' from 2026-12-05T10:00:00.000000Z to 2026-12-05T11:00:00.000000Z"))
        }
        let held = try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.otherSlot))
        #expect(held.count == 3)
        // The schedule holds exactly one booking for the slot.
        var loader = StreamLoader(store: s.store)
        let schedule = try await loader.load(PetScheduleState.self, Self.schedule)
        #expect(schedule.bookings.filter { $0.slot == Self.slot }.map(\.bookingId) == [winner])
    }

    /// A reschedule into a slot and a request for it race: one wins.
    @Test func aRescheduleAndARequestRacingForOneSlot() async throws {
        let s = try await Self.withBooking(.requested)
        let handler = CommandHandler(store: BarrierStore(s.store, parties: 2))
        async let a = attempt { try await handler.handle(RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot), as: W.owner, now: DomainScenario.now) }
        async let b = attempt {
            try await handler.handle(RequestBooking(petId: "rex", service: .bath, slot: Self.otherSlot), as: W.owner, now: DomainScenario.now, commandID: W.commandID(33))
        }
        let results = await [a, b]
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        for case .failure(let error) in results {
            #expect((error as? DomainError)?.kind == "rejected")
        }
    }

    /// A pet removed while a booking is requested for it: either the request lands first and the removal cancels
    /// it, or the removal lands first and the request is refused. Never an active booking of a removed pet.
    @Test func aRemovalAndARequestRacing() async throws {
        let s = try await W.scenario()
        let handler = CommandHandler(store: BarrierStore(s.store, parties: 2))
        let bookingId = W.generated("b", W.commandID(34))
        async let a = attempt { try await handler.handle(RemovePet(petId: "rex"), as: W.owner, now: DomainScenario.now) }
        async let b = attempt {
            try await handler.handle(RequestBooking(petId: "rex", service: .bath, slot: Self.slot), as: W.owner, now: DomainScenario.now, commandID: W.commandID(34))
        }
        let (removal, request) = await (a, b)
        _ = try removal.get()
        var loader = StreamLoader(store: s.store)
        let booking = try await loader.load(BookingState.self, Streams.booking(bookingId))
        let schedule = try await loader.load(PetScheduleState.self, Self.schedule)
        switch request {
        case .success: #expect(booking.status == .cancelled)
        case .failure(let error): #expect(error as? DomainError == .invalidState("pet 'rex' was removed and accepts no further commands"))
        }
        #expect(schedule.holds.isEmpty)
    }
}
