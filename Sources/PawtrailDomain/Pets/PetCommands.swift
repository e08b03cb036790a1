public import EventLog
public import Events

/// A command on one pet's stream by its owner: it loads the pet and decides on it alone.
public protocol PetCommand: DomainCommand {
    /// The pet.
    var petId: String { get }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - pet: The pet's state.
    /// - Returns: The events for the pet's stream, or nothing.
    /// - Throws: ``DomainError``.
    func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision
}

extension PetCommand {
    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(petId, field: "petId")
        return try decide(context, pet: try await loader.load(PetState.self, Streams.pet(petId)))
    }
}

/// `pet.add`: the actor adds a pet of their own (stream `pet-<petId>`, created from no stream).
public struct AddPet: DomainCommand, Hashable {
    public static let name = "pet.add"
    public static let summary = "Add a pet of your own: name, species, and optionally breed, birth date or age, weight."

    /// The new pet's id; generated from the command id when absent.
    public var petId: String?
    public var name: String
    public var species: Species
    public var breed: String?
    public var birthDate: Timestamp?
    public var ageMonths: Int64?
    public var weightGrams: Int64?

    public init(
        petId: String? = nil, name: String, species: Species, breed: String? = nil, birthDate: Timestamp? = nil,
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
        petId = try r.optionalString("petId")
        name = try r.string("name")
        species = try r.choice("species", Species.self)
        breed = try r.optionalString("breed")
        birthDate = try r.optionalTimestamp("birthDate")
        ageMonths = try r.optionalInt("ageMonths")
        weightGrams = try r.optionalInt("weightGrams")
    }

    public func write(to w: inout some FieldWriter) {
        w.optionalString("petId", petId)
        w.string("name", name)
        w.choice("species", species)
        w.optionalString("breed", breed)
        w.optionalTimestamp("birthDate", birthDate)
        w.optionalInt("ageMonths", ageMonths)
        w.optionalInt("weightGrams", weightGrams)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let id = petId ?? context.newID("p")
        try Validate.id(id, field: "petId")
        // Loaded only to tell a re-send from a taken id; the write expects no stream either way.
        return try decide(context, existing: try await loader.load(PetState.self, Streams.pet(id)))
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor (the new owner) and clock.
    ///   - existing: The state of the pet's stream (normally empty).
    /// - Returns: `PetAdded` on a new stream; nothing when the very same pet was added already (a re-send).
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a bad field, ``DomainError/alreadyExists(_:)`` when the
    ///   id is taken.
    public func decide(_ context: DecisionContext, existing: PetState) throws(DomainError) -> Decision {
        let id = petId ?? context.newID("p")
        let cleanName = try Validate.text(name, field: "name", max: 60)
        let cleanBreed = try breed.map { (b) throws(DomainError) in try Validate.text(b, field: "breed", max: 60) }
        try PetRules.birthDateOrAge(birthDate, ageMonths, now: context.now)
        if let weightGrams { try PetRules.weight(weightGrams) }
        let event = PetAdded(
            petId: id, ownerId: context.actor.userID, name: cleanName, species: species, breed: cleanBreed,
            birthDate: birthDate, ageMonths: ageMonths, weightGrams: weightGrams)
        if existing.exists {
            if existing.added == event { return .nothing }
            throw .alreadyExists("pet '\(id)' exists already")
        }
        return .append(Streams.pet(id), event, expected: .noStream)
    }
}

/// `pet.edit`: the owner changes some of a pet's profile fields.
public struct EditPet: PetCommand, Hashable {
    public static let name = "pet.edit"
    public static let summary = "Change your pet's name, species, breed, birth date or age, or weight (at least one)."

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

    /// The pure decision.
    ///
    /// - Returns: `PetEdited` with only the fields that change; nothing when every given field is unchanged.
    /// - Throws: ``DomainError/invalid(field:reason:)`` when no field is given or one is bad; the errors of
    ///   ``PetState/checkActive(_:actor:staffMay:)``.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        guard name != nil || species != nil || breed != nil || birthDate != nil || ageMonths != nil || weightGrams != nil
        else {
            throw .invalid(field: "fields", reason: "give at least one of name, species, breed, birthDate, ageMonths, weightGrams")
        }
        let cleanName = try name.map { (n) throws(DomainError) in try Validate.text(n, field: "name", max: 60) }
        let cleanBreed = try breed.map { (b) throws(DomainError) in try Validate.text(b, field: "breed", max: 60) }
        try PetRules.birthDateOrAge(birthDate, ageMonths, now: context.now)
        if let weightGrams { try PetRules.weight(weightGrams) }
        try pet.checkActive(petId, actor: context.actor)

        var change = PetEdited(petId: petId)
        if let cleanName, cleanName != pet.name { change.name = cleanName }
        if let species, species != pet.species { change.species = species }
        if let cleanBreed, cleanBreed != pet.breed { change.breed = cleanBreed }
        if let birthDate, birthDate != pet.birthDate { change.birthDate = birthDate }
        if let ageMonths, ageMonths != pet.ageMonths { change.ageMonths = ageMonths }
        if let weightGrams, weightGrams != pet.weightGrams { change.weightGrams = weightGrams }
        guard change != PetEdited(petId: petId) else { return .nothing }
        return .append(Streams.pet(petId), change)
    }
}

/// `pet.remove`: the owner removes a pet; its active grooming bookings are cancelled in the same append, so no
/// booking of a removed pet stays requested or confirmed.
public struct RemovePet: DomainCommand, Hashable {
    public static let name = "pet.remove"
    public static let windsDownDeletedAccount = true
    public static let summary = "Remove your pet; it accepts no further commands and its active bookings are cancelled."

    /// The reason recorded on the bookings the removal cancels.
    public static let cancelReason = "the pet was removed"

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

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(petId, field: "petId")
        let pet = try await loader.load(PetState.self, Streams.pet(petId))
        // Checked before the schedule and bookings are read, so a stranger's attempt reads nothing of the owner's.
        try pet.checkActive(petId, actor: context.actor)
        let schedule = try await loader.load(PetScheduleState.self, Streams.petSchedule(petId))
        var bookings: [String: BookingState] = [:]
        var days: [String: SalonDayState] = [:]
        for held in schedule.bookings {
            let booking = try await loader.load(BookingState.self, Streams.booking(held.bookingId))
            bookings[held.bookingId] = booking
            for (day, state) in try await BookingTime.loadDays(from: booking.slot, minutes: booking.durationMinutes, &loader) {
                days[day] = state
            }
        }
        return try decide(context, pet: pet, schedule: schedule, bookings: bookings, days: days)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - pet: The pet.
    ///   - schedule: The slots its active bookings hold.
    ///   - bookings: Those bookings, by id.
    ///   - days: The salon days they hold groomers on.
    /// - Returns: `PetRemoved`, then for each active booking `BookingCancelled`, `PetSlotReleased` and
    ///   `SalonSlotsReleased` on each salon day it holds.
    /// - Throws: The errors of ``PetState/checkActive(_:actor:staffMay:)``.
    public func decide(
        _ context: DecisionContext, pet: PetState, schedule: PetScheduleState, bookings: [String: BookingState],
        days: [String: SalonDayState] = [:]
    ) throws(DomainError) -> Decision {
        try pet.checkActive(petId, actor: context.actor)
        var writes = [StreamWrite(Streams.pet(petId), [PetRemoved(petId: petId)])]
        var released: [any DomainEvent] = []
        for held in schedule.bookings {
            if bookings[held.bookingId]?.isActive == true {
                writes.append(
                    StreamWrite(
                        Streams.booking(held.bookingId),
                        [BookingCancelled(bookingId: held.bookingId, cancelledBy: context.actor.userID, reason: Self.cancelReason)]))
            }
            released.append(PetSlotReleased(petId: petId, bookingId: held.bookingId, slot: held.slot))
        }
        if !released.isEmpty { writes.append(StreamWrite(Streams.petSchedule(petId), released)) }
        let salon = schedule.bookings.flatMap { BookingTime.release($0.bookingId, days: days).map { ($0.day, $0.event as any DomainEvent) } }
        return Decision(writes + BookingTime.writes(salon))
    }
}
