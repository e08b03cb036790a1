public import EventLog
public import Events

/// A pet as decisions see it (stream `pet-<petId>`).
public struct PetState: Aggregate, Hashable {
    /// Whether the pet was added.
    public var exists = false
    /// Whether it was removed (it then accepts no commands).
    public var removed = false
    /// The owner's user id.
    public var ownerId = ""
    /// The pet's name.
    public var name = ""
    /// The species.
    public var species: Species = .other

    public init() {}

    public static func evolve(_ state: PetState, _ event: any DomainEvent) -> PetState {
        var s = state
        switch event {
        case let e as PetAdded:
            s.exists = true
            s.ownerId = e.ownerId
            s.name = e.name
            s.species = e.species
        case is PetRemoved:
            s.removed = true
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
