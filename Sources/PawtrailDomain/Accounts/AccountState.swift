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
    /// The phone number, empty when none is given.
    public var phone = ""
    /// The postal address, empty when none is given.
    public var address = ""
    /// The SHA-256 of the profile image, `nil` when the account has none.
    public var imageHash: String?
    /// The byte size of the profile image, 0 when the account has none.
    public var imageByteSize: Int64 = 0
    /// The sessions logged in and not yet logged out.
    public var openSessions: Set<String> = []
    /// The sessions logged out (kept so that a stale session is told apart from an unknown one).
    public var closedSessions: Set<String> = []
    /// The kinds of notification turned off (raw values).
    public var notificationsOff: Set<String> = []

    public init() {}

    public static let snapshotKind = "account"
    public static let schemaVersion = 2

    public init(reading r: inout some FieldReader) throws(FieldError) {
        exists = try r.bool("exists")
        deleted = try r.bool("deleted")
        name = try r.string("name")
        email = try r.string("email")
        language = try r.choice("language", Language.self)
        phone = try r.string("phone")
        address = try r.string("address")
        imageHash = try r.optionalString("imageHash")
        imageByteSize = try r.int("imageByteSize")
        openSessions = Set(try r.strings("openSessions"))
        closedSessions = Set(try r.strings("closedSessions"))
        notificationsOff = Set(try r.strings("notificationsOff"))
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("exists", exists)
        w.bool("deleted", deleted)
        w.string("name", name)
        w.string("email", email)
        w.choice("language", language)
        w.string("phone", phone)
        w.string("address", address)
        w.optionalString("imageHash", imageHash)
        w.int("imageByteSize", imageByteSize)
        w.strings("openSessions", openSessions.sorted())
        w.strings("closedSessions", closedSessions.sorted())
        w.strings("notificationsOff", notificationsOff.sorted())
    }

    /// Where a session of this account stands; the raw value is its name in messages.
    public enum SessionStatus: String, Sendable {
        case open
        case loggedOut = "logged out"
    }

    /// The status of a session of this account, `nil` when this account never opened it.
    public func sessionStatus(_ sessionId: String) -> SessionStatus? {
        if openSessions.contains(sessionId) { return .open }
        if closedSessions.contains(sessionId) { return .loggedOut }
        return nil
    }

    /// Checks that a session is open on this account.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - userID: The account's user, for messages.
    ///   - action: What only an open session can be (`logged out`), for messages.
    /// - Throws: ``DomainError/notFound(_:)`` for a session this account never opened (another account's
    ///   included); ``DomainError/invalidState(_:)`` naming the status of a logged-out one.
    public func checkOpenSession(_ sessionId: String, of userID: String, action: String) throws(DomainError) {
        switch sessionStatus(sessionId) {
        case .open:
            return
        case .loggedOut:
            throw .invalidState(
                "session '\(sessionId)' of '\(userID)' is logged out; only an open session can be \(action)")
        case nil:
            throw .notFound("session '\(sessionId)' is not a session of '\(userID)'")
        }
    }

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
            s.closedSessions.formUnion(s.openSessions)
            s.openSessions = []
        case let e as LoggedIn:
            s.openSessions.insert(e.sessionId)
        case let e as LoggedOut:
            s.openSessions.remove(e.sessionId)
            s.closedSessions.insert(e.sessionId)
        case let e as EmailChanged:
            s.email = e.newEmail
        case let e as ProfileUpdated:
            if let name = e.name { s.name = name }
            if let phone = e.phone { s.phone = phone }
            if let address = e.address { s.address = address }
        case let e as ProfileImageChanged:
            s.imageHash = e.contentHash
            s.imageByteSize = e.byteSize
        case let e as LanguageChanged:
            s.language = e.language
        case let e as NotificationSettingChanged:
            if e.setting == .off { s.notificationsOff.insert(e.kind.rawValue) } else { s.notificationsOff.remove(e.kind.rawValue) }
        default:
            break
        }
        return s
    }
}
