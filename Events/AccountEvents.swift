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
        name = try r.string("name")
        email = try r.string("email")
        language = try r.choice("language", Language.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.string("name", name)
        w.string("email", email)
        w.choice("language", language)
    }
}

/// A user deleted their account (after reauthenticating).
public struct AccountDeleted: DomainEvent {
    public static let eventType = "AccountDeleted"
    public static let area = "accounts"
    public static let summary = "A user deleted their account; it accepts no further commands."
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
        email = try r.string("email")
        userId = try r.string("userId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("email", email)
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
        email = try r.string("email")
        userId = try r.string("userId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("email", email)
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

/// The accounts area's event types, in catalog order.
public enum AccountEvents {
    public static let all: [any DomainEvent.Type] = [
        AccountSignedUp.self, AccountDeleted.self, EmailClaimed.self, EmailReleased.self, AdminBootstrapped.self,
        RoleGranted.self, RoleRevoked.self,
    ]
}
