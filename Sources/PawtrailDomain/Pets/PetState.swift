public import EventLog
public import Events

/// A pet as decisions see it (stream `pet-<petId>`): its profile, health profile and food hub.
public struct PetState: Aggregate, Equatable {
    /// A health issue and whether it was resolved.
    public struct HealthIssue: Equatable, Sendable {
        /// The event that opened it (a re-sent open is recognised by it).
        public var opened: HealthIssueOpened
        /// Whether it was resolved.
        public var resolved = false
    }

    /// A treatment plan and whether it was ended.
    public struct Treatment: Equatable, Sendable {
        /// The event that started it (a re-sent start is recognised by it).
        public var started: TreatmentStarted
        /// Whether it was ended.
        public var ended = false
    }

    /// One weight log entry.
    public struct Weighing: Hashable, Sendable, FieldCodable {
        public var weightGrams: Int64
        public var measuredAt: Timestamp

        public init(weightGrams: Int64, measuredAt: Timestamp) {
            self.weightGrams = weightGrams
            self.measuredAt = measuredAt
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            weightGrams = try r.int("weightGrams")
            measuredAt = try r.timestamp("measuredAt")
        }

        public func write(to w: inout some FieldWriter) {
            w.int("weightGrams", weightGrams)
            w.timestamp("measuredAt", measuredAt)
        }
    }

    /// Whether the pet was added.
    public var exists = false
    /// Whether it was removed (it then accepts no commands).
    public var removed = false
    /// The event that added it: a re-sent `pet.add` is recognised by it.
    public var added: PetAdded?
    /// The owner's user id.
    public var ownerId = ""
    /// The pet's name.
    public var name = ""
    /// The species.
    public var species: Species = .other
    /// The breed, when known.
    public var breed: String?
    /// The birth date, when known (a pet has a birth date or an age, not both).
    public var birthDate: Timestamp?
    /// The age in months when it was given, when the birth date is unknown.
    public var ageMonths: Int64?
    /// The profile weight in grams.
    public var weightGrams: Int64?

    /// Vaccinations, in the order recorded.
    public var vaccinations: [VaccinationRecorded] = []
    /// Health issues by id.
    public var healthIssues: [String: HealthIssue] = [:]
    /// The vet and clinic.
    public var vet: VetContactSet?
    /// Treatment plans by id.
    public var treatments: [String: Treatment] = [:]
    /// The next vet appointment.
    public var nextVetAppointment: NextVetAppointmentSet?
    /// The food plan.
    public var foodPlan: FoodPlanSet?
    /// The weight log.
    public var weighings: Set<Weighing> = []

    public init() {}

    public static let snapshotKind = "pet"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        exists = try r.bool("exists")
        removed = try r.bool("removed")
        added = try r.records("added", PetAdded.self).first
        ownerId = try r.string("ownerId")
        name = try r.string("name")
        species = try r.choice("species", Species.self)
        breed = try r.optionalString("breed")
        birthDate = try r.optionalTimestamp("birthDate")
        ageMonths = try r.optionalInt("ageMonths")
        weightGrams = try r.optionalInt("weightGrams")
        vaccinations = try r.records("vaccinations", VaccinationRecorded.self)
        healthIssues = try r.keyed("healthIssues", HealthIssue.self)
        vet = try r.records("vet", VetContactSet.self).first
        treatments = try r.keyed("treatments", Treatment.self)
        nextVetAppointment = try r.records("nextVetAppointment", NextVetAppointmentSet.self).first
        foodPlan = try r.records("foodPlan", FoodPlanSet.self).first
        weighings = Set(try r.records("weighings", Weighing.self))
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("exists", exists)
        w.bool("removed", removed)
        w.records("added", added.map { [$0] } ?? [])
        w.string("ownerId", ownerId)
        w.string("name", name)
        w.choice("species", species)
        w.optionalString("breed", breed)
        w.optionalTimestamp("birthDate", birthDate)
        w.optionalInt("ageMonths", ageMonths)
        w.optionalInt("weightGrams", weightGrams)
        w.records("vaccinations", vaccinations)
        w.keyed("healthIssues", healthIssues)
        w.records("vet", vet.map { [$0] } ?? [])
        w.keyed("treatments", treatments)
        w.records("nextVetAppointment", nextVetAppointment.map { [$0] } ?? [])
        w.records("foodPlan", foodPlan.map { [$0] } ?? [])
        // A set has no order of its own: sorted, so that equal states have equal bytes.
        w.records("weighings", weighings.sorted { ($0.measuredAt, $0.weightGrams) < ($1.measuredAt, $1.weightGrams) })
    }

    public static func evolve(_ state: PetState, _ event: any DomainEvent) -> PetState {
        var s = state
        switch event {
        case let e as PetAdded:
            s.exists = true
            s.added = e
            s.ownerId = e.ownerId
            s.name = e.name
            s.species = e.species
            s.breed = e.breed
            s.birthDate = e.birthDate
            s.ageMonths = e.ageMonths
            s.weightGrams = e.weightGrams
        case let e as PetEdited:
            if let v = e.name { s.name = v }
            if let v = e.species { s.species = v }
            if let v = e.breed { s.breed = v }
            if let v = e.birthDate {
                s.birthDate = v
                s.ageMonths = nil
            }
            if let v = e.ageMonths {
                s.ageMonths = v
                s.birthDate = nil
            }
            if let v = e.weightGrams { s.weightGrams = v }
        case is PetRemoved:
            s.removed = true
        case let e as VaccinationRecorded:
            s.vaccinations.append(e)
        case let e as HealthIssueOpened:
            s.healthIssues[e.issueId] = HealthIssue(opened: e)
        case let e as HealthIssueResolved:
            s.healthIssues[e.issueId]?.resolved = true
        case let e as VetContactSet:
            s.vet = e
        case let e as TreatmentStarted:
            s.treatments[e.planId] = Treatment(started: e)
        case let e as TreatmentEnded:
            s.treatments[e.planId]?.ended = true
        case let e as NextVetAppointmentSet:
            s.nextVetAppointment = e
        case let e as FoodPlanSet:
            s.foodPlan = e
        case let e as WeightLogged:
            s.weighings.insert(Weighing(weightGrams: e.weightGrams, measuredAt: e.measuredAt))
        default:
            break
        }
        return s
    }

    /// Checks that the pet exists, is not removed, and that the actor may act on it: its owner, or staff when
    /// `staffMay` is set.
    ///
    /// - Throws: ``DomainError/notFound(_:)``, ``DomainError/invalidState(_:)`` or ``DomainError/forbidden(_:)``.
    public func checkActive(_ petId: String, actor: Actor, staffMay: Bool = false) throws(DomainError) {
        guard exists else { throw .notFound("pet '\(petId)' does not exist") }
        guard ownerId == actor.userID || (staffMay && actor.isStaff) else {
            throw .forbidden("pet '\(petId)' belongs to another owner; \(actor) may not act on it")
        }
        guard !removed else { throw .invalidState("pet '\(petId)' was removed and accepts no further commands") }
    }
}

extension Streams {
    /// A pet's stream.
    public static func pet(_ petId: String) -> StreamID { named("pet", petId) }
}

extension PetState.HealthIssue: FieldCodable {
    public init(reading r: inout some FieldReader) throws(FieldError) {
        self.init(opened: try HealthIssueOpened(reading: &r), resolved: try r.bool("resolved"))
    }

    public func write(to w: inout some FieldWriter) {
        opened.write(to: &w)
        w.bool("resolved", resolved)
    }
}

extension PetState.Treatment: FieldCodable {
    public init(reading r: inout some FieldReader) throws(FieldError) {
        self.init(started: try TreatmentStarted(reading: &r), ended: try r.bool("ended"))
    }

    public func write(to w: inout some FieldWriter) {
        started.write(to: &w)
        w.bool("ended", ended)
    }
}

