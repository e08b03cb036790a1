public import EventLog

/// Who a user id is in a store, for reads: a guest, or an account holder with the role the `roles` stream gives. Views
/// read through it (`pawtrail view ... --as USER`), as commands resolve their actor.
public enum ActorLookup {
    /// The actor a user id names.
    ///
    /// - Parameters:
    ///   - userID: The user id (`guest-...` for a guest).
    ///   - store: The store.
    /// - Returns: The actor with its role.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a malformed id; ``DomainError/forbidden(_:)`` for a user
    ///   without an account, or whose account is deleted; the store's errors.
    public static func actor(_ userID: String, in store: any EventStore) async throws -> Actor {
        try Validate.id(userID, field: "as")
        if Actor.isGuestID(userID) { return Actor(userID: userID, role: .guest) }
        var loader = StreamLoader(store: store)
        return try await accountHolder(userID, needsAccount: true, loader: &loader)
    }

    /// An account holder with the role the `roles` stream gives, read through a loader (whose versions a command's
    /// append then expects).
    ///
    /// - Parameters:
    ///   - userID: The user id (not a guest's).
    ///   - needsAccount: Whether the account must exist and be live (sign-up creates it).
    ///   - loader: Reads the streams.
    /// - Returns: The actor.
    /// - Throws: ``DomainError/forbidden(_:)`` for a missing or deleted account when one is needed; the store's errors.
    static func accountHolder(
        _ userID: String, needsAccount: Bool, deletedMay: Bool = false, loader: inout StreamLoader
    ) async throws -> Actor {
        let roles = try await loader.load(RolesState.self, Streams.roles)
        if needsAccount {
            let account = try await loader.load(AccountState.self, Streams.account(userID))
            guard account.exists else { throw DomainError.forbidden("user '\(userID)' has no account") }
            guard !account.deleted || deletedMay else { throw DomainError.forbidden("the account of '\(userID)' is deleted") }
        }
        return Actor(userID: userID, role: roles.role(of: userID))
    }
}
