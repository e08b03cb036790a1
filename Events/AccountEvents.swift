public import EventLog

// The accounts area: sign-up and the account's life, email claims that keep emails unique, and roles.

/// The languages the apps speak.
public enum Language: String, FieldChoice {
    case enUS = "en-US"
    case bnBD = "bn-BD"
}

/// The roles an admin grants (customers need no grant).
public enum GrantableRole: String, FieldChoice {
    case staff, admin
}

/// A user signed up. Passwords never reach the log.
public struct AccountSignedUp: DomainEvent {
    public static let eventType = "AccountSignedUp"
    public static let area = "accounts"
    public static let summary = "A user signed up with a name, a unique email and a preferred language."
    public var userId: String
    public var name: String
    public var email: String
    public var language: Language

    public init(userId: String, name: String, email: String, language: Language) {
        self.userId = userId
        self.name = name
        self.email = email
        self.language = language
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        name = try r.personal("name")
        email = try r.personal("email")
        language = try r.choice("language", Language.self)
    }

    public var personalDataSubject: String? { userId }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.personal("name", name)
        w.personal("email", email)
        w.choice("language", language)
    }
}

/// A user deleted their account (after reauthenticating).
public struct AccountDeleted: DomainEvent {
    public static let eventType = "AccountDeleted"
    public static let area = "accounts"
    public static let summary = "A user deleted their account: it accepts no further commands, and its personal data is erased (its key destroyed)."
    public var userId: String
    public var reauthenticatedAt: Timestamp

    public init(userId: String, reauthenticatedAt: Timestamp) {
        self.userId = userId
        self.reauthenticatedAt = reauthenticatedAt
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        reauthenticatedAt = try r.timestamp("reauthenticatedAt")
    }

    /// The account's key is destroyed once this is appended: its personal data reads as erased from then on.
    public var erasesPersonalDataOf: String? { userId }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.timestamp("reauthenticatedAt", reauthenticatedAt)
    }
}

/// An email address was claimed by an account (stream `email-<address>`): the claim keeps emails unique.
public struct EmailClaimed: DomainEvent {
    public static let eventType = "EmailClaimed"
    public static let area = "accounts"
    public static let summary = "An account claimed an email address, which no other account may then use."
    public var email: String
    public var userId: String

    public init(email: String, userId: String) {
        self.email = email
        self.userId = userId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        email = try r.personal("email")
        userId = try r.string("userId")
    }

    public var personalDataSubject: String? { userId }

    public func write(to w: inout some FieldWriter) {
        w.personal("email", email)
        w.string("userId", userId)
    }
}

/// An email address was given up (the account changed its email or was deleted).
public struct EmailReleased: DomainEvent {
    public static let eventType = "EmailReleased"
    public static let area = "accounts"
    public static let summary = "An account gave up an email address, which another account may now claim."
    public var email: String
    public var userId: String

    public init(email: String, userId: String) {
        self.email = email
        self.userId = userId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        email = try r.personal("email")
        userId = try r.string("userId")
    }

    public var personalDataSubject: String? { userId }

    public func write(to w: inout some FieldWriter) {
        w.personal("email", email)
        w.string("userId", userId)
    }
}

/// The first admin was created by the bootstrap command (stream `roles`).
public struct AdminBootstrapped: DomainEvent {
    public static let eventType = "AdminBootstrapped"
    public static let area = "accounts"
    public static let summary = "The very first admin was created; bootstrap refuses once any admin exists."
    public var userId: String

    public init(userId: String) {
        self.userId = userId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
    }
}

/// An admin granted a role (stream `roles`).
public struct RoleGranted: DomainEvent {
    public static let eventType = "RoleGranted"
    public static let area = "accounts"
    public static let summary = "An admin granted the staff or admin role to a user."
    public var userId: String
    public var role: GrantableRole
    public var grantedBy: String

    public init(userId: String, role: GrantableRole, grantedBy: String) {
        self.userId = userId
        self.role = role
        self.grantedBy = grantedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        role = try r.choice("role", GrantableRole.self)
        grantedBy = try r.string("grantedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.choice("role", role)
        w.string("grantedBy", grantedBy)
    }
}

/// An admin revoked a role (stream `roles`).
public struct RoleRevoked: DomainEvent {
    public static let eventType = "RoleRevoked"
    public static let area = "accounts"
    public static let summary = "An admin revoked the staff or admin role of a user."
    public var userId: String
    public var role: GrantableRole
    public var revokedBy: String

    public init(userId: String, role: GrantableRole, revokedBy: String) {
        self.userId = userId
        self.role = role
        self.revokedBy = revokedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        role = try r.choice("role", GrantableRole.self)
        revokedBy = try r.string("revokedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.choice("role", role)
        w.string("revokedBy", revokedBy)
    }
}

/// A user logged in, opening a session (one per device or app install).
public struct LoggedIn: DomainEvent {
    public static let eventType = "LoggedIn"
    public static let area = "accounts"
    public static let summary = "A user logged in and a new session was opened."
    public var userId: String
    public var sessionId: String

    public init(userId: String, sessionId: String) {
        self.userId = userId
        self.sessionId = sessionId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        sessionId = try r.string("sessionId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.string("sessionId", sessionId)
    }
}

/// A user logged out of one session.
public struct LoggedOut: DomainEvent {
    public static let eventType = "LoggedOut"
    public static let area = "accounts"
    public static let summary = "A user logged out and the session was closed."
    public var userId: String
    public var sessionId: String

    public init(userId: String, sessionId: String) {
        self.userId = userId
        self.sessionId = sessionId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        sessionId = try r.string("sessionId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.string("sessionId", sessionId)
    }
}

/// An app restored an open session on start, without a new log-in.
public struct SessionRestored: DomainEvent {
    public static let eventType = "SessionRestored"
    public static let area = "accounts"
    public static let summary = "An open session was restored when an app started again."
    public var userId: String
    public var sessionId: String

    public init(userId: String, sessionId: String) {
        self.userId = userId
        self.sessionId = sessionId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        sessionId = try r.string("sessionId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.string("sessionId", sessionId)
    }
}

/// A user asked for a password reset link. Only the fact and the address it goes to are recorded.
public struct PasswordResetRequested: DomainEvent {
    public static let eventType = "PasswordResetRequested"
    public static let area = "accounts"
    public static let summary = "A user asked for a password reset link, sent to the account's email."
    public var userId: String
    /// The address the link goes to: the account's email when the request was made.
    public var email: String

    public init(userId: String, email: String) {
        self.userId = userId
        self.email = email
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        email = try r.personal("email")
    }

    public var personalDataSubject: String? { userId }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.personal("email", email)
    }
}

/// A user changed their password. Neither the password nor a hash of it is ever recorded.
public struct PasswordChanged: DomainEvent {
    public static let eventType = "PasswordChanged"
    public static let area = "accounts"
    public static let summary = "A user changed their password after reauthenticating (the password itself is never recorded)."
    /// Version 2 added `reauthenticatedAt`.
    public static let schemaVersion = 2
    public var userId: String
    /// When the user reauthenticated for the change; `nil` for changes recorded before it was required.
    public var reauthenticatedAt: Timestamp?

    public init(userId: String, reauthenticatedAt: Timestamp?) {
        self.userId = userId
        self.reauthenticatedAt = reauthenticatedAt
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        reauthenticatedAt = try r.optionalTimestamp("reauthenticatedAt")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.optionalTimestamp("reauthenticatedAt", reauthenticatedAt)
    }

    /// Reads a version 1 change, which had no reauthentication.
    ///
    /// - Parameters:
    ///   - version: The version the data was written with.
    ///   - reader: A reader at the first field.
    /// - Returns: The event in the version 2 shape.
    /// - Throws: ``FieldError`` for an unknown version or a malformed field.
    public static func upcast(from version: Int, reading r: inout BinaryFieldReader) throws(FieldError) -> PasswordChanged {
        guard version == 1 else {
            throw FieldError(field: "", message: "\(eventType) has no schema version \(version)")
        }
        return PasswordChanged(userId: try r.string("userId"), reauthenticatedAt: nil)
    }
}

/// A user changed their email (after reauthenticating); the claims of both addresses change in the same append.
public struct EmailChanged: DomainEvent {
    public static let eventType = "EmailChanged"
    public static let area = "accounts"
    public static let summary = "A user changed their email address after reauthenticating."
    public var userId: String
    public var oldEmail: String
    public var newEmail: String
    public var reauthenticatedAt: Timestamp

    public init(userId: String, oldEmail: String, newEmail: String, reauthenticatedAt: Timestamp) {
        self.userId = userId
        self.oldEmail = oldEmail
        self.newEmail = newEmail
        self.reauthenticatedAt = reauthenticatedAt
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        oldEmail = try r.personal("oldEmail")
        newEmail = try r.personal("newEmail")
        reauthenticatedAt = try r.timestamp("reauthenticatedAt")
    }

    public var personalDataSubject: String? { userId }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.personal("oldEmail", oldEmail)
        w.personal("newEmail", newEmail)
        w.timestamp("reauthenticatedAt", reauthenticatedAt)
    }
}

/// A user updated their profile. Only the fields that changed are present; an empty phone or address was cleared.
public struct ProfileUpdated: DomainEvent {
    public static let eventType = "ProfileUpdated"
    public static let area = "accounts"
    public static let summary = "A user changed their name, phone or address (only the changed fields are given)."
    public var userId: String
    public var name: String?
    public var phone: String?
    public var address: String?

    public init(userId: String, name: String? = nil, phone: String? = nil, address: String? = nil) {
        self.userId = userId
        self.name = name
        self.phone = phone
        self.address = address
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        name = try r.optionalPersonal("name")
        phone = try r.optionalPersonal("phone")
        address = try r.optionalPersonal("address")
    }

    public var personalDataSubject: String? { userId }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.optionalPersonal("name", name)
        w.optionalPersonal("phone", phone)
        w.optionalPersonal("address", address)
    }
}

/// A user changed their profile image. The log holds the image's SHA-256 and size, never its bytes.
public struct ProfileImageChanged: DomainEvent {
    public static let eventType = "ProfileImageChanged"
    public static let area = "accounts"
    public static let summary = "A user changed their profile image (its SHA-256 content hash and byte size)."
    public var userId: String
    /// The SHA-256 of the image's bytes, 64 lowercase hex digits.
    public var contentHash: String
    public var byteSize: Int64

    public init(userId: String, contentHash: String, byteSize: Int64) {
        self.userId = userId
        self.contentHash = contentHash
        self.byteSize = byteSize
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        contentHash = try r.string("contentHash")
        byteSize = try r.int("byteSize")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.string("contentHash", contentHash)
        w.int("byteSize", byteSize)
    }
}

/// A user changed their preferred language.
public struct LanguageChanged: DomainEvent {
    public static let eventType = "LanguageChanged"
    public static let area = "accounts"
    public static let summary = "A user changed their preferred language."
    public var userId: String
    public var language: Language

    public init(userId: String, language: Language) {
        self.userId = userId
        self.language = language
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        language = try r.choice("language", Language.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.choice("language", language)
    }
}

/// The accounts area's event types, in catalog order.
public enum AccountEvents {
    public static let all: [any DomainEvent.Type] = [
        AccountSignedUp.self, AccountDeleted.self, EmailClaimed.self, EmailReleased.self, AdminBootstrapped.self,
        RoleGranted.self, RoleRevoked.self, LoggedIn.self, LoggedOut.self, SessionRestored.self,
        PasswordResetRequested.self, PasswordChanged.self, EmailChanged.self, ProfileUpdated.self,
        ProfileImageChanged.self, LanguageChanged.self, NotificationSettingChanged.self, NotificationSent.self,
    ]
}
