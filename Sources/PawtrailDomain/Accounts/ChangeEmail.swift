public import EventLog
public import Events

/// `account.change-email`: the actor moves their account to a new, free email address, after reauthenticating.
/// The account, the new address's claim and the old address's release are one atomic append, so an address is
/// never held by two accounts and the old one is free the moment the change is made.
public struct ChangeEmail: DomainCommand, Hashable {
    public static let name = "account.change-email"
    public static let summary = "Change your email to a free address (needs a reauthentication within 5 minutes)."

    public var newEmail: String
    /// When the user re-entered their credentials for this change.
    public var reauthenticatedAt: Timestamp

    public init(newEmail: String, reauthenticatedAt: Timestamp) {
        self.newEmail = newEmail
        self.reauthenticatedAt = reauthenticatedAt
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        newEmail = try r.string("newEmail")
        reauthenticatedAt = try r.timestamp("reauthenticatedAt")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("newEmail", newEmail)
        w.timestamp("reauthenticatedAt", reauthenticatedAt)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Email.validate(newEmail, field: "newEmail")
        let account = try await loader.load(AccountState.self, Streams.account(context.actor.userID))
        let address = Email.normalized(newEmail)
        let (newClaim, newStream) = try await EmailClaims.load(address, loading: &loader)
        let (oldClaim, oldStream) = try await EmailClaims.load(account.email, loading: &loader)
        return try decide(context, account: account, newClaim: newClaim, oldClaim: oldClaim, claimStreams: (newStream, oldStream))
    }

    /// The pure decision; the account's current address appends nothing (after the proof is checked).
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    ///   - newClaim: The claim of the new address (must be free).
    ///   - oldClaim: The claim of the current address, released here when this account holds it.
    /// - Returns: ``EmailChanged``, ``EmailClaimed`` for the new address and ``EmailReleased`` for the old one.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a malformed address or a stale or future
    ///   reauthentication; ``DomainError/alreadyExists(_:)`` when another account holds the new address.
    public func decide(
        _ context: DecisionContext, account: AccountState, newClaim: EmailClaimState, oldClaim: EmailClaimState,
        claimStreams: (new: StreamID, old: StreamID)? = nil
    ) throws(DomainError) -> Decision {
        try Email.validate(newEmail, field: "newEmail")
        try Reauthentication.check(reauthenticatedAt, now: context.now)
        let userID = context.actor.userID
        let address = Email.normalized(newEmail)
        guard address != account.email else { return .nothing }
        if let holder = newClaim.holder, holder != userID {
            throw .alreadyExists("the email \(address) is already used by another account")
        }
        var writes = [
            StreamWrite(
                Streams.account(userID),
                [EmailChanged(userId: userID, oldEmail: account.email, newEmail: address, reauthenticatedAt: reauthenticatedAt)]),
            StreamWrite(claimStreams?.new ?? Streams.email(address), [EmailClaimed(email: address, userId: userID)]),
        ]
        // Release only what this account holds: a claim held by someone else is not this account's to give up.
        if oldClaim.holder == userID {
            writes.append(StreamWrite(claimStreams?.old ?? Streams.email(account.email), [EmailReleased(email: account.email, userId: userID)]))
        }
        return Decision(writes)
    }
}
