import BenchSupport
import EventLog
import Events
import PawtrailDomain

// Pets and their health, food and weight; grooming bookings through their lifecycle; vet requests.
extension Business {
    /// The customer's pets that are not removed.
    private func activePets(_ c: Int) -> [Int] {
        customers[c].pets.filter { !pets[$0].removed }
    }

    /// Midnight UTC of the clock's day, minus whole days.
    private func midnight(minusDays days: Int64 = 0) -> Timestamp {
        Timestamp(microsecondsSinceEpoch: now - now % Self.day - days * Self.day)
    }

    /// Adds a pet or does something for one.
    func petCare(_ c: Int) {
        let mine = activePets(c)
        if mine.isEmpty || (mine.count < 3 && rng.chance(0.08)) {
            addPet(c)
            return
        }
        let p = rng.pick(mine)
        let petId = pets[p].id
        let stream = Streams.pet(petId)
        let owner = customers[c].id
        func run(_ name: String, _ event: any DomainEvent) { command(name, as: owner, role: .customer, [(stream, event)]) }
        switch rng.below(100) {
        case 0..<30:
            let range = Names.weightRange[pets[p].species]!
            let drift = max(1, pets[p].weight / 40)
            pets[p].weight = min(range.upperBound, max(range.lowerBound, pets[p].weight + rng.int64(-drift...drift)))
            run("pet.log-weight", WeightLogged(petId: petId, weightGrams: pets[p].weight, measuredAt: timestamp))
        case 30..<42:
            let given = midnight(minusDays: rng.int64(0...30))
            let next = rng.chance(0.8) ? Timestamp(microsecondsSinceEpoch: given.microsecondsSinceEpoch + 365 * Self.day) : nil
            run("pet.record-vaccination", VaccinationRecorded(petId: petId, vaccine: rng.pick(Names.vaccines), givenOn: given, nextDue: next))
        case 42..<52:
            let times = rng.chance(0.5) ? ["07:30", "18:00"] : ["08:00", "13:00", "20:00"]
            run(
                "pet.set-food-plan",
                FoodPlanSet(petId: petId, food: rng.pick(Names.foods), portionGrams: rng.int64(20...600), feedingTimes: times))
        case 52..<61:
            let issue = newID("hi")
            pets[p].openIssues.append(issue)
            run(
                "pet.open-health-issue",
                HealthIssueOpened(petId: petId, issueId: issue, title: rng.pick(Names.issues), notes: rng.chance(0.5) ? "Noticed this week" : nil))
        case 61..<69:
            guard !pets[p].openIssues.isEmpty else { return }
            let issue = pets[p].openIssues.removeFirst()
            run("pet.resolve-health-issue", HealthIssueResolved(petId: petId, issueId: issue))
        case 69..<75:
            let plan = newID("tp")
            pets[p].treatments.append(plan)
            let start = midnight()
            let end = rng.chance(0.6) ? Timestamp(microsecondsSinceEpoch: start.microsecondsSinceEpoch + rng.int64(5...30) * Self.day) : nil
            run(
                "pet.start-treatment",
                TreatmentStarted(
                    petId: petId, planId: plan, kind: rng.chance(0.6) ? .medication : .supplement, name: rng.pick(Names.treatments),
                    dosage: "\(rng.int(1...3)) tablet", schedule: rng.chance(0.5) ? "twice daily" : "daily with dinner",
                    startDate: start, endDate: end))
        case 75..<81:
            guard !pets[p].treatments.isEmpty else { return }
            let plan = pets[p].treatments.removeFirst()
            run("pet.end-treatment", TreatmentEnded(petId: petId, planId: plan))
        case 81..<85:
            run(
                "pet.set-vet",
                VetContactSet(
                    petId: petId, vetName: rng.pick(Names.vets), clinic: rng.pick(Names.clinics),
                    phone: rng.chance(0.7) ? "+880 2 \(rng.int(5_000_000...9_999_999))" : nil))
        case 85..<91:
            let at = Timestamp(microsecondsSinceEpoch: midnight().microsecondsSinceEpoch + rng.int64(3...60) * Self.day + 10 * Self.hour)
            run("pet.set-next-vet-appointment", NextVetAppointmentSet(petId: petId, at: at, reason: rng.chance(0.5) ? "Annual check-up" : nil))
        case 91..<99:
            if rng.chance(0.5) {
                run("pet.edit", PetEdited(petId: petId, name: rng.pick(Names.petNames)))
            } else {
                let range = Names.weightRange[pets[p].species]!
                pets[p].weight = rng.int64(range)
                run("pet.edit", PetEdited(petId: petId, weightGrams: pets[p].weight))
            }
        default:
            if rng.chance(0.3) { removePet(p) }
        }
    }

    /// `pet.add`: a birth date or an age, sometimes a breed and a weight.
    private func addPet(_ c: Int) {
        var pick = rng.below(100)
        var species = Species.dog
        for (s, w) in Names.speciesWeights {
            if pick < w {
                species = s
                break
            }
            pick -= w
        }
        let id = newID("p")
        let weight = rng.int64(Names.weightRange[species]!)
        let birth = rng.chance(0.5) ? midnight(minusDays: rng.int64(60...4_000)) : nil
        let event = PetAdded(
            petId: id, ownerId: customers[c].id, name: rng.pick(Names.petNames), species: species,
            breed: rng.chance(0.7) ? rng.pick(Names.breeds[species]!) : nil, birthDate: birth,
            ageMonths: birth == nil ? rng.int64(2...160) : nil, weightGrams: rng.chance(0.8) ? weight : nil)
        command("pet.add", as: customers[c].id, role: .customer, [(Streams.pet(id), event)])
        pets.append(Pet(id: id, owner: c, species: species, weight: weight))
        customers[c].pets.append(pets.count - 1)
    }

    /// `pet.remove`: the pet, its active bookings cancelled and every slot its schedule holds released.
    private func removePet(_ p: Int) {
        let owner = customers[pets[p].owner].id
        var events: [(StreamID, any DomainEvent)] = [(Streams.pet(pets[p].id), PetRemoved(petId: pets[p].id))]
        for held in pets[p].held where bookings[held.booking].status == .requested || bookings[held.booking].status == .confirmed {
            bookings[held.booking].status = .cancelled
            events.append(
                (Streams.booking(bookings[held.booking].id),
                 BookingCancelled(bookingId: bookings[held.booking].id, cancelledBy: owner, reason: RemovePet.cancelReason)))
        }
        for held in pets[p].held {
            events.append((Streams.petSchedule(pets[p].id), PetSlotReleased(petId: pets[p].id, bookingId: bookings[held.booking].id, slot: Timestamp(microsecondsSinceEpoch: held.slot))))
        }
        pets[p].held = []
        pets[p].removed = true
        command("pet.remove", as: owner, role: .customer, events)
    }

    // MARK: Bookings

    /// A free slot of the pet in the next two weeks, on the hour or half past during opening hours.
    private func freeSlot(_ p: Int) -> Int64? {
        for _ in 0..<5 {
            let day = now - now % Self.day + rng.int64(1...14) * Self.day
            let slot = day + rng.int64(9...17) * Self.hour + (rng.chance(0.5) ? 30 * Self.minute : 0)
            if !pets[p].held.contains(where: { $0.slot == slot }) { return slot }
        }
        return nil
    }

    /// Requests a booking, or moves or cancels one of the customer's.
    func bookingAction(_ c: Int) {
        customers[c].activeBookings.removeAll {
            bookings[$0].status == .completed || bookings[$0].status == .cancelled || bookings[$0].slot <= now
        }
        if let b = customers[c].activeBookings.first, rng.chance(0.3) {
            if rng.chance(0.5) { rescheduleBooking(b) } else { cancelBooking(b, by: customers[c].id, role: .customer, reason: rng.chance(0.5) ? "Plans changed" : nil) }
            return
        }
        let mine = activePets(c)
        guard !mine.isEmpty else { return addPet(c) }
        let p = rng.pick(mine)
        guard let slot = freeSlot(p) else { return }
        let id = newID("b")
        let petId = pets[p].id
        let ts = Timestamp(microsecondsSinceEpoch: slot)
        let services: [GroomingService] = [.bath, .haircut, .nailTrim, .fullGroom, .deShedding]
        command(
            "booking.request", as: customers[c].id, role: .customer,
            [
                (Streams.booking(id), BookingRequested(bookingId: id, petId: petId, ownerId: customers[c].id, service: rng.pick(services), slot: ts)),
                (Streams.petSchedule(petId), PetSlotHeld(petId: petId, bookingId: id, slot: ts)),
            ])
        bookings.append(Booking(id: id, pet: p, owner: c, slot: slot))
        let b = bookings.count - 1
        pets[p].held.append((b, slot))
        customers[c].activeBookings.append(b)
        remember(c, .booking, id)
        schedule(.bookingStep(b, generation: 0), after: Self.hour...(20 * Self.hour))
    }

    private func rescheduleBooking(_ b: Int) {
        let p = bookings[b].pet
        guard let slot = freeSlot(p) else { return }
        let owner = customers[bookings[b].owner].id
        let old = bookings[b].slot
        var schedule: [(StreamID, any DomainEvent)] = []
        if pets[p].held.contains(where: { $0.booking == b }) {
            schedule.append((Streams.petSchedule(pets[p].id), PetSlotReleased(petId: pets[p].id, bookingId: bookings[b].id, slot: Timestamp(microsecondsSinceEpoch: old))))
        }
        schedule.append((Streams.petSchedule(pets[p].id), PetSlotHeld(petId: pets[p].id, bookingId: bookings[b].id, slot: Timestamp(microsecondsSinceEpoch: slot))))
        command(
            "booking.reschedule", as: owner, role: .customer,
            [(Streams.booking(bookings[b].id), BookingRescheduled(
                bookingId: bookings[b].id, previousSlot: Timestamp(microsecondsSinceEpoch: old),
                slot: Timestamp(microsecondsSinceEpoch: slot), rescheduledBy: owner))] + schedule)
        pets[p].held.removeAll { $0.booking == b }
        pets[p].held.append((b, slot))
        bookings[b].slot = slot
        bookings[b].status = .requested
        bookings[b].generation += 1
        self.schedule(.bookingStep(b, generation: bookings[b].generation), after: Self.hour...(20 * Self.hour))
    }

    /// `booking.cancel` and the release of its slot.
    private func cancelBooking(_ b: Int, by actor: String, role: Role, reason: String?) {
        var events: [(StreamID, any DomainEvent)] = [
            (Streams.booking(bookings[b].id), BookingCancelled(bookingId: bookings[b].id, cancelledBy: actor, reason: reason))
        ]
        events += releaseSlot(b)
        command("booking.cancel", as: actor, role: role, events)
        bookings[b].status = .cancelled
    }

    private func releaseSlot(_ b: Int) -> [(StreamID, any DomainEvent)] {
        let p = bookings[b].pet
        guard pets[p].held.contains(where: { $0.booking == b }) else { return [] }
        pets[p].held.removeAll { $0.booking == b }
        return [(Streams.petSchedule(pets[p].id), PetSlotReleased(petId: pets[p].id, bookingId: bookings[b].id, slot: Timestamp(microsecondsSinceEpoch: bookings[b].slot)))]
    }

    /// Staff confirm a requested booking while its slot is ahead (or cancel one whose slot went by), and complete a
    /// confirmed one after its slot.
    func bookingStep(_ b: Int, generation: Int) {
        guard bookings[b].generation == generation else { return }
        let member = rng.pick(staff)
        switch bookings[b].status {
        case .requested:
            if bookings[b].slot <= now || rng.chance(0.03) {
                cancelBooking(b, by: member, role: .staff, reason: bookings[b].slot <= now ? "The slot passed unconfirmed" : "The groomer is unavailable")
                return
            }
            let slot = Timestamp(microsecondsSinceEpoch: bookings[b].slot)
            command(
                "booking.confirm", as: member, role: .staff,
                [(Streams.booking(bookings[b].id), BookingConfirmed(
                    bookingId: bookings[b].id, slot: slot, reminderDueAt: BookingSlot.reminderDue(for: slot), confirmedBy: member))])
            bookings[b].status = .confirmed
            schedule(.bookingStep(b, generation: generation), at: bookings[b].slot + rng.int64((45 * Self.minute)...(2 * Self.hour)))
        case .confirmed:
            guard bookings[b].slot < now else {
                schedule(.bookingStep(b, generation: generation), at: bookings[b].slot + Self.hour)
                return
            }
            command(
                "booking.complete", as: member, role: .staff,
                [(Streams.booking(bookings[b].id), BookingCompleted(bookingId: bookings[b].id, completedBy: member))] + releaseSlot(b))
            bookings[b].status = .completed
        case .completed, .cancelled, .noShow:
            return
        }
    }

    // MARK: Vet requests

    func submitVetRequest(_ c: Int) {
        let mine = activePets(c)
        guard !mine.isEmpty else { return }
        let p = rng.pick(mine)
        let id = newID("v")
        let urgency: VetUrgency = rng.chance(0.15) ? .urgent : (rng.chance(0.3) ? .low : .normal)
        let preferred = rng.chance(0.4) ? Timestamp(microsecondsSinceEpoch: now - now % Self.hour + rng.int64(2...72) * Self.hour) : nil
        command(
            "vet.submit", as: customers[c].id, role: .customer,
            [(Streams.vetRequest(id), VetRequestSubmitted(
                requestId: id, petId: pets[p].id, ownerId: customers[c].id, symptoms: rng.pick(Names.symptoms), urgency: urgency,
                preferredTime: preferred))])
        vetRequests.append(VetRequest(id: id, pet: p, owner: c))
        remember(c, .vetRequest, id)
        schedule(.vetStep(vetRequests.count - 1), after: urgency == .urgent ? (10 * Self.minute)...Self.hour : Self.hour...(12 * Self.hour))
    }

    /// Staff answer a request (sometimes more than once) and close it.
    func vetStep(_ v: Int) {
        guard vetRequests[v].status != .closed else { return }
        let member = rng.pick(staff)
        let stream = Streams.vetRequest(vetRequests[v].id)
        if vetRequests[v].answers == 0 || (vetRequests[v].answers < 3 && rng.chance(0.3)) {
            command("vet.answer", as: member, role: .staff, [(stream, VetRequestAnswered(requestId: vetRequests[v].id, answer: rng.pick(Names.answers), answeredBy: member))])
            vetRequests[v].answers += 1
            vetRequests[v].status = .answered
            schedule(.vetStep(v), after: (2 * Self.hour)...(2 * Self.day))
        } else {
            command("vet.close", as: member, role: .staff, [(stream, VetRequestClosed(requestId: vetRequests[v].id, closedBy: member))])
            vetRequests[v].status = .closed
        }
    }

    /// Keeps the customer's last few subjects for conversations.
    func remember(_ c: Int, _ kind: ConversationSubject, _ id: String) {
        customers[c].subjects.append((kind, id))
        if customers[c].subjects.count > 6 { customers[c].subjects.removeFirst() }
    }
}
