public import Events

/// An account as decisions see it (stream `account-<userId>`).
public struct AccountState: Aggregate, Hashable {
    /// Whether the user signed up.
    public var exists = false
    /// Whether the account was deleted.
    public var deleted = false
    /// The user's name.
    public var name = ""
    /// The current email.
    public var email = ""
    /// The preferred language.
    public var language: Language = .enUS

    public init() {}

    public static func evolve(_ state: AccountState, _ event: any DomainEvent) -> AccountState {
        var s = state
        switch event {
        case let e as AccountSignedUp:
            s.exists = true
            s.name = e.name
            s.email = e.email
            s.language = e.language
        case is AccountDeleted:
            s.deleted = true
        default:
            break
        }
        return s
    }
}
