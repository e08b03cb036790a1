public import Events

/// `account.restore-session`: an app starting again resumes one of the actor's open sessions without a log-in.
public struct RestoreSession: DomainCommand, Hashable {
    public static let name = "account.restore-session"
    public static let summary = "Restore one of your open sessions when an app starts again."

    public var sessionId: String

    public init(sessionId: String) {
        self.sessionId = sessionId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        sessionId = try r.string("sessionId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("sessionId", sessionId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(sessionId, field: "sessionId")
        return try decide(context, account: try await loader.load(AccountState.self, Streams.account(context.actor.userID)))
    }

    /// The pure decision. Every restore is recorded (each app start is one), so it is not idempotent.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    /// - Returns: ``SessionRestored``.
    /// - Throws: ``DomainError/notFound(_:)`` when the session is not one of this account's;
    ///   ``DomainError/invalidState(_:)`` when it is logged out.
    public func decide(_ context: DecisionContext, account: AccountState) throws(DomainError) -> Decision {
        let userID = context.actor.userID
        try account.checkOpenSession(sessionId, of: userID, action: "restored")
        return .append(Streams.account(userID), SessionRestored(userId: userID, sessionId: sessionId))
    }
}
