public import EventLog
public import Events

/// `account.delete`: the actor deletes their own account, after reauthenticating. The email is released in the
/// same append, so it may sign up again; the deleted account accepts no further commands. Its roles are revoked in
/// the same append, and the last admin cannot delete their account: a role held by a deleted account could
/// neither act nor be replaced, and the business would be locked out of administration for good.
public struct DeleteAccount: DomainCommand, Hashable {
    public static let name = "account.delete"
    public static let summary =
        "Delete your account (needs a reauthentication within 5 minutes): your pets and unshipped orders are wound down and your personal data erased."

    /// When the user re-entered their credentials for the deletion.
    public var reauthenticatedAt: Timestamp

    public init(reauthenticatedAt: Timestamp) {
        self.reauthenticatedAt = reauthenticatedAt
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        reauthenticatedAt = try r.timestamp("reauthenticatedAt")
    }

    public func write(to w: inout some FieldWriter) {
        w.timestamp("reauthenticatedAt", reauthenticatedAt)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let account = try await loader.load(AccountState.self, Streams.account(context.actor.userID))
        let (claim, claimStream) = try await EmailClaims.load(account.email, loading: &loader)
        let roles = try await loader.load(RolesState.self, Streams.roles)
        return try decide(context, account: account, claim: claim, roles: roles, claimStream: claimStream)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    ///   - claim: The claim of the account's email, released here when this account holds it.
    ///   - roles: Who holds which role.
    /// - Returns: ``AccountDeleted``, ``EmailReleased``, and ``RoleRevoked`` for each role the user held.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a stale or future reauthentication;
    ///   ``DomainError/rejected(_:)`` for the last admin.
    public func decide(
        _ context: DecisionContext, account: AccountState, claim: EmailClaimState, roles: RolesState = RolesState(),
        claimStream: StreamID? = nil
    ) throws(DomainError) -> Decision {
        try Reauthentication.check(reauthenticatedAt, now: context.now)
        let userID = context.actor.userID
        if roles.admins == [userID] {
            throw .rejected("'\(userID)' is the last admin and cannot delete their account; grant another admin first")
        }
        var writes = [
            StreamWrite(Streams.account(userID), [AccountDeleted(userId: userID, reauthenticatedAt: reauthenticatedAt)])
        ]
        // Release only what this account holds: a claim held by someone else is not this account's to give up.
        if claim.holder == userID {
            writes.append(StreamWrite(claimStream ?? Streams.email(account.email), [EmailReleased(email: account.email, userId: userID)]))
        }
        var revoked: [any DomainEvent] = []
        if roles.admins.contains(userID) { revoked.append(RoleRevoked(userId: userID, role: .admin, revokedBy: userID)) }
        if roles.staff.contains(userID) { revoked.append(RoleRevoked(userId: userID, role: .staff, revokedBy: userID)) }
        if !revoked.isEmpty { writes.append(StreamWrite(Streams.roles, revoked)) }
        return Decision(writes)
    }
}
