public import Events

/// `account.request-password-reset`: the actor asks for a reset link to their account's email.
public struct RequestPasswordReset: DomainCommand, Hashable {
    public static let name = "account.request-password-reset"
    public static let summary = "Ask for a password reset link, sent to your account's email."

    public init() {}
    public init(reading r: inout some FieldReader) throws(FieldError) {}
    public func write(to w: inout some FieldWriter) {}

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        decide(context, account: try await loader.load(AccountState.self, Streams.account(context.actor.userID)))
    }

    /// The pure decision. Every request is recorded: asking again is how a user gets a fresh link.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    /// - Returns: ``PasswordResetRequested`` with the account's current email.
    public func decide(_ context: DecisionContext, account: AccountState) -> Decision {
        let userID = context.actor.userID
        return .append(Streams.account(userID), PasswordResetRequested(userId: userID, email: account.email))
    }
}
