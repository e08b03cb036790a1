public import EventLog
public import Events

/// `account.signup`: the actor's id becomes a new account with a unique email, logged in with a first session
/// (the apps go straight on as the new user); a guest's cart and favourites (`guestId`) move into it in the same
/// append.
public struct SignUp: DomainCommand, Hashable {
    public static let name = "account.signup"
    public static let summary = "Sign up: create the actor's account with a name, a unique email and a language."
    public static let actorNeedsAccount = false

    public var name: String
    public var email: String
    public var language: Language?
    /// The guest (`guest-...`) whose cart and favourites move into the new account.
    public var guestId: String?

    public init(name: String, email: String, language: Language? = nil, guestId: String? = nil) {
        self.name = name
        self.email = email
        self.language = language
        self.guestId = guestId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        name = try r.string("name")
        email = try r.string("email")
        language = try r.optionalChoice("language", Language.self)
        guestId = try r.optionalString("guestId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("name", name)
        w.string("email", email)
        w.optionalChoice("language", language)
        w.optionalString("guestId", guestId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let userID = context.actor.userID
        let address = Email.normalized(email)
        try Email.validate(email)
        if let guestId { try GuestMerge.validate(guestId) }
        let account = try await loader.load(AccountState.self, Streams.account(userID))
        let (claim, claimStream) = try await EmailClaims.load(address, loading: &loader)
        var merge: GuestMerge?
        if let guestId { merge = try await GuestMerge.load(guestId: guestId, into: userID, loader: &loader) }
        return try decide(context, account: account, claim: claim, merge: merge, claimStream: claimStream)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account stream (must be empty).
    ///   - claim: The claim of the email address (must be free).
    ///   - merge: The guest's and the account's carts and favourites, when `guestId` is given.
    /// - Returns: ``AccountSignedUp`` and ``LoggedIn`` (a session whose id derives from the command id, as a log-in's),
    ///   ``EmailClaimed``, then the guest merge's events.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for a malformed name;
    ///   ``DomainError/alreadyExists(_:)`` when the user has an account or the email is taken.
    public func decide(
        _ context: DecisionContext, account: AccountState, claim: EmailClaimState, merge: GuestMerge? = nil,
        claimStream: StreamID? = nil
    ) throws(DomainError) -> Decision {
        let userID = context.actor.userID
        let cleanName = try Validate.text(name, field: "name", max: 100)
        let address = Email.normalized(email)
        guard !account.exists else { throw .alreadyExists("user '\(userID)' already has an account") }
        if claim.holder != nil {
            throw .alreadyExists("the email \(address) is already used by another account")
        }
        return Decision(
            [
                StreamWrite(
                    Streams.account(userID),
                    [
                        AccountSignedUp(userId: userID, name: cleanName, email: address, language: language ?? .enUS),
                        LoggedIn(userId: userID, sessionId: context.newID("ss")),
                    ]),
                StreamWrite(claimStream ?? Streams.email(address), [EmailClaimed(email: address, userId: userID)]),
            ] + (merge?.writes(into: userID) ?? []))
    }
}
