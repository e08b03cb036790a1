public import EventLog
public import Events

/// Every pet as its owner sees it: the profile, the health profile (vaccinations, open issues, treatments, vet),
/// the food plan, the weight log, the pet's grooming bookings with their reminders, and its vet requests.
///
/// The fold only files each event under its pet, booking or vet request (one dictionary lookup, changed in place);
/// everything that depends on "now" (what is due soon, which reminders are still to come, which treatments still
/// run) is decided by the views, against `--now` or the business time of the last event folded, which the state
/// keeps, so a view of a past moment means what it meant then.
public enum PetsProjection: KeyedProjection {
    /// An owner's pet ids, in the order added.
    public typealias IDs = IDList

    /// Every pet, booking and vet request, row by row with every version. Bookings and vet requests are kept beside
    /// the pets, not inside them: their later events name only their own id, so each is then one lookup.
    public struct State: KeyedProjectionState {
        /// Pets by pet id.
        public var pets = KeyedTable<Pet>(id: 1, history: .exact)
        /// Bookings by booking id.
        public var bookings = KeyedTable<Booking>(id: 2, history: .exact)
        /// Vet requests by request id.
        public var vetRequests = KeyedTable<VetRequest>(id: 3, history: .exact)
        /// Each owner's pets, so that an owner's view reads those alone.
        public var byOwner = KeyedTable<IDs>(id: 4, history: .exact)
        /// The business time of the last event folded (one row, key ""): the views' default "now".
        public var clock = KeyedTable<Clock>(id: 5, history: .exact)

        public init() {}

        /// The business time of the last event folded.
        public var lastEventAt: Timestamp? { clock[""]?.lastEventAt }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            pets = KeyedTable(id: 1, history: .exact, rows: try r.keyed("pets", Pet.self))
            bookings = KeyedTable(id: 2, history: .exact, rows: try r.keyed("bookings", Booking.self))
            vetRequests = KeyedTable(id: 3, history: .exact, rows: try r.keyed("vetRequests", VetRequest.self))
            byOwner = KeyedTable(id: 4, history: .exact, rows: try r.keyed("byOwner", IDs.self))
            clock = KeyedTable(id: 5, history: .exact, rows: try r.keyed("clock", Clock.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("pets", pets.entries)
            w.keyed("bookings", bookings.entries)
            w.keyed("vetRequests", vetRequests.entries)
            w.keyed("byOwner", byOwner.entries)
            w.keyed("clock", clock.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&pets)
            visitor.visit(&bookings)
            visitor.visit(&vetRequests)
            visitor.visit(&byOwner)
            visitor.visit(&clock)
        }
    }

    public static let name = "pets"
    public static let schemaVersion = 2
    public static let foldCost = 500
    public static let summary =
        "Pets: profile, health (vaccinations, open issues, treatments, vet), food plan, weight log, bookings with reminders, vet requests."
    public static let eventTypes = types(
        PetAdded.self, PetEdited.self, PetRemoved.self,
        VaccinationRecorded.self, HealthIssueOpened.self, HealthIssueResolved.self, VetContactSet.self,
        TreatmentStarted.self, TreatmentEnded.self, NextVetAppointmentSet.self, FoodPlanSet.self, WeightLogged.self,
        BookingRequested.self, BookingConfirmed.self, BookingCompleted.self, BookingCancelled.self, BookingRescheduled.self,
        VetRequestSubmitted.self, VetRequestAnswered.self, VetRequestClosed.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        let at = e.occurredAt
        state.clock[""] = Clock(at)
        // The domain guarantees that a pet exists before anything about it, and a booking or vet request before
        // its later events; an event that breaks this is a log the domain cannot write, so the fold stops on it
        // rather than dropping it.
        switch e.typeID {
        // Bookings first: they are the most frequent of these events.
        case BookingRequested.typeID:
            let x = e.event as! BookingRequested
            try pet(&state, x.petId) { $0.bookingIds.append(x.bookingId) }
            state.bookings[x.bookingId] = Booking(petId: x.petId, service: x.service, slot: x.slot, requestedAt: at)
        case BookingConfirmed.typeID:
            let x = e.event as! BookingConfirmed
            try booking(&state, x.bookingId) {
                $0.status = .confirmed
                $0.slot = x.slot
                $0.reminderDueAt = x.reminderDueAt
            }
        case BookingCompleted.typeID:
            let x = e.event as! BookingCompleted
            try booking(&state, x.bookingId) {
                $0.status = .completed
                $0.reminderDueAt = nil
            }
        case BookingCancelled.typeID:
            let x = e.event as! BookingCancelled
            try booking(&state, x.bookingId) {
                $0.status = .cancelled
                $0.reminderDueAt = nil
            }
        case BookingRescheduled.typeID:
            let x = e.event as! BookingRescheduled
            // Requested again: staff confirmed the old slot, and its reminder no longer applies.
            try booking(&state, x.bookingId) {
                $0.status = .requested
                $0.slot = x.slot
                $0.reminderDueAt = nil
            }
        case WeightLogged.typeID:
            let x = e.event as! WeightLogged
            try pet(&state, x.petId) { $0.weighings.append(Weighing(weightGrams: x.weightGrams, measuredAt: x.measuredAt)) }
        case PetAdded.typeID:
            let x = e.event as! PetAdded
            state.pets[x.petId] = Pet(
                ownerId: x.ownerId, name: x.name, species: x.species, breed: x.breed, birthDate: x.birthDate,
                ageMonths: x.ageMonths, ageGivenAt: x.ageMonths == nil ? nil : at, weightGrams: x.weightGrams, addedAt: at)
            state.byOwner[x.ownerId, default: IDs()].ids.append(x.petId)
        case PetEdited.typeID:
            let x = e.event as! PetEdited
            try pet(&state, x.petId) {
                if let v = x.name { $0.name = v }
                if let v = x.species { $0.species = v }
                if let v = x.breed { $0.breed = v }
                if let v = x.birthDate {
                    $0.birthDate = v
                    $0.ageMonths = nil
                    $0.ageGivenAt = nil
                }
                if let v = x.ageMonths {
                    $0.ageMonths = v
                    $0.ageGivenAt = at
                    $0.birthDate = nil
                }
                if let v = x.weightGrams { $0.weightGrams = v }
            }
        case PetRemoved.typeID:
            let x = e.event as! PetRemoved
            try pet(&state, x.petId) { $0.removed = true }
        case VaccinationRecorded.typeID:
            let x = e.event as! VaccinationRecorded
            try pet(&state, x.petId) {
                guard var v = $0.vaccinations[x.vaccine] else {
                    $0.vaccinations[x.vaccine] = Vaccination(lastGiven: x.givenOn, nextDue: x.nextDue)
                    return
                }
                v.doses += 1
                // An older dose recorded late does not move the next due date: the latest dose given decides it.
                if x.givenOn >= v.lastGiven {
                    v.lastGiven = x.givenOn
                    v.nextDue = x.nextDue
                }
                $0.vaccinations[x.vaccine] = v
            }
        case HealthIssueOpened.typeID:
            let x = e.event as! HealthIssueOpened
            try pet(&state, x.petId) { $0.openIssues[x.issueId] = HealthIssue(title: x.title, notes: x.notes, openedAt: at) }
        case HealthIssueResolved.typeID:
            let x = e.event as! HealthIssueResolved
            try pet(&state, x.petId) { $0.openIssues[x.issueId] = nil }
        case VetContactSet.typeID:
            let x = e.event as! VetContactSet
            try pet(&state, x.petId) { $0.vet = VetContact(vetName: x.vetName, clinic: x.clinic, phone: x.phone) }
        case TreatmentStarted.typeID:
            let x = e.event as! TreatmentStarted
            try pet(&state, x.petId) {
                $0.treatments[x.planId] = Treatment(
                    kind: x.kind, name: x.name, dosage: x.dosage, schedule: x.schedule, startDate: x.startDate, endDate: x.endDate)
            }
        case TreatmentEnded.typeID:
            let x = e.event as! TreatmentEnded
            try pet(&state, x.petId) { $0.treatments[x.planId] = nil }
        case NextVetAppointmentSet.typeID:
            let x = e.event as! NextVetAppointmentSet
            try pet(&state, x.petId) { $0.nextVetAppointment = Appointment(at: x.at, reason: x.reason) }
        case FoodPlanSet.typeID:
            let x = e.event as! FoodPlanSet
            try pet(&state, x.petId) {
                $0.foodPlan = FoodPlan(food: x.food, portionGrams: x.portionGrams, feedingTimes: x.feedingTimes)
            }
        case VetRequestSubmitted.typeID:
            let x = e.event as! VetRequestSubmitted
            try pet(&state, x.petId) { $0.vetRequestIds.append(x.requestId) }
            state.vetRequests[x.requestId] = VetRequest(
                petId: x.petId, symptoms: x.symptoms, urgency: x.urgency, preferredTime: x.preferredTime, submittedAt: at)
        case VetRequestAnswered.typeID:
            let x = e.event as! VetRequestAnswered
            try vetRequest(&state, x.requestId) {
                $0.status = .answered
                $0.answers += 1
                $0.lastAnswer = x.answer
            }
        case VetRequestClosed.typeID:
            let x = e.event as! VetRequestClosed
            try vetRequest(&state, x.requestId) { $0.status = .closed }
        default:
            return
        }
    }

    /// Changes a pet in place, or fails when the log never added it.
    private static func pet(_ state: inout State, _ petId: String, _ body: (inout Pet) -> Void) throws(ProjectionError) {
        try state.pets.modify(petId) { (p: inout Pet?) throws(ProjectionError) in
            guard p != nil else { throw ProjectionError("no pet '\(petId)' was added") }
            body(&p!)
        }
    }

    /// Changes a booking in place, or fails when the log never requested it.
    private static func booking(_ state: inout State, _ bookingId: String, _ body: (inout Booking) -> Void) throws(ProjectionError) {
        try state.bookings.modify(bookingId) { (b: inout Booking?) throws(ProjectionError) in
            guard b != nil else { throw ProjectionError("no booking '\(bookingId)' was requested") }
            body(&b!)
        }
    }

    /// Changes a vet request in place, or fails when the log never submitted it.
    private static func vetRequest(_ state: inout State, _ requestId: String, _ body: (inout VetRequest) -> Void) throws(ProjectionError) {
        try state.vetRequests.modify(requestId) { (v: inout VetRequest?) throws(ProjectionError) in
            guard v != nil else { throw ProjectionError("no vet request '\(requestId)' was submitted") }
            body(&v!)
        }
    }
}
