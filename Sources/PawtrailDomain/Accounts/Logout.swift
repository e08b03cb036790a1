public import Events

/// `account.logout`: the actor closes one of their own open sessions.
public struct Logout: DomainCommand, Hashable {
    public static let name = "account.logout"
    public static let summary = "Log out of one of your open sessions."

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

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    /// - Returns: ``LoggedOut``.
    /// - Throws: ``DomainError/notFound(_:)`` when the session is not one of this account's;
    ///   ``DomainError/invalidState(_:)`` when it is logged out already.
    public func decide(_ context: DecisionContext, account: AccountState) throws(DomainError) -> Decision {
        let userID = context.actor.userID
        try account.checkOpenSession(sessionId, of: userID, action: "logged out")
        return .append(Streams.account(userID), LoggedOut(userId: userID, sessionId: sessionId))
    }
}
