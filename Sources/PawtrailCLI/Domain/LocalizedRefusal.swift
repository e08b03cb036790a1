import EventLog
import Events
import PawtrailDomain

/// A domain refusal with its sentence in the actor's language: `Error:` on stderr says it in that language, and
/// the JSON keeps the English `message` (for operators and scripts) beside `userMessage`.
struct LocalizedRefusal: Error {
    /// The refusal.
    var error: DomainError
    /// Its sentence in the actor's language.
    var sentence: String

    /// The refusal in the language of the account that issued the command; English when it has no account.
    ///
    /// - Parameters:
    ///   - error: The refusal.
    ///   - user: The actor.
    ///   - store: The store, where the account's language is.
    /// - Returns: The refusal with its sentence.
    static func of(_ error: DomainError, for user: String, in store: any EventStore) async -> LocalizedRefusal {
        LocalizedRefusal(error: error, sentence: error.sentence(in: await language(of: user, in: store)))
    }

    /// The language an account chose; English for a guest, an unknown user, or a store that cannot be read.
    static func language(of user: String, in store: any EventStore) async -> Language {
        guard !Actor.isGuestID(user), (try? EventLimits.validateStreamID("account-" + user)) != nil else { return .enUS }
        var loader = StreamLoader(store: store)
        return (try? await loader.load(AccountState.self, Streams.account(user)).language) ?? .enUS
    }
}
