public import Events

/// `account.change-language`: the actor switches the language the apps speak to them.
public struct ChangeLanguage: DomainCommand, Hashable {
    public static let name = "account.change-language"
    public static let summary = "Change your preferred language (en-US or bn-BD)."

    public var language: Language

    public init(language: Language) {
        self.language = language
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        language = try r.choice("language", Language.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("language", language)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        decide(context, account: try await loader.load(AccountState.self, Streams.account(context.actor.userID)))
    }

    /// The pure decision; the current language appends nothing.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - account: The actor's account.
    /// - Returns: ``LanguageChanged``, or nothing.
    public func decide(_ context: DecisionContext, account: AccountState) -> Decision {
        guard language != account.language else { return .nothing }
        let userID = context.actor.userID
        return .append(Streams.account(userID), LanguageChanged(userId: userID, language: language))
    }
}
