public import Events

/// `account.login`: the actor logs in to their own account, opening a new session; a guest's cart and favourites
/// (`guestId`) move into the account in the same append.
///
/// No password is given: the identity provider checks credentials before the command; the log records only that
/// a session was opened.
public struct Login: DomainCommand, Hashable {
    public static let name = "account.login"
    public static let summary = "Log in to your account, opening a session; optionally merge a guest's cart and favourites."

    /// The guest (`guest-...`) whose cart and favourites move into the account.
    public var guestId: String?

    public init(guestId: String? = nil) {
        self.guestId = guestId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        guestId = try r.optionalString("guestId")
    }

    public func write(to w: inout some FieldWriter) {
        w.optionalString("guestId", guestId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let userID = context.actor.userID
        if let guestId { try GuestMerge.validate(guestId) }
        // Loaded for its version: LoggedIn is appended under it, so two log-ins at once are decided one by one.
        _ = try await loader.load(AccountState.self, Streams.account(userID))
        var merge: GuestMerge?
        if let guestId { merge = try await GuestMerge.load(guestId: guestId, into: userID, loader: &loader) }
        return decide(context, merge: merge)
    }

    /// The pure decision: a new session whose id derives from the command id, so a decision decided again after a
    /// conflict opens the same session.
    ///
    /// - Parameters:
    ///   - context: The actor, clock and command id.
    ///   - merge: The guest's and the account's carts and favourites, when `guestId` is given.
    /// - Returns: ``LoggedIn``, then the guest merge's events.
    public func decide(_ context: DecisionContext, merge: GuestMerge? = nil) -> Decision {
        let userID = context.actor.userID
        let session = context.newID("ss")
        return Decision(
            [StreamWrite(Streams.account(userID), [LoggedIn(userId: userID, sessionId: session)])]
                + (merge?.writes(into: userID) ?? []))
    }
}
