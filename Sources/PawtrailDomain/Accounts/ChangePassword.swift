public import EventLog
public import Events

/// `account.change-password`: records that the actor changed their password, after reauthenticating. The command
/// takes no password: the identity provider holds credentials, and neither a password nor a hash ever reaches the
/// log. The reauthentication keeps a session left open on a shared device from locking its owner out.
public struct ChangePassword: DomainCommand, Hashable {
    public static let name = "account.change-password"
    public static let summary =
        "Record that you changed your password (needs a reauthentication within 5 minutes; the password is never given)."

    /// When the user re-entered their credentials for this change.
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
        // Loaded for its version: PasswordChanged is appended under it.
        _ = try await loader.load(AccountState.self, Streams.account(context.actor.userID))
        return try decide(context)
    }

    /// The pure decision.
    ///
    /// - Parameter context: The actor and clock.
    /// - Returns: ``PasswordChanged``, with the reauthentication's time.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a reauthentication older than 5 minutes or in the future.
    public func decide(_ context: DecisionContext) throws(DomainError) -> Decision {
        try Reauthentication.check(reauthenticatedAt, now: context.now)
        let userID = context.actor.userID
        return .append(Streams.account(userID), PasswordChanged(userId: userID, reauthenticatedAt: reauthenticatedAt))
    }
}
