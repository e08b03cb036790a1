public import Events

/// `account.change-password`: records that the actor changed their password. The command takes no password:
/// the identity provider holds credentials, and neither a password nor a hash ever reaches the log.
public struct ChangePassword: DomainCommand, Hashable {
    public static let name = "account.change-password"
    public static let summary = "Record that you changed your password (the password itself is never given)."

    public init() {}
    public init(reading r: inout some FieldReader) throws(FieldError) {}
    public func write(to w: inout some FieldWriter) {}

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        // Loaded for its version: PasswordChanged is appended under it.
        _ = try await loader.load(AccountState.self, Streams.account(context.actor.userID))
        return decide(context)
    }

    /// The pure decision.
    ///
    /// - Parameter context: The actor and clock.
    /// - Returns: ``PasswordChanged``.
    public func decide(_ context: DecisionContext) -> Decision {
        let userID = context.actor.userID
        return .append(Streams.account(userID), PasswordChanged(userId: userID))
    }
}
