import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Pets: health profile and food hub")
struct PetHealthTests {
    typealias W = PetWorld
    static let pastFuture =
        "is in the future of the command's clock (2026-12-01T09:00:00.000000Z)"

    // MARK: pet.record-vaccination

    @Test func recordingAVaccination() async throws {
        let s = try await W.scenario()
        let command = RecordVaccination(petId: "rex", vaccine: " Rabies ", givenOn: t("2026-11-20"), nextDue: t("2027-11-20"))
        try await s.then(
            W.owner, command,
            appends: [(stream("pet-rex"), VaccinationRecorded(petId: "rex", vaccine: "Rabies", givenOn: t("2026-11-20"), nextDue: t("2027-11-20")))])
        try await s.then(W.owner, command, appends: [])
        try await s.then(
            W.owner, RecordVaccination(petId: "rex", vaccine: "DHPP", givenOn: DomainScenario.now),
            appends: [(stream("pet-rex"), VaccinationRecorded(petId: "rex", vaccine: "DHPP", givenOn: DomainScenario.now))])
    }

    @Test func vaccinationRules() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, RecordVaccination(petId: "rex", vaccine: "", givenOn: t("2026-11-20")), throws: .invalid(field: "vaccine", reason: "must not be empty"))
        try await s.then(
            W.owner, RecordVaccination(petId: "rex", vaccine: "Rabies", givenOn: t("2026-12-02")),
            throws: .invalid(field: "givenOn", reason: "2026-12-02T00:00:00.000000Z \(Self.pastFuture)"))
        try await s.then(
            W.owner, RecordVaccination(petId: "rex", vaccine: "Rabies", givenOn: t("2026-11-20"), nextDue: t("2026-11-20")),
            throws: .invalid(field: "nextDue", reason: "2026-11-20T00:00:00.000000Z is not after givenOn (2026-11-20T00:00:00.000000Z)"))
    }

    // MARK: pet.open-health-issue / pet.resolve-health-issue

    @Test func openingAndResolvingAHealthIssue() async throws {
        let s = try await W.scenario()
        let id = W.commandID(7)
        let issueId = W.generated("hi", id)
        let command = OpenHealthIssue(petId: "rex", title: " Limping ", notes: "Front left paw\nsince Monday")
        try await s.then(
            W.owner, command, id: id,
            appends: [(stream("pet-rex"), HealthIssueOpened(petId: "rex", issueId: issueId, title: "Limping", notes: "Front left paw\nsince Monday"))])
        // A re-send (same command id) finds its issue.
        try await s.then(W.owner, command, id: id, appends: [])
        try await s.then(
            W.owner, OpenHealthIssue(petId: "rex", title: "Other"), id: id,
            throws: .invalid(field: "commandId", reason: "command id \(id.uuidString.lowercased()) was used by pet.open-health-issue with other fields already; a command id names one command"))
        try await s.then(W.owner, ResolveHealthIssue(petId: "rex", issueId: issueId), appends: [(stream("pet-rex"), HealthIssueResolved(petId: "rex", issueId: issueId))])
        try await s.then(
            W.owner, ResolveHealthIssue(petId: "rex", issueId: issueId),
            throws: .invalidState("health issue '\(issueId)' of pet 'rex' is resolved; only an open issue can be resolved"))
    }

    @Test func healthIssueRules() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, OpenHealthIssue(petId: "rex", title: " "), throws: .invalid(field: "title", reason: "must not be empty"))
        try await s.then(
            W.owner, OpenHealthIssue(petId: "rex", title: "T", notes: String(repeating: "n", count: 2_001)),
            throws: .invalid(field: "notes", reason: "must be at most 2000 characters"))
        try await s.then(W.owner, ResolveHealthIssue(petId: "rex", issueId: "i-9"), throws: .notFound("health issue 'i-9' of pet 'rex' does not exist"))
        try await s.then(W.owner, ResolveHealthIssue(petId: "rex", issueId: ""), throws: .invalid(field: "issueId", reason: "an id must have 1 to 64 characters"))
    }

    // MARK: pet.set-vet

    @Test func settingTheVet() async throws {
        let s = try await W.scenario()
        let command = SetVet(petId: "rex", vetName: " Dr Rahman ", clinic: "Gulshan Pet Clinic", phone: " +880 1711-000000 ")
        try await s.then(
            W.owner, command,
            appends: [(stream("pet-rex"), VetContactSet(petId: "rex", vetName: "Dr Rahman", clinic: "Gulshan Pet Clinic", phone: "+880 1711-000000"))])
        try await s.then(W.owner, command, appends: [])
        try await s.then(
            W.owner, SetVet(petId: "rex", vetName: "Dr Rahman", clinic: "Banani Vets"),
            appends: [(stream("pet-rex"), VetContactSet(petId: "rex", vetName: "Dr Rahman", clinic: "Banani Vets"))])
    }

    @Test(arguments: [
        ("1234", "'1234' has 4 digits; a phone number has 6 to 15"),
        ("call me", "'call me' is not a phone number; use digits, spaces, - . ( ) and an optional leading +"),
        ("+880 1711 000000 000000", "'+880 1711 000000 000000' has 19 digits; a phone number has 6 to 15"),
        ("12-34", "'12-34' has 4 digits; a phone number has 6 to 15"),
    ])
    func badPhonesAreRejected(_ phone: String, _ reason: String) async throws {
        try await W.scenario().then(
            W.owner, SetVet(petId: "rex", vetName: "V", clinic: "C", phone: phone), throws: .invalid(field: "phone", reason: reason))
    }

    @Test func vetRules() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, SetVet(petId: "rex", vetName: "", clinic: "C"), throws: .invalid(field: "vetName", reason: "must not be empty"))
        try await s.then(W.owner, SetVet(petId: "rex", vetName: "V", clinic: ""), throws: .invalid(field: "clinic", reason: "must not be empty"))
    }

    // MARK: pet.start-treatment / pet.end-treatment

    @Test func startingAndEndingATreatment() async throws {
        let s = try await W.scenario()
        let id = W.commandID(8)
        let planId = W.generated("tp", id)
        let command = StartTreatment(
            petId: "rex", kind: .medication, name: "Carprofen", dosage: "25 mg", schedule: "twice a day with food",
            startDate: t("2026-12-01"), endDate: t("2026-12-15"))
        try await s.then(
            W.owner, command, id: id,
            appends: [
                (stream("pet-rex"),
                 TreatmentStarted(
                    petId: "rex", planId: planId, kind: .medication, name: "Carprofen", dosage: "25 mg", schedule: "twice a day with food",
                    startDate: t("2026-12-01"), endDate: t("2026-12-15")))
            ])
        try await s.then(W.owner, command, id: id, appends: [])
        try await s.then(
            W.owner, StartTreatment(petId: "rex", kind: .supplement, name: "Fish oil", dosage: "1", schedule: "daily", startDate: t("2026-12-01")), id: id,
            throws: .invalid(field: "commandId", reason: "command id \(id.uuidString.lowercased()) was used by pet.start-treatment with other fields already; a command id names one command"))
        try await s.then(W.owner, EndTreatment(petId: "rex", planId: planId), appends: [(stream("pet-rex"), TreatmentEnded(petId: "rex", planId: planId))])
        try await s.then(
            W.owner, EndTreatment(petId: "rex", planId: planId),
            throws: .invalidState("treatment plan '\(planId)' of pet 'rex' has ended; only an active plan can be ended"))
    }

    @Test func treatmentRules() async throws {
        let s = try await W.scenario()
        func start(name: String = "N", dosage: String = "D", schedule: String = "S", end: Timestamp? = nil) -> StartTreatment {
            StartTreatment(petId: "rex", kind: .supplement, name: name, dosage: dosage, schedule: schedule, startDate: t("2026-12-10"), endDate: end)
        }
        try await s.then(W.owner, start(name: ""), throws: .invalid(field: "name", reason: "must not be empty"))
        try await s.then(W.owner, start(dosage: ""), throws: .invalid(field: "dosage", reason: "must not be empty"))
        try await s.then(W.owner, start(schedule: String(repeating: "s", count: 201)), throws: .invalid(field: "schedule", reason: "must be at most 200 characters"))
        try await s.then(
            W.owner, start(end: t("2026-12-10")),
            throws: .invalid(field: "endDate", reason: "2026-12-10T00:00:00.000000Z is not after startDate (2026-12-10T00:00:00.000000Z)"))
        try await s.then(W.owner, EndTreatment(petId: "rex", planId: "plan-9"), throws: .notFound("treatment plan 'plan-9' of pet 'rex' does not exist"))
    }

    // MARK: pet.set-next-vet-appointment

    @Test func settingTheNextVetAppointment() async throws {
        let s = try await W.scenario()
        let command = SetNextVetAppointment(petId: "rex", at: t("2027-01-10T11:00:00Z"), reason: " Annual check-up ")
        try await s.then(
            W.owner, command,
            appends: [(stream("pet-rex"), NextVetAppointmentSet(petId: "rex", at: t("2027-01-10T11:00:00Z"), reason: "Annual check-up"))])
        try await s.then(W.owner, command, appends: [])
        try await s.then(
            W.owner, SetNextVetAppointment(petId: "rex", at: DomainScenario.now),
            throws: .invalid(field: "at", reason: "2026-12-01T09:00:00.000000Z is not in the future of the command's clock (2026-12-01T09:00:00.000000Z)"))
        try await s.then(
            W.owner, SetNextVetAppointment(petId: "rex", at: t("2027-01-10T11:00:00Z"), reason: ""),
            throws: .invalid(field: "reason", reason: "must not be empty"))
    }

    // MARK: pet.set-food-plan

    @Test func settingTheFoodPlanSortsAndDeDuplicatesTheTimes() async throws {
        let s = try await W.scenario()
        let command = SetFoodPlan(petId: "rex", food: " Royal Canin Adult ", portionGrams: 180, feedingTimes: ["19:30", "07:00", "12:15", "07:00"])
        try await s.then(
            W.owner, command,
            appends: [(stream("pet-rex"), FoodPlanSet(petId: "rex", food: "Royal Canin Adult", portionGrams: 180, feedingTimes: ["07:00", "12:15", "19:30"]))])
        try await s.then(W.owner, command, appends: [])
        try await s.then(W.owner, SetFoodPlan(petId: "rex", food: "Royal Canin Adult", portionGrams: 180, feedingTimes: ["12:15", "19:30", "07:00"]), appends: [])
        try await s.then(
            W.owner, SetFoodPlan(petId: "rex", food: "Royal Canin Adult", portionGrams: 200, feedingTimes: ["00:00", "23:59"]),
            appends: [(stream("pet-rex"), FoodPlanSet(petId: "rex", food: "Royal Canin Adult", portionGrams: 200, feedingTimes: ["00:00", "23:59"]))])
    }

    @Test(arguments: ["7:30", "24:00", "12:60", "ab:cd", "12-30", "", "12:30 ", "１２:30"])
    func malformedFeedingTimesAreRejected(_ time: String) async throws {
        try await W.scenario().then(
            W.owner, SetFoodPlan(petId: "rex", food: "F", portionGrams: 100, feedingTimes: ["08:00", time]),
            throws: .invalid(field: "feedingTimes", reason: "'\(time)' is not a time of day as HH:MM (00:00 to 23:59)"))
    }

    @Test func foodPlanRules() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, SetFoodPlan(petId: "rex", food: "F", portionGrams: 100, feedingTimes: []),
            throws: .invalid(field: "feedingTimes", reason: "give 1 to 8 distinct feeding times, got 0"))
        let nine = (0..<9).map { "0\($0):00" }
        try await s.then(
            W.owner, SetFoodPlan(petId: "rex", food: "F", portionGrams: 100, feedingTimes: nine),
            throws: .invalid(field: "feedingTimes", reason: "give 1 to 8 distinct feeding times, got 9"))
        try await s.then(
            W.owner, SetFoodPlan(petId: "rex", food: "F", portionGrams: 100, feedingTimes: Array(nine.prefix(8)) + ["00:00"]),
            appends: [(stream("pet-rex"), FoodPlanSet(petId: "rex", food: "F", portionGrams: 100, feedingTimes: Array(nine.prefix(8))))])
        try await s.then(
            W.owner, SetFoodPlan(petId: "rex", food: "F", portionGrams: 0, feedingTimes: ["08:00"]),
            throws: .invalid(field: "portionGrams", reason: "must be between 1 and 10000, got 0"))
        try await s.then(
            W.owner, SetFoodPlan(petId: "rex", food: " ", portionGrams: 10, feedingTimes: ["08:00"]),
            throws: .invalid(field: "food", reason: "must not be empty"))
    }

    // MARK: pet.log-weight

    @Test func loggingWeights() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, LogWeight(petId: "rex", weightGrams: 11_200),
            appends: [(stream("pet-rex"), WeightLogged(petId: "rex", weightGrams: 11_200, measuredAt: DomainScenario.now))])
        // The same weighing again is a re-send.
        try await s.then(W.owner, LogWeight(petId: "rex", weightGrams: 11_200, measuredAt: DomainScenario.now), appends: [])
        try await s.then(
            W.owner, LogWeight(petId: "rex", weightGrams: 11_000, measuredAt: t("2026-11-01T08:00:00Z")),
            appends: [(stream("pet-rex"), WeightLogged(petId: "rex", weightGrams: 11_000, measuredAt: t("2026-11-01T08:00:00Z")))])
    }

    @Test func weightRules() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, LogWeight(petId: "rex", weightGrams: 0), throws: .invalid(field: "weightGrams", reason: "must be between 1 and 200000, got 0"))
        try await s.then(W.owner, LogWeight(petId: "rex", weightGrams: -3), throws: .invalid(field: "weightGrams", reason: "must be between 1 and 200000, got -3"))
        try await s.then(
            W.owner, LogWeight(petId: "rex", weightGrams: 11_000, measuredAt: t("2026-12-01T09:00:01Z")),
            throws: .invalid(field: "measuredAt", reason: "2026-12-01T09:00:01.000000Z \(Self.pastFuture)"))
    }
}
