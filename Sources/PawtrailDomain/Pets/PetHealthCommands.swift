public import EventLog
public import Events

// The health profile of a pet: vaccinations, health issues, vet and clinic, treatment plans and the next vet
// appointment. Only the pet's owner issues these, and only while the pet is not removed.

/// `pet.record-vaccination`: record a vaccine given to the pet.
public struct RecordVaccination: PetCommand, Hashable {
    public static let name = "pet.record-vaccination"
    public static let staffMayActFor = true
    public static let summary = "Record a vaccine given to your pet: the date given and, optionally, when the next dose is due."

    public var petId: String
    public var vaccine: String
    public var givenOn: Timestamp
    public var nextDue: Timestamp?

    public init(petId: String, vaccine: String, givenOn: Timestamp, nextDue: Timestamp? = nil) {
        self.petId = petId
        self.vaccine = vaccine
        self.givenOn = givenOn
        self.nextDue = nextDue
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        vaccine = try r.string("vaccine")
        givenOn = try r.timestamp("givenOn")
        nextDue = try r.optionalTimestamp("nextDue")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("vaccine", vaccine)
        w.timestamp("givenOn", givenOn)
        w.optionalTimestamp("nextDue", nextDue)
    }

    /// The pure decision: the very same record again is a re-send and appends nothing.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        let cleanVaccine = try Validate.text(vaccine, field: "vaccine", max: 100)
        try PetRules.notFuture(givenOn, field: "givenOn", now: context.now)
        if let nextDue, nextDue <= givenOn {
            throw .invalid(field: "nextDue", reason: "\(nextDue.iso8601) is not after givenOn (\(givenOn.iso8601))")
        }
        try pet.checkActive(petId, actor: context.principal)
        let event = VaccinationRecorded(petId: petId, vaccine: cleanVaccine, givenOn: givenOn, nextDue: nextDue)
        guard !pet.vaccinations.contains(event) else { return .nothing }
        return .append(Streams.pet(petId), event)
    }
}

/// `pet.open-health-issue`: open a health issue of the pet; its id is generated.
public struct OpenHealthIssue: PetCommand, Hashable {
    public static let name = "pet.open-health-issue"
    public static let staffMayActFor = true
    public static let summary = "Open a health issue of your pet with a title and notes; its id is generated."

    public var petId: String
    public var title: String
    public var notes: String?

    public init(petId: String, title: String, notes: String? = nil) {
        self.petId = petId
        self.title = title
        self.notes = notes
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        title = try r.string("title")
        notes = try r.optionalString("notes")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("title", title)
        w.optionalString("notes", notes)
    }

    /// The pure decision. The issue id derives from the command id, so a re-sent command finds its issue and
    /// appends nothing.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        let issueId = context.newID("hi")
        let cleanTitle = try Validate.text(title, field: "title", max: 100)
        let cleanNotes = try notes.map { (n) throws(DomainError) in try Validate.text(n, field: "notes", max: 2_000) }
        try pet.checkActive(petId, actor: context.principal)
        let event = HealthIssueOpened(petId: petId, issueId: issueId, title: cleanTitle, notes: cleanNotes)
        if let existing = pet.healthIssues[issueId] {
            if existing.opened == event { return .nothing }
            throw .alreadyExists("health issue '\(issueId)' of pet '\(petId)' exists already")
        }
        return .append(Streams.pet(petId), event)
    }
}

/// `pet.resolve-health-issue`: mark an open health issue resolved.
public struct ResolveHealthIssue: PetCommand, Hashable {
    public static let name = "pet.resolve-health-issue"
    public static let staffMayActFor = true
    public static let summary = "Mark an open health issue of your pet resolved."

    public var petId: String
    public var issueId: String

    public init(petId: String, issueId: String) {
        self.petId = petId
        self.issueId = issueId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        issueId = try r.string("issueId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("issueId", issueId)
    }

    /// The pure decision.
    ///
    /// - Throws: ``DomainError/notFound(_:)`` for an unknown issue, ``DomainError/invalidState(_:)`` for a resolved one.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        try Validate.id(issueId, field: "issueId")
        try pet.checkActive(petId, actor: context.principal)
        guard let issue = pet.healthIssues[issueId] else {
            throw .notFound("health issue '\(issueId)' of pet '\(petId)' does not exist")
        }
        guard !issue.resolved else {
            throw .invalidState("health issue '\(issueId)' of pet '\(petId)' is resolved; only an open issue can be resolved")
        }
        return .append(Streams.pet(petId), HealthIssueResolved(petId: petId, issueId: issueId))
    }
}

/// `pet.set-vet`: set the pet's vet and clinic, replacing the earlier ones.
public struct SetVet: PetCommand, Hashable {
    public static let name = "pet.set-vet"
    public static let staffMayActFor = true
    public static let summary = "Set your pet's vet, clinic and the clinic's phone, replacing the earlier ones."

    public var petId: String
    public var vetName: String
    public var clinic: String
    public var phone: String?

    public init(petId: String, vetName: String, clinic: String, phone: String? = nil) {
        self.petId = petId
        self.vetName = vetName
        self.clinic = clinic
        self.phone = phone
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        vetName = try r.string("vetName")
        clinic = try r.string("clinic")
        phone = try r.optionalString("phone")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("vetName", vetName)
        w.string("clinic", clinic)
        w.optionalString("phone", phone)
    }

    /// The pure decision; the same vet, clinic and phone again append nothing.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        let cleanVet = try Validate.text(vetName, field: "vetName", max: 100)
        let cleanClinic = try Validate.text(clinic, field: "clinic", max: 100)
        let cleanPhone = try phone.map { (p) throws(DomainError) in try Validate.phone(p, field: "phone") }
        try pet.checkActive(petId, actor: context.principal)
        let event = VetContactSet(petId: petId, vetName: cleanVet, clinic: cleanClinic, phone: cleanPhone)
        guard pet.vet != event else { return .nothing }
        return .append(Streams.pet(petId), event)
    }
}

/// `pet.start-treatment`: start a medication or supplement plan; its id is generated.
public struct StartTreatment: PetCommand, Hashable {
    public static let name = "pet.start-treatment"
    public static let staffMayActFor = true
    public static let summary =
        "Start a treatment plan for your pet: medication or supplement, dosage, schedule, start and end; its id is generated."

    public var petId: String
    public var kind: TreatmentKind
    public var name: String
    public var dosage: String
    public var schedule: String
    public var startDate: Timestamp
    public var endDate: Timestamp?

    public init(
        petId: String, kind: TreatmentKind, name: String, dosage: String, schedule: String, startDate: Timestamp,
        endDate: Timestamp? = nil
    ) {
        self.petId = petId
        self.kind = kind
        self.name = name
        self.dosage = dosage
        self.schedule = schedule
        self.startDate = startDate
        self.endDate = endDate
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        kind = try r.choice("kind", TreatmentKind.self)
        name = try r.string("name")
        dosage = try r.string("dosage")
        schedule = try r.string("schedule")
        startDate = try r.timestamp("startDate")
        endDate = try r.optionalTimestamp("endDate")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.choice("kind", kind)
        w.string("name", name)
        w.string("dosage", dosage)
        w.string("schedule", schedule)
        w.timestamp("startDate", startDate)
        w.optionalTimestamp("endDate", endDate)
    }

    /// The pure decision. The plan id derives from the command id, so a re-sent command finds its plan and
    /// appends nothing.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        let planId = context.newID("tp")
        let cleanName = try Validate.text(name, field: "name", max: 100)
        let cleanDosage = try Validate.text(dosage, field: "dosage", max: 100)
        let cleanSchedule = try Validate.text(schedule, field: "schedule", max: 200)
        if let endDate, endDate <= startDate {
            throw .invalid(field: "endDate", reason: "\(endDate.iso8601) is not after startDate (\(startDate.iso8601))")
        }
        try pet.checkActive(petId, actor: context.principal)
        let event = TreatmentStarted(
            petId: petId, planId: planId, kind: kind, name: cleanName, dosage: cleanDosage, schedule: cleanSchedule,
            startDate: startDate, endDate: endDate)
        if let existing = pet.treatments[planId] {
            if existing.started == event { return .nothing }
            throw .alreadyExists("treatment plan '\(planId)' of pet '\(petId)' exists already")
        }
        return .append(Streams.pet(petId), event)
    }
}

/// `pet.end-treatment`: end an active treatment plan.
public struct EndTreatment: PetCommand, Hashable {
    public static let name = "pet.end-treatment"
    public static let staffMayActFor = true
    public static let summary = "End an active treatment plan of your pet."

    public var petId: String
    public var planId: String

    public init(petId: String, planId: String) {
        self.petId = petId
        self.planId = planId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        planId = try r.string("planId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("planId", planId)
    }

    /// The pure decision. A plan stays active until ended by this command, even past its planned end date: the
    /// owner says when the course really stopped.
    ///
    /// - Throws: ``DomainError/notFound(_:)`` for an unknown plan, ``DomainError/invalidState(_:)`` for an ended one.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        try Validate.id(planId, field: "planId")
        try pet.checkActive(petId, actor: context.principal)
        guard let plan = pet.treatments[planId] else {
            throw .notFound("treatment plan '\(planId)' of pet '\(petId)' does not exist")
        }
        guard !plan.ended else {
            throw .invalidState("treatment plan '\(planId)' of pet '\(petId)' has ended; only an active plan can be ended")
        }
        return .append(Streams.pet(petId), TreatmentEnded(petId: petId, planId: planId))
    }
}

/// `pet.set-next-vet-appointment`: set when the pet next sees the vet, replacing the earlier appointment.
public struct SetNextVetAppointment: PetCommand, Hashable {
    public static let name = "pet.set-next-vet-appointment"
    public static let staffMayActFor = true
    public static let summary = "Set your pet's next vet appointment (a future time) and its reason."

    public var petId: String
    public var at: Timestamp
    public var reason: String?

    public init(petId: String, at: Timestamp, reason: String? = nil) {
        self.petId = petId
        self.at = at
        self.reason = reason
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        at = try r.timestamp("at")
        reason = try r.optionalString("reason")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.timestamp("at", at)
        w.optionalString("reason", reason)
    }

    /// The pure decision; the same appointment again appends nothing.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        try Validate.future(at, field: "at", now: context.now)
        let cleanReason = try reason.map { (r) throws(DomainError) in try Validate.text(r, field: "reason", max: 200) }
        try pet.checkActive(petId, actor: context.principal)
        let event = NextVetAppointmentSet(petId: petId, at: at, reason: cleanReason)
        guard pet.nextVetAppointment != event else { return .nothing }
        return .append(Streams.pet(petId), event)
    }
}
