public import Events

/// `account.signup`: the actor's id becomes a new account with a unique email.
public struct SignUp: DomainCommand, Hashable {
    public static let name = "account.signup"
    public static let summary = "Sign up: create the actor's account with a name, a unique email and a language."
    public static let actorNeedsAccount = false

    public var name: String
    public var email: String
    public var language: Language?

    public init(name: String, email: String, language: Language? = nil) {
        self.name = name
        self.email = email
        self.language = language
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        name = try r.string("name")
        email = try r.string("email")
        language = try r.optionalChoice("language", Language.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("name", name)
        w.string("email", email)
        w.optionalChoice("language", language)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let userID = context.actor.userID
        let address = Email.normalized(email)
        try Email.validate(email)
        let account = try await loader.load(AccountState.self, Streams.account(userID))
        let claim = try await loader.load(EmailClaimState.self, Streams.email(address))
        return try decide(context, account: account, claim: claim)
    }

    /// The pure decision.
    public func decide(_ context: DecisionContext, account: AccountState, claim: EmailClaimState) throws(DomainError)
        -> Decision
    {
        let userID = context.actor.userID
        let cleanName = try Validate.text(name, field: "name", max: 100)
        let address = Email.normalized(email)
        guard !account.exists else { throw .alreadyExists("user '\(userID)' already has an account") }
        if claim.holder != nil {
            throw .alreadyExists("the email \(address) is already used by another account")
        }
        return Decision([
            StreamWrite(
                Streams.account(userID),
                [AccountSignedUp(userId: userID, name: cleanName, email: address, language: language ?? .enUS)]),
            StreamWrite(Streams.email(address), [EmailClaimed(email: address, userId: userID)]),
        ])
    }
}
