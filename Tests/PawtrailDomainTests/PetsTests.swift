import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Pets: add, edit, remove")
struct PetsTests {
    typealias W = PetWorld

    // MARK: pet.add

    @Test func addingAPetWithItsIdCreatesItsStream() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner,
            AddPet(petId: "mimi", name: " Mimi ", species: .cat, breed: " Persian ", birthDate: t("2024-03-01"), weightGrams: 4_200),
            appends: [
                (stream("pet-mimi"),
                 PetAdded(petId: "mimi", ownerId: W.owner, name: "Mimi", species: .cat, breed: "Persian", birthDate: t("2024-03-01"), weightGrams: 4_200))
            ])
    }

    @Test func addingWithoutAnIdGeneratesOneFromTheCommandId() async throws {
        let s = try await W.scenario()
        let id = W.commandID(1)
        let petId = W.generated("p", id)
        #expect(petId.hasPrefix("p-") && petId.count == 13)
        try await s.then(
            W.owner, AddPet(name: "Kiwi", species: .bird, ageMonths: 8), id: id,
            appends: [(Streams.pet(petId), PetAdded(petId: petId, ownerId: W.owner, name: "Kiwi", species: .bird, ageMonths: 8))])
        // The same command again (same command id) is a re-send: nothing more.
        try await s.then(W.owner, AddPet(name: "Kiwi", species: .bird, ageMonths: 8), id: id, appends: [])
    }

    @Test func staffAndAdminsMayOwnPetsToo() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.staff, AddPet(petId: "bolt", name: "Bolt", species: .dog),
            appends: [(stream("pet-bolt"), PetAdded(petId: "bolt", ownerId: W.staff, name: "Bolt", species: .dog))])
    }

    @Test func aReSentAddIsANoOpButATakenIdIsRefused() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, AddPet(petId: "rex", name: "Rex", species: .dog, breed: "Beagle", ageMonths: 30, weightGrams: 11_000), appends: [])
        try await s.then(W.owner, AddPet(petId: "rex", name: "Rex", species: .cat), throws: .alreadyExists("pet 'rex' exists already"))
        try await s.then(W.otherCustomer, AddPet(petId: "rex", name: "Rex", species: .dog, breed: "Beagle", ageMonths: 30, weightGrams: 11_000), throws: .alreadyExists("pet 'rex' exists already"))
    }

    static let invalidAdds: [(AddPet, DomainError)] = [
        (AddPet(petId: "p", name: "  ", species: .dog), .invalid(field: "name", reason: "must not be empty")),
        (AddPet(petId: "p", name: String(repeating: "x", count: 61), species: .dog), .invalid(field: "name", reason: "must be at most 60 characters")),
        (AddPet(petId: "p", name: "P", species: .dog, breed: ""), .invalid(field: "breed", reason: "must not be empty")),
        (AddPet(petId: "p", name: "P", species: .dog, birthDate: t("2026-12-01T09:00:01Z")),
         .invalid(field: "birthDate", reason: "2026-12-01T09:00:01.000000Z is in the future of the command's clock (2026-12-01T09:00:00.000000Z)")),
        (AddPet(petId: "p", name: "P", species: .dog, birthDate: t("2024-01-01"), ageMonths: 3),
         .invalid(field: "ageMonths", reason: "give a birth date or an age in months, not both")),
        (AddPet(petId: "p", name: "P", species: .dog, ageMonths: -1), .invalid(field: "ageMonths", reason: "must be between 0 and 1200, got -1")),
        (AddPet(petId: "p", name: "P", species: .dog, ageMonths: 1_201), .invalid(field: "ageMonths", reason: "must be between 0 and 1200, got 1201")),
        (AddPet(petId: "p", name: "P", species: .dog, weightGrams: 0), .invalid(field: "weightGrams", reason: "must be between 1 and 200000, got 0")),
        (AddPet(petId: "p", name: "P", species: .dog, weightGrams: -5), .invalid(field: "weightGrams", reason: "must be between 1 and 200000, got -5")),
        (AddPet(petId: "p", name: "P", species: .dog, weightGrams: 200_001), .invalid(field: "weightGrams", reason: "must be between 1 and 200000, got 200001")),
        (AddPet(petId: "bad id", name: "P", species: .dog), .invalid(field: "petId", reason: "'bad id' may hold only letters, digits and - _ . : @")),
    ]

    @Test(arguments: invalidAdds.indices) func invalidAddsAreRejected(_ i: Int) async throws {
        let (command, error) = Self.invalidAdds[i]
        try await W.scenario().then(W.owner, command, throws: error)
    }

    @Test func aBirthDateOfTodayAndAnAgeOfZeroAreFine() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, AddPet(petId: "pup", name: "Pup", species: .dog, birthDate: DomainScenario.now),
                         appends: [(stream("pet-pup"), PetAdded(petId: "pup", ownerId: W.owner, name: "Pup", species: .dog, birthDate: DomainScenario.now))])
        try await s.then(W.owner, AddPet(petId: "fry", name: "Fry", species: .fish, ageMonths: 0),
                         appends: [(stream("pet-fry"), PetAdded(petId: "fry", ownerId: W.owner, name: "Fry", species: .fish, ageMonths: 0))])
    }

    @Test func guestsAndUsersWithoutAnAccountCannotAddPets() async throws {
        let s = try await W.scenario()
        try await s.then(W.guest, AddPet(petId: "p", name: "P", species: .dog), throws: .forbidden("guests cannot pet.add; sign up or log in first"))
        try await s.then(W.noAccount, AddPet(petId: "p", name: "P", species: .dog), throws: .forbidden("user 'u-nobody' has no account"))
    }

    // MARK: pet.edit

    @Test func editingAppendsOnlyTheChangedFields() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, EditPet(petId: "rex", name: "Rex", breed: "Beagle mix", weightGrams: 11_500),
            appends: [(stream("pet-rex"), PetEdited(petId: "rex", breed: "Beagle mix", weightGrams: 11_500))])
        try await s.then(
            W.owner, EditPet(petId: "rex", name: "Rexy", species: .cat),
            appends: [(stream("pet-rex"), PetEdited(petId: "rex", name: "Rexy", species: .cat))])
    }

    @Test func anUnchangedEditAppendsNothing() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, EditPet(petId: "rex", name: " Rex ", species: .dog, breed: "Beagle", ageMonths: 30, weightGrams: 11_000), appends: [])
    }

    @Test func aBirthDateReplacesTheAgeAndBack() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, EditPet(petId: "rex", birthDate: t("2024-06-01")),
                         appends: [(stream("pet-rex"), PetEdited(petId: "rex", birthDate: t("2024-06-01")))])
        // The age of 30 months was replaced: giving it again is a change.
        try await s.then(W.owner, EditPet(petId: "rex", ageMonths: 30), appends: [(stream("pet-rex"), PetEdited(petId: "rex", ageMonths: 30))])
        try await s.then(W.owner, EditPet(petId: "rex", birthDate: t("2024-06-01")),
                         appends: [(stream("pet-rex"), PetEdited(petId: "rex", birthDate: t("2024-06-01")))])
    }

    static let invalidEdits: [(EditPet, DomainError)] = [
        (EditPet(petId: "rex"), .invalid(field: "fields", reason: "give at least one of name, species, breed, birthDate, ageMonths, weightGrams")),
        (EditPet(petId: "rex", name: ""), .invalid(field: "name", reason: "must not be empty")),
        (EditPet(petId: "rex", breed: " "), .invalid(field: "breed", reason: "must not be empty")),
        (EditPet(petId: "rex", birthDate: t("2027-01-01")),
         .invalid(field: "birthDate", reason: "2027-01-01T00:00:00.000000Z is in the future of the command's clock (2026-12-01T09:00:00.000000Z)")),
        (EditPet(petId: "rex", birthDate: t("2024-01-01"), ageMonths: 2), .invalid(field: "ageMonths", reason: "give a birth date or an age in months, not both")),
        (EditPet(petId: "rex", ageMonths: 5_000), .invalid(field: "ageMonths", reason: "must be between 0 and 1200, got 5000")),
        (EditPet(petId: "rex", weightGrams: 0), .invalid(field: "weightGrams", reason: "must be between 1 and 200000, got 0")),
        (EditPet(petId: "ghost", name: "G"), .notFound("pet 'ghost' does not exist")),
    ]

    @Test(arguments: invalidEdits.indices) func invalidEditsAreRejected(_ i: Int) async throws {
        let (command, error) = Self.invalidEdits[i]
        try await W.scenario().then(W.owner, command, throws: error)
    }

    // MARK: pet.remove

    @Test func removingAPet() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, RemovePet(petId: "rex"), appends: [(stream("pet-rex"), PetRemoved(petId: "rex"))])
        try await s.then(W.owner, RemovePet(petId: "rex"), throws: .invalidState("pet 'rex' was removed and accepts no further commands"))
        try await s.then(W.owner, RemovePet(petId: "ghost"), throws: .notFound("pet 'ghost' does not exist"))
    }

    @Test func removingAPetCancelsItsActiveBookingsInTheSameAppend() async throws {
        let s = try await W.scenario()
        let a = t("2026-12-05T10:00:00Z"), b = t("2026-12-06T10:00:00Z"), c = t("2026-12-07T10:00:00Z")
        try await s.given(stream("booking-b-1"), BookingRequested(bookingId: "b-1", petId: "rex", ownerId: W.owner, service: .bath, slot: a))
        try await s.given(
            stream("booking-b-2"), BookingRequested(bookingId: "b-2", petId: "rex", ownerId: W.owner, service: .haircut, slot: b),
            BookingConfirmed(bookingId: "b-2", slot: b, reminderDueAt: t("2026-12-05T10:00:00Z"), confirmedBy: W.staff))
        try await s.given(
            stream("booking-b-3"), BookingRequested(bookingId: "b-3", petId: "rex", ownerId: W.owner, service: .bath, slot: c),
            BookingCancelled(bookingId: "b-3", cancelledBy: W.owner))
        try await s.given(
            stream("petschedule-rex"), PetSlotHeld(petId: "rex", bookingId: "b-1", slot: a), PetSlotHeld(petId: "rex", bookingId: "b-2", slot: b),
            PetSlotHeld(petId: "rex", bookingId: "b-3", slot: c), PetSlotReleased(petId: "rex", bookingId: "b-3", slot: c))
        try await s.then(
            W.owner, RemovePet(petId: "rex"),
            appends: [
                (stream("pet-rex"), PetRemoved(petId: "rex")),
                (stream("booking-b-1"), BookingCancelled(bookingId: "b-1", cancelledBy: W.owner, reason: "the pet was removed")),
                (stream("booking-b-2"), BookingCancelled(bookingId: "b-2", cancelledBy: W.owner, reason: "the pet was removed")),
                (stream("petschedule-rex"), PetSlotReleased(petId: "rex", bookingId: "b-1", slot: a)),
                (stream("petschedule-rex"), PetSlotReleased(petId: "rex", bookingId: "b-2", slot: b)),
            ])
        try await s.then(W.staff, ConfirmBooking(bookingId: "b-1"), throws: .invalidState("booking 'b-1' is cancelled; only a requested booking can be confirmed"))
    }

    // MARK: authorisation and removed pets, for every pet command

    /// One valid instance of every command that acts on a pet.
    static func petCommands(_ petId: String = "rex") -> [any DomainCommand] {
        [
            EditPet(petId: petId, name: "Max"),
            RemovePet(petId: petId),
            RecordVaccination(petId: petId, vaccine: "Rabies", givenOn: t("2026-11-01")),
            OpenHealthIssue(petId: petId, title: "Limping"),
            ResolveHealthIssue(petId: petId, issueId: "i-1"),
            SetVet(petId: petId, vetName: "Dr Rahman", clinic: "Gulshan Pet Clinic"),
            StartTreatment(petId: petId, kind: .medication, name: "Carprofen", dosage: "25 mg", schedule: "twice a day", startDate: t("2026-12-01")),
            EndTreatment(petId: petId, planId: "plan-1"),
            SetNextVetAppointment(petId: petId, at: t("2027-01-10T11:00:00Z")),
            SetFoodPlan(petId: petId, food: "Kibble", portionGrams: 150, feedingTimes: ["08:00"]),
            LogWeight(petId: petId, weightGrams: 11_200),
            RequestBooking(petId: petId, service: .bath, slot: t("2026-12-05T10:00:00Z")),
            SubmitVetRequest(petId: petId, symptoms: "Coughing", urgency: .normal),
        ]
    }

    static let petCommandIndices = Array(petCommands().indices)

    /// Rex with an open issue `i-1` and an active plan `plan-1`, so every command above is otherwise acceptable.
    static func rexWithHistory() async throws -> DomainScenario {
        let s = try await W.scenario()
        try await s.given(
            stream("pet-rex"), HealthIssueOpened(petId: "rex", issueId: "i-1", title: "Itching"),
            TreatmentStarted(petId: "rex", planId: "plan-1", kind: .supplement, name: "Fish oil", dosage: "1 capsule", schedule: "daily", startDate: t("2026-11-01")))
        return s
    }

    @Test(arguments: petCommandIndices, W.wrongActors)
    func onlyTheOwnerActsOnAPet(_ i: Int, _ actor: String) async throws {
        let s = try await Self.rexWithHistory()
        try await expectRejected(s, actor, Self.petCommands()[i])
    }

    @Test(arguments: petCommandIndices)
    func theOwnerIsAccepted(_ i: Int) async throws {
        let s = try await Self.rexWithHistory()
        let appended = try await open(s, Self.petCommands()[i])
        #expect(!appended.isEmpty)
    }

    @Test(arguments: petCommandIndices)
    func aRemovedPetAcceptsNoFurtherCommands(_ i: Int) async throws {
        let s = try await Self.rexWithHistory()
        try await s.given(stream("pet-rex"), PetRemoved(petId: "rex"))
        try await expectRejected(s, W.owner, Self.petCommands()[i], error: .invalidState("pet 'rex' was removed and accepts no further commands"))
    }

    @Test(arguments: petCommandIndices)
    func aPetThatDoesNotExistIsNotFound(_ i: Int) async throws {
        let s = try await W.scenario()
        try await expectRejected(s, W.owner, Self.petCommands("ghost")[i], error: .notFound("pet 'ghost' does not exist"))
    }

    private func open<C: DomainCommand>(_ s: DomainScenario, _ command: C) async throws -> [(StreamID, any DomainEvent)] {
        try await s.when(W.owner, command)
    }

    private func expectRejected<C: DomainCommand>(_ s: DomainScenario, _ actor: String, _ command: C, error: DomainError? = nil) async throws {
        try await s.then(actor, command, throws: error ?? W.notOwnerError(actor, C.self))
    }
}
