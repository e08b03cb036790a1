public import EventLog

// The pets area: an owner's pet profiles, health, food plan and weight log (stream `pet-<petId>`).

/// The kinds of pet the business cares for.
public enum Species: String, FieldChoice {
    case dog, cat, bird, rabbit, fish, reptile, other
}

/// An owner added a pet.
public struct PetAdded: DomainEvent {
    public static let eventType = "PetAdded"
    public static let area = "pets"
    public static let summary = "An owner added a pet with its species, breed, birth date or age, and weight."
    public var petId: String
    public var ownerId: String
    public var name: String
    public var species: Species
    public var breed: String?
    public var birthDate: Timestamp?
    public var ageMonths: Int64?
    public var weightGrams: Int64?

    public init(
        petId: String, ownerId: String, name: String, species: Species, breed: String? = nil, birthDate: Timestamp? = nil,
        ageMonths: Int64? = nil, weightGrams: Int64? = nil
    ) {
        self.petId = petId
        self.ownerId = ownerId
        self.name = name
        self.species = species
        self.breed = breed
        self.birthDate = birthDate
        self.ageMonths = ageMonths
        self.weightGrams = weightGrams
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        ownerId = try r.string("ownerId")
        name = try r.string("name")
        species = try r.choice("species", Species.self)
        breed = try r.optionalString("breed")
        birthDate = try r.optionalTimestamp("birthDate")
        ageMonths = try r.optionalInt("ageMonths")
        weightGrams = try r.optionalInt("weightGrams")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("ownerId", ownerId)
        w.string("name", name)
        w.choice("species", species)
        w.optionalString("breed", breed)
        w.optionalTimestamp("birthDate", birthDate)
        w.optionalInt("ageMonths", ageMonths)
        w.optionalInt("weightGrams", weightGrams)
    }
}

/// An owner changed a pet's profile. Only the changed fields are present; a birth date replaces an age in months
/// and an age replaces a birth date (a pet has one or the other).
public struct PetEdited: DomainEvent {
    public static let eventType = "PetEdited"
    public static let area = "pets"
    public static let summary =
        "An owner changed a pet's profile; only changed fields are present, and a birth date replaces an age (or back)."
    public var petId: String
    public var name: String?
    public var species: Species?
    public var breed: String?
    public var birthDate: Timestamp?
    public var ageMonths: Int64?
    public var weightGrams: Int64?

    public init(
        petId: String, name: String? = nil, species: Species? = nil, breed: String? = nil, birthDate: Timestamp? = nil,
        ageMonths: Int64? = nil, weightGrams: Int64? = nil
    ) {
        self.petId = petId
        self.name = name
        self.species = species
        self.breed = breed
        self.birthDate = birthDate
        self.ageMonths = ageMonths
        self.weightGrams = weightGrams
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        name = try r.optionalString("name")
        species = try r.optionalChoice("species", Species.self)
        breed = try r.optionalString("breed")
        birthDate = try r.optionalTimestamp("birthDate")
        ageMonths = try r.optionalInt("ageMonths")
        weightGrams = try r.optionalInt("weightGrams")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.optionalString("name", name)
        w.optionalChoice("species", species)
        w.optionalString("breed", breed)
        w.optionalTimestamp("birthDate", birthDate)
        w.optionalInt("ageMonths", ageMonths)
        w.optionalInt("weightGrams", weightGrams)
    }
}

/// An owner removed a pet; it accepts no further commands.
public struct PetRemoved: DomainEvent {
    public static let eventType = "PetRemoved"
    public static let area = "pets"
    public static let summary = "An owner removed a pet; it accepts no further commands."
    public var petId: String

    public init(petId: String) {
        self.petId = petId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
    }
}

// Health profile.

/// A vaccine was given to a pet.
public struct VaccinationRecorded: DomainEvent {
    public static let eventType = "VaccinationRecorded"
    public static let area = "pets"
    public static let summary = "An owner recorded a vaccine given to a pet, with the date given and when the next dose is due."
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
}

/// A health issue of a pet was opened.
public struct HealthIssueOpened: DomainEvent {
    public static let eventType = "HealthIssueOpened"
    public static let area = "pets"
    public static let summary = "An owner opened a health issue of a pet, with a title and notes."
    public var petId: String
    public var issueId: String
    public var title: String
    public var notes: String?

    public init(petId: String, issueId: String, title: String, notes: String? = nil) {
        self.petId = petId
        self.issueId = issueId
        self.title = title
        self.notes = notes
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        issueId = try r.string("issueId")
        title = try r.string("title")
        notes = try r.optionalString("notes")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("issueId", issueId)
        w.string("title", title)
        w.optionalString("notes", notes)
    }
}

/// An open health issue of a pet was resolved.
public struct HealthIssueResolved: DomainEvent {
    public static let eventType = "HealthIssueResolved"
    public static let area = "pets"
    public static let summary = "An owner marked an open health issue of a pet resolved."
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
}

/// The pet's vet and clinic were set (replacing earlier ones).
public struct VetContactSet: DomainEvent {
    public static let eventType = "VetContactSet"
    public static let area = "pets"
    public static let summary = "An owner set a pet's vet and clinic (and phone), replacing the earlier ones."
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
}

/// What a treatment plan gives.
public enum TreatmentKind: String, FieldChoice {
    case medication, supplement
}

/// A treatment plan of a pet started.
public struct TreatmentStarted: DomainEvent {
    public static let eventType = "TreatmentStarted"
    public static let area = "pets"
    public static let summary =
        "An owner started a treatment plan for a pet: medication or supplement, dosage, schedule, start and end."
    public var petId: String
    public var planId: String
    public var kind: TreatmentKind
    public var name: String
    public var dosage: String
    /// When to give it, as people say it ("twice a day with food").
    public var schedule: String
    public var startDate: Timestamp
    public var endDate: Timestamp?

    public init(
        petId: String, planId: String, kind: TreatmentKind, name: String, dosage: String, schedule: String,
        startDate: Timestamp, endDate: Timestamp? = nil
    ) {
        self.petId = petId
        self.planId = planId
        self.kind = kind
        self.name = name
        self.dosage = dosage
        self.schedule = schedule
        self.startDate = startDate
        self.endDate = endDate
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        planId = try r.string("planId")
        kind = try r.choice("kind", TreatmentKind.self)
        name = try r.string("name")
        dosage = try r.string("dosage")
        schedule = try r.string("schedule")
        startDate = try r.timestamp("startDate")
        endDate = try r.optionalTimestamp("endDate")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("planId", planId)
        w.choice("kind", kind)
        w.string("name", name)
        w.string("dosage", dosage)
        w.string("schedule", schedule)
        w.timestamp("startDate", startDate)
        w.optionalTimestamp("endDate", endDate)
    }
}

/// An active treatment plan of a pet ended.
public struct TreatmentEnded: DomainEvent {
    public static let eventType = "TreatmentEnded"
    public static let area = "pets"
    public static let summary = "An owner ended an active treatment plan of a pet."
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
}

/// The pet's next vet appointment was set (replacing an earlier one).
public struct NextVetAppointmentSet: DomainEvent {
    public static let eventType = "NextVetAppointmentSet"
    public static let area = "pets"
    public static let summary = "An owner set a pet's next vet appointment, replacing the earlier one."
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
}

// Food hub.

/// The pet's food plan was set (replacing an earlier one).
public struct FoodPlanSet: DomainEvent {
    public static let eventType = "FoodPlanSet"
    public static let area = "pets"
    public static let summary =
        "An owner set a pet's food, portion in grams and feeding times of day (HH:MM, sorted, distinct)."
    public var petId: String
    public var food: String
    public var portionGrams: Int64
    /// Times of day as `HH:MM`, sorted and distinct.
    public var feedingTimes: [String]

    public init(petId: String, food: String, portionGrams: Int64, feedingTimes: [String]) {
        self.petId = petId
        self.food = food
        self.portionGrams = portionGrams
        self.feedingTimes = feedingTimes
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        food = try r.string("food")
        portionGrams = try r.int("portionGrams")
        feedingTimes = try r.strings("feedingTimes")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("food", food)
        w.int("portionGrams", portionGrams)
        w.strings("feedingTimes", feedingTimes)
    }
}

/// A weighing of the pet was logged.
public struct WeightLogged: DomainEvent {
    public static let eventType = "WeightLogged"
    public static let area = "pets"
    public static let summary = "An owner logged a pet's weight in grams and when it was measured."
    public var petId: String
    public var weightGrams: Int64
    public var measuredAt: Timestamp

    public init(petId: String, weightGrams: Int64, measuredAt: Timestamp) {
        self.petId = petId
        self.weightGrams = weightGrams
        self.measuredAt = measuredAt
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        weightGrams = try r.int("weightGrams")
        measuredAt = try r.timestamp("measuredAt")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.int("weightGrams", weightGrams)
        w.timestamp("measuredAt", measuredAt)
    }
}

/// The pets area's event types, in catalog order.
public enum PetEvents {
    public static let all: [any DomainEvent.Type] = [
        PetAdded.self, PetEdited.self, PetRemoved.self,
        VaccinationRecorded.self, HealthIssueOpened.self, HealthIssueResolved.self, VetContactSet.self,
        TreatmentStarted.self, TreatmentEnded.self, NextVetAppointmentSet.self,
        FoodPlanSet.self, WeightLogged.self,
    ]
}
