import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

@Suite("Pets projection")
struct PetsProjectionTests {
    static func t(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    /// The moment most checks look from: 2026-12-01T09:00:00Z.
    static let now = "2026-12-01T09:00:00Z"

    /// Alice's dog Rex with a full health profile, food plan, weight log, seven bookings in every state and two vet
    /// requests; her cat Tom; Bob's rabbit Bo. The last event happens at 2026-11-30T12:00:00Z.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given(
            "pet-p-rex",
            PetAdded(petId: "p-rex", ownerId: "u-alice", name: "Rex", species: .dog, breed: "Beagle", ageMonths: 14, weightGrams: 12_500),
            at: "2026-01-10T10:00:00Z")
        s.given("pet-p-tom", PetAdded(petId: "p-tom", ownerId: "u-alice", name: "Tom", species: .cat, birthDate: t("2024-03-15")))
        s.given("pet-p-bo", PetAdded(petId: "p-bo", ownerId: "u-bob", name: "Bo", species: .rabbit))

        // Vaccinations: the edges of "due within 30 days" of 2026-12-01T09:00:00Z.
        let rex = "pet-p-rex"
        s.given(rex, VaccinationRecorded(petId: "p-rex", vaccine: "Rabies", givenOn: t("2025-12-31T09:00:00Z"), nextDue: t("2026-12-31T09:00:00Z")), at: "2026-11-01T08:00:00Z")
        s.given(rex, VaccinationRecorded(petId: "p-rex", vaccine: "Rabies", givenOn: t("2024-12-31"), nextDue: t("2025-12-31")))
        s.given(rex, VaccinationRecorded(petId: "p-rex", vaccine: "Leptospirosis", givenOn: t("2025-12-31"), nextDue: t("2026-12-31T09:00:01Z")))
        s.given(rex, VaccinationRecorded(petId: "p-rex", vaccine: "Parvo", givenOn: t("2025-11-30"), nextDue: t("2026-11-30")))
        s.given(rex, VaccinationRecorded(petId: "p-rex", vaccine: "Distemper", givenOn: t("2025-12-01"), nextDue: t("2026-12-01T09:00:00Z")))
        s.given(rex, VaccinationRecorded(petId: "p-rex", vaccine: "Kennel cough", givenOn: t("2026-06-01")))

        // Health issues and treatments.
        s.given(rex, HealthIssueOpened(petId: "p-rex", issueId: "i-1", title: "Itchy ears", notes: "scratching at night"), at: "2026-11-20T10:00:00Z")
        s.given(rex, HealthIssueOpened(petId: "p-rex", issueId: "i-2", title: "Limp"), at: "2026-11-21T10:00:00Z")
        s.given(rex, HealthIssueResolved(petId: "p-rex", issueId: "i-2"))
        s.given(rex, TreatmentStarted(petId: "p-rex", planId: "t-1", kind: .medication, name: "Otomax", dosage: "5 drops", schedule: "twice a day", startDate: t("2026-11-20"), endDate: t("2026-12-04")))
        s.given(rex, TreatmentStarted(petId: "p-rex", planId: "t-2", kind: .supplement, name: "Fish oil", dosage: "1 capsule", schedule: "daily with food", startDate: t("2026-10-01")))
        s.given(rex, TreatmentStarted(petId: "p-rex", planId: "t-3", kind: .medication, name: "Antibiotic", dosage: "50 mg", schedule: "once a day", startDate: t("2026-11-01"), endDate: t("2026-11-10")))
        s.given(rex, TreatmentStarted(petId: "p-rex", planId: "t-4", kind: .medication, name: "Dewormer", dosage: "1 tablet", schedule: "once", startDate: t("2026-12-05"), endDate: t("2026-12-06")))
        s.given(rex, TreatmentStarted(petId: "p-rex", planId: "t-5", kind: .medication, name: "Painkiller", dosage: "10 mg", schedule: "as needed", startDate: t("2026-11-21")))
        s.given(rex, TreatmentEnded(petId: "p-rex", planId: "t-5"))
        s.given(rex, VetContactSet(petId: "p-rex", vetName: "Dr Roy", clinic: "Old Clinic"))
        s.given(rex, VetContactSet(petId: "p-rex", vetName: "Dr Rahman", clinic: "Paws Clinic", phone: "+880 1711 000000"))
        s.given(rex, NextVetAppointmentSet(petId: "p-rex", at: t("2026-12-05T10:00:00Z"), reason: "Ear check"))
        s.given(rex, FoodPlanSet(petId: "p-rex", food: "Lamb & rice", portionGrams: 120, feedingTimes: ["08:00", "18:00"]))

        // The weight log, one entry logged late.
        s.given(rex, WeightLogged(petId: "p-rex", weightGrams: 12_500, measuredAt: t("2026-09-01T08:00:00Z")))
        s.given(rex, WeightLogged(petId: "p-rex", weightGrams: 12_800, measuredAt: t("2026-11-01T08:00:00Z")))
        s.given(rex, WeightLogged(petId: "p-rex", weightGrams: 12_600, measuredAt: t("2026-10-01T08:00:00Z")))
        s.given(rex, WeightLogged(petId: "p-rex", weightGrams: 13_100, measuredAt: t("2026-11-28T08:00:00Z")))

        // Bookings in every state; reminders are due 24 h before the slot.
        func requested(_ id: String, _ service: GroomingService, _ slot: String) {
            s.given("booking-\(id)", BookingRequested(bookingId: id, petId: "p-rex", ownerId: "u-alice", service: service, slot: t(slot)))
        }
        func confirmed(_ id: String, _ slot: String, reminder: String) {
            s.given("booking-\(id)", BookingConfirmed(bookingId: id, slot: t(slot), reminderDueAt: t(reminder), confirmedBy: "u-sam"))
        }
        requested("b-1", .bath, "2026-12-03T10:00:00Z")
        requested("b-2", .fullGroom, "2026-12-04T10:00:00Z")
        confirmed("b-2", "2026-12-04T10:00:00Z", reminder: "2026-12-03T10:00:00Z")
        requested("b-3", .bath, "2026-12-05T10:00:00Z")
        confirmed("b-3", "2026-12-05T10:00:00Z", reminder: "2026-12-04T10:00:00Z")
        s.given("booking-b-3", BookingRescheduled(bookingId: "b-3", previousSlot: t("2026-12-05T10:00:00Z"), slot: t("2026-12-06T10:00:00Z"), rescheduledBy: "u-alice"))
        requested("b-4", .deShedding, "2026-12-07T10:00:00Z")
        confirmed("b-4", "2026-12-07T10:00:00Z", reminder: "2026-12-06T10:00:00Z")
        s.given("booking-b-4", BookingCancelled(bookingId: "b-4", cancelledBy: "u-alice", reason: "travelling"))
        requested("b-5", .bath, "2026-11-20T10:00:00Z")
        confirmed("b-5", "2026-11-20T10:00:00Z", reminder: "2026-11-19T10:00:00Z")
        s.given("booking-b-5", BookingCompleted(bookingId: "b-5", completedBy: "u-sam"))
        requested("b-6", .nailTrim, "2026-12-01T20:00:00Z")
        confirmed("b-6", "2026-12-01T20:00:00Z", reminder: "2026-11-30T20:00:00Z")
        requested("b-7", .haircut, "2026-12-02T09:00:00Z")
        confirmed("b-7", "2026-12-02T09:00:00Z", reminder: "2026-12-01T09:00:00Z")

        // Vet requests.
        s.given("vet-v-1", VetRequestSubmitted(requestId: "v-1", petId: "p-rex", ownerId: "u-alice", symptoms: "Coughing", urgency: .urgent, preferredTime: t("2026-11-29T10:00:00Z")), at: "2026-11-26T10:00:00Z")
        s.given("vet-v-1", VetRequestAnswered(requestId: "v-1", answer: "Keep him warm", answeredBy: "u-vet"))
        s.given("vet-v-1", VetRequestAnswered(requestId: "v-1", answer: "Bring him in", answeredBy: "u-vet"))
        s.given("vet-v-2", VetRequestSubmitted(requestId: "v-2", petId: "p-rex", ownerId: "u-alice", symptoms: "Sneezing", urgency: .low), at: "2026-11-27T10:00:00Z")
        s.given("vet-v-2", VetRequestAnswered(requestId: "v-2", answer: "Dust; nothing to worry about", answeredBy: "u-vet"))
        s.given("vet-v-2", VetRequestClosed(requestId: "v-2", closedBy: "u-vet"))

        s.given(rex, PetEdited(petId: "p-rex", weightGrams: 13_100), at: "2026-11-30T12:00:00Z")
        return s
    }

    static let profileRows: [[String]] = [
        ["profile", "name", "Rex"], ["profile", "owner", "u-alice"], ["profile", "species", "dog"], ["profile", "breed", "Beagle"],
        ["profile", "age", "2 years (14 months on 2026-01-10)"], ["profile", "weight", "13.1 kg"], ["profile", "status", "active"],
    ]

    static let careRows: [[String]] = [
        ["open issue", "Itchy ears", "opened 2026-11-20: scratching at night"],
        ["treatment", "Fish oil", "supplement, 1 capsule, daily with food; from 2026-10-01"],
        ["treatment", "Otomax", "medication, 5 drops, twice a day; 2026-11-20 to 2026-12-04"],
        ["treatment", "Dewormer", "medication, 1 tablet, once; 2026-12-05 to 2026-12-06 (planned)"],
        ["vet", "Dr Rahman", "Paws Clinic, +880 1711 000000"],
        ["vet appointment", "2026-12-05 10:00", "Ear check"],
        ["food plan", "Lamb & rice", "120 g at 08:00, 18:00"],
        ["weight", "2026-09-01 08:00", "12.5 kg"], ["weight", "2026-10-01 08:00", "12.6 kg"],
        ["weight", "2026-11-01 08:00", "12.8 kg"], ["weight", "2026-11-28 08:00", "13.1 kg"],
        ["weight trend", "last 4 weighings", "+0.6 kg over 88 days"],
        ["booking", "b-5", "bath on 2026-11-20 10:00, completed"],
        ["booking", "b-6", "nail-trim on 2026-12-01 20:00, confirmed"],
        ["booking", "b-7", "haircut on 2026-12-02 09:00, confirmed"],
        ["booking", "b-1", "bath on 2026-12-03 10:00, requested"],
        ["booking", "b-2", "full-groom on 2026-12-04 10:00, confirmed"],
        ["booking", "b-3", "bath on 2026-12-06 10:00, requested"],
        ["booking", "b-4", "de-shedding on 2026-12-07 10:00, cancelled"],
    ]

    static let vetRequestRows: [[String]] = [
        ["vet request", "v-1", "answered (2 answers), urgent: Coughing"],
        ["vet request", "v-2", "closed (1 answer), low: Sneezing"],
    ]

    static func rows(_ out: ViewOutput, _ section: String) -> [[String]] { out.rows.filter { $0[0] == section } }

    /// The elements of a JSON array (none for anything else).
    static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items) = value { return items }
        return []
    }

    @Test func thePetViewShowsEverySectionAsOfNow() throws {
        let out = try Self.scenario().view(PetView.self, ["id": "p-rex", "now": Self.now])
        #expect(out.title == "Pet p-rex: Rex")
        #expect(out.header == ["SECTION", "ITEM", "DETAIL"])
        let vaccinations: [[String]] = [
            ["vaccination", "Parvo", "last given 2025-11-30, next due 2026-11-30 (overdue)"],
            ["vaccination", "Distemper", "last given 2025-12-01, next due 2026-12-01 (due soon)"],
            ["vaccination", "Rabies", "last given 2025-12-31, next due 2026-12-31 (due soon)"],
            ["vaccination", "Leptospirosis", "last given 2025-12-31, next due 2026-12-31"],
            ["vaccination", "Kennel cough", "last given 2026-06-01, no further dose"],
        ]
        let reminders: [[String]] = [
            ["reminder", "b-7", "due 2026-12-01 09:00 for haircut on 2026-12-02 09:00"],
            ["reminder", "b-2", "due 2026-12-03 10:00 for full-groom on 2026-12-04 10:00"],
        ]
        #expect(out.rows == Self.profileRows + vaccinations + Self.careRows + reminders + Self.vetRequestRows)
        #expect(out.footer == ["now 2026-12-01T09:00:00Z; vaccinations due within 30 days are marked"])
    }

    @Test func dueSoonIncludesTheThirtiethDayAndOverdueDosesButNotASecondLater() throws {
        let s = Self.scenario()
        func due(_ now: String) throws -> JSONValue? {
            try s.view(PetView.self, ["id": "p-rex", "now": now]).json["health"]?["vaccinationsDue"]
        }
        func entry(_ vaccine: String, _ next: String, overdue: Bool = false) -> JSONValue {
            .object(["vaccine": .string(vaccine), "nextDue": .string(next), "overdue": .bool(overdue)])
        }
        #expect(
            try due(Self.now)
                == .array([
                    entry("Parvo", "2026-11-30T00:00:00Z", overdue: true), entry("Distemper", "2026-12-01T09:00:00Z"),
                    entry("Rabies", "2026-12-31T09:00:00Z"),
                ]))
        // One second later the 30-day window reaches Leptospirosis, and Distemper's due moment has passed.
        #expect(
            try due("2026-12-01T09:00:01Z")
                == .array([
                    entry("Parvo", "2026-11-30T00:00:00Z", overdue: true), entry("Distemper", "2026-12-01T09:00:00Z", overdue: true),
                    entry("Rabies", "2026-12-31T09:00:00Z"), entry("Leptospirosis", "2026-12-31T09:00:01Z"),
                ]))
        // A month earlier only Parvo is within 30 days.
        #expect(try due("2026-10-31T00:00:00Z") == .array([entry("Parvo", "2026-11-30T00:00:00Z")]))
    }

    @Test func theLatestDoseDecidesWhenAVaccineIsDueAndOlderDosesOnlyCount() throws {
        let state = try Self.scenario().state(PetsProjection.self)
        let rex = try #require(state.pets["p-rex"])
        #expect(rex.vaccinations["Rabies"] == PetsProjection.Vaccination(lastGiven: Self.t("2025-12-31T09:00:00Z"), nextDue: Self.t("2026-12-31T09:00:00Z"), doses: 2))
        #expect(rex.vaccinations["Kennel cough"] == PetsProjection.Vaccination(lastGiven: Self.t("2026-06-01"), nextDue: nil))
        #expect(rex.openIssues == ["i-1": PetsProjection.HealthIssue(title: "Itchy ears", notes: "scratching at night", openedAt: Self.t("2026-11-20T10:00:00Z"))])
        #expect(rex.treatments.keys.sorted() == ["t-1", "t-2", "t-3", "t-4"], "an ended plan leaves; one past its end date stays for time travel")
        #expect(rex.vet == PetsProjection.VetContact(vetName: "Dr Rahman", clinic: "Paws Clinic", phone: "+880 1711 000000"))
        #expect(rex.weighings.map(\.weightGrams) == [12_500, 12_800, 12_600, 13_100], "kept in the order logged; views sort")
        #expect(state.lastEventAt == Self.t("2026-11-30T12:00:00Z"))
    }

    @Test func theDefaultNowIsTheTimeOfTheLastEventFolded() throws {
        // The last event happened at 2026-11-30T12:00:00Z: Distemper is due soon, not overdue, and b-6's reminder
        // (2026-11-30T20:00) is still to come; Rex was given as 14 months old on 2026-01-10.
        let out = try Self.scenario().view(PetView.self, ["id": "p-rex"])
        #expect(out.footer == ["now 2026-11-30T12:00:00Z; vaccinations due within 30 days are marked"])
        #expect(
            Self.rows(out, "vaccination").prefix(2)
                == [
                    ["vaccination", "Parvo", "last given 2025-11-30, next due 2026-11-30 (overdue)"],
                    ["vaccination", "Distemper", "last given 2025-12-01, next due 2026-12-01 (due soon)"],
                ])
        #expect(Self.rows(out, "reminder").map { $0[1] } == ["b-6", "b-7", "b-2"])
        #expect(out.json["now"] == .string("2026-11-30T12:00:00Z"))
        #expect(out.json["ageMonths"] == .int(24))
    }

    @Test func aViewOfAnEarlierMomentMeansWhatItMeantThen() throws {
        // Time travel folds a prefix of the log: the default now is then the time of the last event of that prefix.
        let all = Self.scenario()
        var early = ProjectionScenario()
        for e in all.events.prefix(while: { $0.occurredAt < Self.t("2026-11-20T10:00:00Z") }) {
            early.given(e.stream.description, e.event, at: e.occurredAt.iso8601)
        }
        let out = try early.view(PetView.self, ["id": "p-rex"])
        #expect(out.footer == ["now 2026-11-01T08:05:00Z; vaccinations due within 30 days are marked"])
        #expect(Self.rows(out, "vaccination").map { $0[2] }.filter { $0.hasSuffix(")") } == ["last given 2025-11-30, next due 2026-11-30 (due soon)"])
        #expect(Self.rows(out, "open issue").isEmpty && Self.rows(out, "booking").isEmpty)
        #expect(Self.rows(out, "profile").contains(["profile", "weight", "12.5 kg"]))
    }

    @Test func remindersComeOnlyFromConfirmedBookingsAndOnlyAtOrAfterNow() throws {
        let s = Self.scenario()
        func reminders(_ now: String) throws -> [String] {
            Self.rows(try s.view(PetView.self, ["id": "p-rex", "now": now]), "reminder").map { $0[1] }
        }
        // b-1 is only requested, b-3 was confirmed and then moved (requested again), b-4 cancelled, b-5 completed.
        #expect(try reminders("2026-11-01T00:00:00Z") == ["b-6", "b-7", "b-2"])
        #expect(try reminders(Self.now) == ["b-7", "b-2"], "b-6's reminder was due the evening before")
        #expect(try reminders("2026-12-01T09:00:00.000001Z") == ["b-2"], "b-7's reminder is due exactly at 09:00")
        #expect(try reminders("2026-12-03T10:00:01Z") == [])
        let state = try s.state(PetsProjection.self)
        #expect(state.pets["p-rex"]?.bookingIds == ["b-1", "b-2", "b-3", "b-4", "b-5", "b-6", "b-7"])
        #expect(state.bookings["b-3"] == PetsProjection.Booking(petId: "p-rex", service: .bath, slot: Self.t("2026-12-06T10:00:00Z"), status: .requested, requestedAt: Self.t("2026-11-21T10:19:00Z")))
    }

    @Test func treatmentsLeaveTheViewAtTheirEndDateAndPlannedOnesAreMarked() throws {
        let s = Self.scenario()
        let out = try s.view(PetView.self, ["id": "p-rex", "now": "2026-12-05T12:00:00Z"])
        #expect(
            Self.rows(out, "treatment") == [
                ["treatment", "Fish oil", "supplement, 1 capsule, daily with food; from 2026-10-01"],
                ["treatment", "Dewormer", "medication, 1 tablet, once; 2026-12-05 to 2026-12-06"],
            ])
        #expect(Self.rows(out, "vet appointment") == [["vet appointment", "2026-12-05 10:00", "Ear check (past)"]])
        #expect(out.json["health"]?["nextVetAppointment"]?["past"] == .bool(true))
    }

    @Test func theWeightTrendMeasuresTheChangeOverTheLatestWeighings() throws {
        let s = Self.scenario()
        let out = try s.view(PetView.self, ["id": "p-rex", "trend": "2"])
        #expect(Self.rows(out, "weight trend") == [["weight trend", "last 2 weighings", "+0.3 kg over 27 days"]])
        #expect(
            out.json["weight"]?["trend"]
                == .object([
                    "entries": .int(2), "from": .string("2026-11-01T08:00:00Z"), "to": .string("2026-11-28T08:00:00Z"),
                    "changeGrams": .int(300), "days": .int(27),
                ]))
        var one = ProjectionScenario()
        one.given("pet-p-1", PetAdded(petId: "p-1", ownerId: "u-1", name: "Pip", species: .bird))
        one.given("pet-p-1", WeightLogged(petId: "p-1", weightGrams: 30, measuredAt: ProjectionScenario.start))
        let single = try one.view(PetView.self, ["id": "p-1"])
        #expect(Self.rows(single, "weight") == [["weight", "2026-12-01 09:00", "0.03 kg"]])
        #expect(Self.rows(single, "weight trend").isEmpty && single.json["weight"]?["trend"] == .null, "one weighing has no trend")
        #expect(throws: ViewError.invalid("trend", "'1' is not an integer between 2 and 1000")) {
            try s.view(PetView.self, ["id": "p-rex", "trend": "1"])
        }
    }

    @Test func aBirthDateReplacesAnAgeAndBack() throws {
        var s = Self.scenario()
        s.given("pet-p-tom", PetEdited(petId: "p-tom", ageMonths: 30), at: "2026-06-01T00:00:00Z")
        var tom = try #require(try s.state(PetsProjection.self).pets["p-tom"])
        #expect(
            tom == PetsProjection.Pet(ownerId: "u-alice", name: "Tom", species: .cat, ageMonths: 30, ageGivenAt: Self.t("2026-06-01"), addedAt: Self.t("2026-01-10T10:01:00Z")))
        #expect(Self.rows(try s.view(PetView.self, ["id": "p-tom", "now": Self.now]), "profile")[3] == ["profile", "age", "3 years (30 months on 2026-06-01)"])
        s.given("pet-p-tom", PetEdited(petId: "p-tom", name: "Tommy", breed: "Siamese", birthDate: Self.t("2023-12-15")))
        tom = try #require(try s.state(PetsProjection.self).pets["p-tom"])
        #expect(
            tom == PetsProjection.Pet(ownerId: "u-alice", name: "Tommy", species: .cat, breed: "Siamese", birthDate: Self.t("2023-12-15"), addedAt: Self.t("2026-01-10T10:01:00Z")))
        let out = try s.view(PetView.self, ["id": "p-tom", "now": Self.now])
        #expect(
            out.rows == [
                ["profile", "name", "Tommy"], ["profile", "owner", "u-alice"], ["profile", "species", "cat"], ["profile", "breed", "Siamese"],
                ["profile", "age", "2 years 11 months (born 2023-12-15)"], ["profile", "status", "active"],
            ])
    }

    static func withRemovedPet() -> ProjectionScenario {
        var s = scenario()
        s.given("pet-p-kit", PetAdded(petId: "p-kit", ownerId: "u-alice", name: "Kit", species: .cat), at: "2026-11-30T12:01:00Z")
        s.given("booking-b-9", BookingRequested(bookingId: "b-9", petId: "p-kit", ownerId: "u-alice", service: .bath, slot: t("2026-12-02T10:00:00Z")))
        s.given("booking-b-9", BookingConfirmed(bookingId: "b-9", slot: t("2026-12-02T10:00:00Z"), reminderDueAt: t("2026-12-01T10:00:00Z"), confirmedBy: "u-sam"))
        s.given("pet-p-kit", PetRemoved(petId: "p-kit"))
        s.given("booking-b-9", BookingCancelled(bookingId: "b-9", cancelledBy: "u-alice", reason: "pet removed"))
        return s
    }

    @Test func aRemovedPetIsMarkedAndItsCancelledBookingHasNoReminder() throws {
        let s = Self.withRemovedPet()
        let out = try s.view(PetView.self, ["id": "p-kit", "now": Self.now])
        #expect(out.title == "Pet p-kit: Kit (removed)")
        #expect(
            out.rows == [
                ["profile", "name", "Kit"], ["profile", "owner", "u-alice"], ["profile", "species", "cat"], ["profile", "status", "removed"],
                ["booking", "b-9", "bath on 2026-12-02 10:00, cancelled"],
            ])
        #expect(out.json["removed"] == .bool(true) && out.json["upcomingReminders"] == .array([]))
    }

    @Test func anOwnersPetsAreListedByNameWithRemovedOnesMarked() throws {
        let s = Self.withRemovedPet()
        let out = try s.view(OwnerPetsView.self, ["owner": "u-alice"])
        #expect(out.title == "Pets of u-alice")
        #expect(out.header == ["PET", "NAME", "SPECIES", "BREED", "ADDED", "STATUS"])
        #expect(
            out.rows == [
                ["p-kit", "Kit", "cat", "", "2026-11-30", "removed"],
                ["p-rex", "Rex", "dog", "Beagle", "2026-01-10", "active"],
                ["p-tom", "Tom", "cat", "", "2026-01-10", "active"],
            ])
        #expect(out.footer == ["3 pets, 1 removed"])
        #expect(
            out.json.serialized
                == #"[{"petId":"p-kit","name":"Kit","species":"cat","breed":null,"addedAt":"2026-11-30T12:01:00Z","removed":true},"#
                + #"{"petId":"p-rex","name":"Rex","species":"dog","breed":"Beagle","addedAt":"2026-01-10T10:00:00Z","removed":false},"#
                + #"{"petId":"p-tom","name":"Tom","species":"cat","breed":null,"addedAt":"2026-01-10T10:01:00Z","removed":false}]"#)
        #expect(try s.view(OwnerPetsView.self, ["owner": "u-bob"]).rows == [["p-bo", "Bo", "rabbit", "", "2026-01-10", "active"]])
        let nobody = try s.view(OwnerPetsView.self, ["owner": "u-nobody"])
        #expect(nobody.rows.isEmpty && nobody.footer == ["0 pets"])
    }

    @Test func theJSONCarriesEveryValue() throws {
        let out = try Self.scenario().view(PetView.self, ["id": "p-rex", "now": Self.now])
        #expect(Self.items(out.json["health"]?["activeTreatments"]).count == 3)
        let firstBooking: JSONValue = .object([
                    "bookingId": .string("b-5"), "service": .string("bath"), "slot": .string("2026-11-20T10:00:00Z"),
                    "status": .string("completed"), "reminderDueAt": .null,
                ])
        #expect(Self.items(out.json["bookings"]).first == firstBooking)
        #expect(
            out.json["upcomingReminders"]
                == .array([
                    .object(["bookingId": .string("b-7"), "dueAt": .string("2026-12-01T09:00:00Z"), "slot": .string("2026-12-02T09:00:00Z")]),
                    .object(["bookingId": .string("b-2"), "dueAt": .string("2026-12-03T10:00:00Z"), "slot": .string("2026-12-04T10:00:00Z")]),
                ]))
        let firstRequest: JSONValue = .object([
                    "requestId": .string("v-1"), "status": .string("answered"), "urgency": .string("urgent"),
                    "symptoms": .string("Coughing"), "preferredTime": .string("2026-11-29T10:00:00Z"),
                    "submittedAt": .string("2026-11-26T10:00:00Z"), "answers": .int(2), "lastAnswer": .string("Bring him in"),
                ])
        #expect(Self.items(out.json["vetRequests"]).first == firstRequest)
        #expect(
            out.json["foodPlan"]
                == .object(["food": .string("Lamb & rice"), "portionGrams": .int(120), "feedingTimes": .array([.string("08:00"), .string("18:00")])]))
    }

    @Test func viewArgumentsAreChecked() throws {
        let s = Self.scenario()
        #expect(throws: ViewError.missing("id")) { try s.view(PetView.self) }
        #expect(throws: ViewError.notFound("no pet 'p-9'")) { try s.view(PetView.self, ["id": "p-9"]) }
        #expect(throws: ViewError.invalid("now", "'tomorrow' is not a UTC ISO-8601 time (2026-12-01T09:00:00Z or 2026-12-01)")) {
            try s.view(PetView.self, ["id": "p-rex", "now": "tomorrow"])
        }
        #expect(throws: ViewError.missing("owner")) { try s.view(OwnerPetsView.self) }
    }

    @Test func anEventAboutSomethingTheLogNeverCreatedStopsTheFold() throws {
        var s = ProjectionScenario()
        s.given("pet-p-x", WeightLogged(petId: "p-x", weightGrams: 1000, measuredAt: ProjectionScenario.start))
        #expect(throws: ProjectionError("no pet 'p-x' was added")) { try PetsProjection.folded(s.events) }
        var b = ProjectionScenario()
        b.given("booking-b-x", BookingCompleted(bookingId: "b-x", completedBy: "u-sam"))
        #expect(throws: ProjectionError("no booking 'b-x' was requested")) { try PetsProjection.folded(b.events) }
        var v = ProjectionScenario()
        v.given("vet-v-x", VetRequestClosed(requestId: "v-x", closedBy: "u-sam"))
        #expect(throws: ProjectionError("no vet request 'v-x' was submitted")) { try PetsProjection.folded(v.events) }
    }

    @Test func theFoldReadsOnlyPetBookingAndVetEvents() {
        #expect(!PetsProjection.eventTypes.contains(PetSlotHeld.eventType), "the schedule repeats what bookings say")
        #expect(PetsProjection.eventTypes.count == 20)
        #expect(ProjectionCatalog.projection(named: "pets") != nil)
        #expect(ProjectionCatalog.view(named: "pet") != nil && ProjectionCatalog.view(named: "pets") != nil)
    }
}
