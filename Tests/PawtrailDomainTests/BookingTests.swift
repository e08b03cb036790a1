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

    /// Rex with booking `b-1` at ``slot`` in the given status (and the schedule to match).
    static func withBooking(_ status: BookingStatus) async throws -> DomainScenario {
        let s = try await W.scenario()
        var events: [any DomainEvent] = [BookingRequested(bookingId: "b-1", petId: "rex", ownerId: W.owner, service: .fullGroom, slot: slot)]
        switch status {
        case .requested: break
        case .confirmed: events.append(BookingConfirmed(bookingId: "b-1", slot: slot, reminderDueAt: t("2026-12-04T10:00:00Z"), confirmedBy: W.staff))
        case .completed:
            events.append(BookingConfirmed(bookingId: "b-1", slot: slot, reminderDueAt: t("2026-12-04T10:00:00Z"), confirmedBy: W.staff))
            events.append(BookingCompleted(bookingId: "b-1", completedBy: W.staff))
        case .cancelled: events.append(BookingCancelled(bookingId: "b-1", cancelledBy: W.owner))
        }
        for e in events { try await s.given(booking, e) }
        try await s.given(schedule, PetSlotHeld(petId: "rex", bookingId: "b-1", slot: slot))
        if status == .completed || status == .cancelled {
            try await s.given(schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: slot))
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
            W.owner, command, id: id,
            appends: [
                (Streams.booking(bookingId), BookingRequested(bookingId: bookingId, petId: "rex", ownerId: W.owner, service: .nailTrim, slot: Self.slot)),
                (Self.schedule, PetSlotHeld(petId: "rex", bookingId: bookingId, slot: Self.slot)),
            ])
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
            appends: [
                (stream("booking-b-spa"), BookingRequested(bookingId: "b-spa", petId: "rex", ownerId: W.owner, service: .bath, slot: Self.slot)),
                (Self.schedule, PetSlotHeld(petId: "rex", bookingId: "b-spa", slot: Self.slot)),
            ])
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
        try await s.then(W.owner, RequestBooking(petId: "rex", service: .bath, slot: t("2026-12-01T09:30:00Z")), id: W.commandID(1), appends: [
            (Streams.booking(W.generated("b", W.commandID(1))),
             BookingRequested(bookingId: W.generated("b", W.commandID(1)), petId: "rex", ownerId: W.owner, service: .bath, slot: t("2026-12-01T09:30:00Z"))),
            (Self.schedule, PetSlotHeld(petId: "rex", bookingId: W.generated("b", W.commandID(1)), slot: t("2026-12-01T09:30:00Z"))),
        ])
    }

    @Test func onePetCannotHoldASlotTwice() async throws {
        let s = try await Self.withBooking(.requested)
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.slot),
            throws: .rejected("pet 'rex' already has booking 'b-1' at 2026-12-05T10:00:00.000000Z"))
        // Confirmed bookings hold their slot too.
        let c = try await Self.withBooking(.confirmed)
        try await c.then(
            W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.slot),
            throws: .rejected("pet 'rex' already has booking 'b-1' at 2026-12-05T10:00:00.000000Z"))
        // Another pet may have the same slot.
        try await c.given(Streams.pet("mimi"), PetAdded(petId: "mimi", ownerId: W.owner, name: "Mimi", species: .cat))
        let appended = try await c.when(W.owner, RequestBooking(petId: "mimi", service: .bath, slot: Self.slot))
        #expect(appended.count == 2)
    }

    @Test(arguments: [BookingStatus.cancelled, .completed])
    func aSlotIsFreeAgainOnceItsBookingEnds(_ status: BookingStatus) async throws {
        let s = try await Self.withBooking(status)
        let id = W.commandID(22)
        let bookingId = W.generated("b", id)
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .haircut, slot: Self.slot), id: id,
            appends: [
                (Streams.booking(bookingId), BookingRequested(bookingId: bookingId, petId: "rex", ownerId: W.owner, service: .haircut, slot: Self.slot)),
                (Self.schedule, PetSlotHeld(petId: "rex", bookingId: bookingId, slot: Self.slot)),
            ])
    }

    @Test func reRequestingAfterACancelThroughTheCommands() async throws {
        let s = try await W.scenario()
        let first = W.generated("b", W.commandID(1))
        _ = try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), id: W.commandID(1))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), id: W.commandID(2),
            throws: .rejected("pet 'rex' already has booking '\(first)' at 2026-12-05T10:00:00.000000Z"))
        _ = try await s.when(W.owner, CancelBooking(bookingId: first))
        let second = W.generated("b", W.commandID(2))
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), id: W.commandID(2),
            appends: [
                (Streams.booking(second), BookingRequested(bookingId: second, petId: "rex", ownerId: W.owner, service: .bath, slot: Self.slot)),
                (Self.schedule, PetSlotHeld(petId: "rex", bookingId: second, slot: Self.slot)),
            ])
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
        try await s.then(actor, CompleteBooking(bookingId: "b-1"), throws: completeError)
    }

    // MARK: booking.complete

    @Test func completingReleasesTheSlot() async throws {
        let s = try await Self.withBooking(.confirmed)
        try await s.then(
            W.admin, CompleteBooking(bookingId: "b-1"),
            appends: [
                (Self.booking, BookingCompleted(bookingId: "b-1", completedBy: W.admin)),
                (Self.schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: Self.slot)),
            ])
    }

    // MARK: booking.cancel

    @Test(arguments: [W.owner, W.staff, W.admin])
    func theOwnerOrStaffCancel(_ actor: String) async throws {
        let s = try await Self.withBooking(.confirmed)
        try await s.then(
            actor, CancelBooking(bookingId: "b-1", reason: " Travelling "),
            appends: [
                (Self.booking, BookingCancelled(bookingId: "b-1", cancelledBy: actor, reason: "Travelling")),
                (Self.schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: Self.slot)),
            ])
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
                (Self.schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: Self.slot)),
                (Self.schedule, PetSlotHeld(petId: "rex", bookingId: "b-1", slot: Self.otherSlot)),
            ])
        // The old slot is free again.
        let appended = try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot))
        #expect(appended.count == 2)
    }

    @Test func aRescheduledConfirmedBookingNeedsConfirmingAgain() async throws {
        let s = try await Self.withBooking(.confirmed)
        try await s.then(
            W.staff, RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot),
            appends: [
                (Self.booking, BookingRescheduled(bookingId: "b-1", previousSlot: Self.slot, slot: Self.otherSlot, rescheduledBy: W.staff)),
                (Self.schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: Self.slot)),
                (Self.schedule, PetSlotHeld(petId: "rex", bookingId: "b-1", slot: Self.otherSlot)),
            ])
        try await s.then(W.staff, CompleteBooking(bookingId: "b-1"), throws: .invalidState("booking 'b-1' is requested; only a confirmed booking can be completed"))
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
        try await s.given(stream("booking-b-2"), BookingRequested(bookingId: "b-2", petId: "rex", ownerId: W.owner, service: .bath, slot: Self.otherSlot))
        try await s.given(Self.schedule, PetSlotHeld(petId: "rex", bookingId: "b-2", slot: Self.otherSlot))
        try await s.then(
            W.owner, RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot),
            throws: .rejected("pet 'rex' already has booking 'b-2' at 2026-12-06T14:30:00.000000Z"))
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
        case confirm, complete, cancel, reschedule
    }

    @Test(arguments: BookingStatus.allCases, Transition.allCases)
    func lifecycle(_ status: BookingStatus, _ transition: Transition) async throws {
        let s = try await Self.withBooking(status)
        let released = (Self.schedule, PetSlotReleased(petId: "rex", bookingId: "b-1", slot: Self.slot) as any DomainEvent)
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
            accepted = [(Self.booking, BookingCompleted(bookingId: "b-1", completedBy: W.staff)), released]
        case .cancel:
            allowed = [.requested, .confirmed]
            verb = "cancelled"
            accepted = [(Self.booking, BookingCancelled(bookingId: "b-1", cancelledBy: W.staff)), released]
        case .reschedule:
            allowed = [.requested, .confirmed]
            verb = "rescheduled"
            accepted = [
                (Self.booking, BookingRescheduled(bookingId: "b-1", previousSlot: Self.slot, slot: Self.otherSlot, rescheduledBy: W.staff)),
                released, (Self.schedule, PetSlotHeld(petId: "rex", bookingId: "b-1", slot: Self.otherSlot)),
            ]
        }
        func check<C: DomainCommand>(_ command: C) async throws {
            if allowed.contains(status) {
                try await s.then(W.staff, command, appends: accepted)
            } else {
                let names = allowed.map(\.rawValue).joined(separator: " or ")
                try await s.then(W.staff, command, throws: .invalidState("booking 'b-1' is \(status.rawValue); only a \(names) booking can be \(verb)"))
            }
        }
        switch transition {
        case .confirm: try await check(ConfirmBooking(bookingId: "b-1"))
        case .complete: try await check(CompleteBooking(bookingId: "b-1"))
        case .cancel: try await check(CancelBooking(bookingId: "b-1"))
        case .reschedule: try await check(RescheduleBooking(bookingId: "b-1", slot: Self.otherSlot))
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
            #expect(error as? DomainError == .rejected("pet 'rex' already has booking '\(winner)' at 2026-12-05T10:00:00.000000Z"))
        }
        let held = try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.otherSlot))
        #expect(held.count == 2)
        // The schedule holds exactly one booking for the slot.
        var loader = StreamLoader(store: s.store)
        let schedule = try await loader.load(PetScheduleState.self, Self.schedule)
        #expect(schedule.holder(of: Self.slot) == winner)
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
        #expect(schedule.held.isEmpty)
    }
}
