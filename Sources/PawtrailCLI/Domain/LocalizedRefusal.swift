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
    ///   - handler: The handler that refused it: its store holds the account's language, and its snapshots and
    ///     cache spare folding the account's whole stream to read it.
    /// - Returns: The refusal with its sentence.
    static func of(_ error: DomainError, for user: String, in handler: CommandHandler) async -> LocalizedRefusal {
        LocalizedRefusal(error: error, sentence: error.sentence(in: await language(of: user, in: handler)))
    }

    /// The language an account chose; English for a guest, an unknown user, or a store that cannot be read.
    static func language(of user: String, in handler: CommandHandler) async -> Language {
        guard !Actor.isGuestID(user), (try? EventLimits.validateStreamID("account-" + user)) != nil else { return .enUS }
        var loader = StreamLoader(store: handler.store, snapshots: handler.snapshots, cache: handler.cache)
        return (try? await loader.load(AccountState.self, Streams.account(user)).language) ?? .enUS
    }
}
