public import Events

/// What an actor may do: customers act on what they own, staff run the shop floor, admins run the business.
/// Guests (ids starting `guest-`) have a cart and favourites and nothing else.
public enum Role: String, FieldChoice, Comparable {
    case guest, customer, staff, admin

    public static func < (lhs: Role, rhs: Role) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Who issues a command: a user id and the role the store knows for it (never a role the caller claims).
public struct Actor: Hashable, Sendable, CustomStringConvertible {
    /// The user id (`u-alice`), or a guest id (`guest-7f3a`).
    public var userID: String
    /// The role.
    public var role: Role

    /// Creates an actor.
    public init(userID: String, role: Role) {
        self.userID = userID
        self.role = role
    }

    /// The prefix of guest ids.
    public static let guestPrefix = "guest-"

    /// Whether an id names a guest.
    public static func isGuestID(_ id: String) -> Bool { id.hasPrefix(guestPrefix) }

    /// Whether the actor is staff or an admin.
    public var isStaff: Bool { role >= .staff }

    /// Whether the actor is an admin.
    public var isAdmin: Bool { role == .admin }

    public var description: String { "\(role.rawValue) '\(userID)'" }
}
