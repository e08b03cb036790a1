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

/// The pets area's event types, in catalog order.
public enum PetEvents {
    public static let all: [any DomainEvent.Type] = [PetAdded.self, PetRemoved.self]
}
