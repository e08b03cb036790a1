public import EventLog
public import Events

/// The records the pets read model stores: a pet with its health, food and weight, its bookings and vet requests,
/// and the clock of the last event folded.
extension PetsProjection {
    /// The latest dose of one vaccine.
    public struct Vaccination: FieldCodable, Hashable {
        /// When the latest dose (by the date given) was given.
        public var lastGiven: Timestamp
        /// When the next dose is due, as recorded with the latest dose (`nil`: no further dose).
        public var nextDue: Timestamp?
        /// How many doses were recorded.
        public var doses: Int64

        public init(lastGiven: Timestamp, nextDue: Timestamp?, doses: Int64 = 1) {
            self.lastGiven = lastGiven
            self.nextDue = nextDue
            self.doses = doses
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            lastGiven = try r.timestamp("lastGiven")
            nextDue = try r.optionalTimestamp("nextDue")
            doses = try r.int("doses")
        }

        public func write(to w: inout some FieldWriter) {
            w.timestamp("lastGiven", lastGiven)
            w.optionalTimestamp("nextDue", nextDue)
            w.int("doses", doses)
        }
    }

    /// An open health issue (a resolved one leaves the read model).
    public struct HealthIssue: FieldCodable, Hashable {
        public var title: String
        public var notes: String?
        /// The business time it was opened.
        public var openedAt: Timestamp

        public init(title: String, notes: String? = nil, openedAt: Timestamp) {
            self.title = title
            self.notes = notes
            self.openedAt = openedAt
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            title = try r.string("title")
            notes = try r.optionalString("notes")
            openedAt = try r.timestamp("openedAt")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("title", title)
            w.optionalString("notes", notes)
            w.timestamp("openedAt", openedAt)
        }
    }

    /// A treatment plan not ended (an ended one leaves the read model; one past its end date is hidden by views).
    public struct Treatment: FieldCodable, Hashable {
        public var kind: TreatmentKind
        public var name: String
        public var dosage: String
        public var schedule: String
        public var startDate: Timestamp
        public var endDate: Timestamp?

        public init(kind: TreatmentKind, name: String, dosage: String, schedule: String, startDate: Timestamp, endDate: Timestamp? = nil) {
            self.kind = kind
            self.name = name
            self.dosage = dosage
            self.schedule = schedule
            self.startDate = startDate
            self.endDate = endDate
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            kind = try r.choice("kind", TreatmentKind.self)
            name = try r.string("name")
            dosage = try r.string("dosage")
            schedule = try r.string("schedule")
            startDate = try r.timestamp("startDate")
            endDate = try r.optionalTimestamp("endDate")
        }

        public func write(to w: inout some FieldWriter) {
            w.choice("kind", kind)
            w.string("name", name)
            w.string("dosage", dosage)
            w.string("schedule", schedule)
            w.timestamp("startDate", startDate)
            w.optionalTimestamp("endDate", endDate)
        }

        /// Whether it still runs at a moment: not past its end date (a plan may start later: it is then planned).
        public func isCurrent(at now: Timestamp) -> Bool {
            endDate.map { now < $0 } ?? true
        }
    }

    /// The pet's vet and clinic.
    public struct VetContact: FieldCodable, Hashable {
        public var vetName: String
        public var clinic: String
        public var phone: String?

        public init(vetName: String, clinic: String, phone: String? = nil) {
            self.vetName = vetName
            self.clinic = clinic
            self.phone = phone
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            vetName = try r.string("vetName")
            clinic = try r.string("clinic")
            phone = try r.optionalString("phone")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("vetName", vetName)
            w.string("clinic", clinic)
            w.optionalString("phone", phone)
        }
    }

    /// The pet's next vet appointment.
    public struct Appointment: FieldCodable, Hashable {
        public var at: Timestamp
        public var reason: String?

        public init(at: Timestamp, reason: String? = nil) {
            self.at = at
            self.reason = reason
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            at = try r.timestamp("at")
            reason = try r.optionalString("reason")
        }

        public func write(to w: inout some FieldWriter) {
            w.timestamp("at", at)
            w.optionalString("reason", reason)
        }
    }

    /// The pet's food plan.
    public struct FoodPlan: FieldCodable, Hashable {
        public var food: String
        public var portionGrams: Int64
        /// `HH:MM`, sorted and distinct (the domain's rule).
        public var feedingTimes: [String]

        public init(food: String, portionGrams: Int64, feedingTimes: [String]) {
            self.food = food
            self.portionGrams = portionGrams
            self.feedingTimes = feedingTimes
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            food = try r.string("food")
            portionGrams = try r.int("portionGrams")
            feedingTimes = try r.strings("feedingTimes")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("food", food)
            w.int("portionGrams", portionGrams)
            w.strings("feedingTimes", feedingTimes)
        }
    }

    /// One weight log entry.
    public struct Weighing: FieldCodable, Hashable {
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

    /// One grooming booking.
    public struct Booking: FieldCodable, Hashable {
        public var petId: String
        public var service: GroomingService
        /// The current slot (a reschedule moves it).
        public var slot: Timestamp
        public var status: BookingStatus
        /// When the owner's reminder is due (24 h before the slot): set only while the booking is confirmed.
        public var reminderDueAt: Timestamp?
        /// The business time it was requested.
        public var requestedAt: Timestamp

        public init(
            petId: String, service: GroomingService, slot: Timestamp, status: BookingStatus = .requested, reminderDueAt: Timestamp? = nil,
            requestedAt: Timestamp
        ) {
            self.petId = petId
            self.service = service
            self.slot = slot
            self.status = status
            self.reminderDueAt = reminderDueAt
            self.requestedAt = requestedAt
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            petId = try r.string("petId")
            service = try r.choice("service", GroomingService.self)
            slot = try r.timestamp("slot")
            status = try r.choice("status", BookingStatus.self)
            reminderDueAt = try r.optionalTimestamp("reminderDueAt")
            requestedAt = try r.timestamp("requestedAt")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("petId", petId)
            w.choice("service", service)
            w.timestamp("slot", slot)
            w.choice("status", status)
            w.optionalTimestamp("reminderDueAt", reminderDueAt)
            w.timestamp("requestedAt", requestedAt)
        }
    }

    /// One vet request.
    public struct VetRequest: FieldCodable, Hashable {
        public var petId: String
        public var symptoms: String
        public var urgency: VetUrgency
        public var preferredTime: Timestamp?
        public var status: VetRequestStatus
        /// The business time it was submitted.
        public var submittedAt: Timestamp
        /// How many answers staff gave.
        public var answers: Int64
        /// The latest answer.
        public var lastAnswer: String?

        public init(
            petId: String, symptoms: String, urgency: VetUrgency, preferredTime: Timestamp? = nil, status: VetRequestStatus = .submitted,
            submittedAt: Timestamp, answers: Int64 = 0, lastAnswer: String? = nil
        ) {
            self.petId = petId
            self.symptoms = symptoms
            self.urgency = urgency
            self.preferredTime = preferredTime
            self.status = status
            self.submittedAt = submittedAt
            self.answers = answers
            self.lastAnswer = lastAnswer
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            petId = try r.string("petId")
            symptoms = try r.string("symptoms")
            urgency = try r.choice("urgency", VetUrgency.self)
            preferredTime = try r.optionalTimestamp("preferredTime")
            status = try r.choice("status", VetRequestStatus.self)
            submittedAt = try r.timestamp("submittedAt")
            answers = try r.int("answers")
            lastAnswer = try r.optionalString("lastAnswer")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("petId", petId)
            w.string("symptoms", symptoms)
            w.choice("urgency", urgency)
            w.optionalTimestamp("preferredTime", preferredTime)
            w.choice("status", status)
            w.timestamp("submittedAt", submittedAt)
            w.int("answers", answers)
            w.optionalString("lastAnswer", lastAnswer)
        }
    }

    /// One pet.
    public struct Pet: FieldCodable, Hashable {
        public var ownerId: String
        public var name: String
        public var species: Species
        public var breed: String?
        /// The birth date, when known (a pet has a birth date or an age, not both).
        public var birthDate: Timestamp?
        /// The age in months as given, when the birth date is unknown ...
        public var ageMonths: Int64?
        /// ... and the business time it was given, so views can age it.
        public var ageGivenAt: Timestamp?
        /// The profile weight.
        public var weightGrams: Int64?
        public var removed: Bool
        /// The business time it was added.
        public var addedAt: Timestamp
        /// Vaccinations by vaccine name.
        public var vaccinations: [String: Vaccination]
        /// Open health issues by issue id.
        public var openIssues: [String: HealthIssue]
        /// Treatment plans not ended, by plan id.
        public var treatments: [String: Treatment]
        public var vet: VetContact?
        public var nextVetAppointment: Appointment?
        public var foodPlan: FoodPlan?
        /// The weight log in the order logged (views sort it by the time measured).
        public var weighings: [Weighing]
        /// The pet's bookings (see ``State/bookings``), in the order requested.
        public var bookingIds: [String]
        /// The pet's vet requests (see ``State/vetRequests``), in the order submitted.
        public var vetRequestIds: [String]

        public init(
            ownerId: String, name: String, species: Species, breed: String? = nil, birthDate: Timestamp? = nil,
            ageMonths: Int64? = nil, ageGivenAt: Timestamp? = nil, weightGrams: Int64? = nil, removed: Bool = false,
            addedAt: Timestamp, vaccinations: [String: Vaccination] = [:], openIssues: [String: HealthIssue] = [:],
            treatments: [String: Treatment] = [:], vet: VetContact? = nil, nextVetAppointment: Appointment? = nil,
            foodPlan: FoodPlan? = nil, weighings: [Weighing] = [], bookingIds: [String] = [],
            vetRequestIds: [String] = []
        ) {
            self.ownerId = ownerId
            self.name = name
            self.species = species
            self.breed = breed
            self.birthDate = birthDate
            self.ageMonths = ageMonths
            self.ageGivenAt = ageGivenAt
            self.weightGrams = weightGrams
            self.removed = removed
            self.addedAt = addedAt
            self.vaccinations = vaccinations
            self.openIssues = openIssues
            self.treatments = treatments
            self.vet = vet
            self.nextVetAppointment = nextVetAppointment
            self.foodPlan = foodPlan
            self.weighings = weighings
            self.bookingIds = bookingIds
            self.vetRequestIds = vetRequestIds
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            ownerId = try r.string("ownerId")
            name = try r.string("name")
            species = try r.choice("species", Species.self)
            breed = try r.optionalString("breed")
            birthDate = try r.optionalTimestamp("birthDate")
            ageMonths = try r.optionalInt("ageMonths")
            ageGivenAt = try r.optionalTimestamp("ageGivenAt")
            weightGrams = try r.optionalInt("weightGrams")
            removed = try r.bool("removed")
            addedAt = try r.timestamp("addedAt")
            vaccinations = try r.keyed("vaccinations", Vaccination.self)
            openIssues = try r.keyed("openIssues", HealthIssue.self)
            treatments = try r.keyed("treatments", Treatment.self)
            // Optional records are written as lists of none or one.
            vet = try r.records("vet", VetContact.self).first
            nextVetAppointment = try r.records("nextVetAppointment", Appointment.self).first
            foodPlan = try r.records("foodPlan", FoodPlan.self).first
            weighings = try r.records("weighings", Weighing.self)
            bookingIds = try r.strings("bookingIds")
            vetRequestIds = try r.strings("vetRequestIds")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("ownerId", ownerId)
            w.string("name", name)
            w.choice("species", species)
            w.optionalString("breed", breed)
            w.optionalTimestamp("birthDate", birthDate)
            w.optionalInt("ageMonths", ageMonths)
            w.optionalTimestamp("ageGivenAt", ageGivenAt)
            w.optionalInt("weightGrams", weightGrams)
            w.bool("removed", removed)
            w.timestamp("addedAt", addedAt)
            w.keyed("vaccinations", vaccinations)
            w.keyed("openIssues", openIssues)
            w.keyed("treatments", treatments)
            w.records("vet", vet.map { [$0] } ?? [])
            w.records("nextVetAppointment", nextVetAppointment.map { [$0] } ?? [])
            w.records("foodPlan", foodPlan.map { [$0] } ?? [])
            w.records("weighings", weighings)
            w.strings("bookingIds", bookingIds)
            w.strings("vetRequestIds", vetRequestIds)
        }
    }

    /// The business time of the last event folded, as a record.
    public struct Clock: FieldCodable, Hashable {
        public var lastEventAt: Timestamp

        public init(_ lastEventAt: Timestamp) {
            self.lastEventAt = lastEventAt
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            lastEventAt = try r.timestamp("lastEventAt")
        }

        public func write(to w: inout some FieldWriter) {
            w.timestamp("lastEventAt", lastEventAt)
        }
    }
}
