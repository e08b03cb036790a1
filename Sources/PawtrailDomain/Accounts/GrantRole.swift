public import Events

/// `role.grant`: an admin grants the staff or admin role to a user with an account.
public struct GrantRole: DomainCommand, Hashable {
    public static let name = "role.grant"
    public static let summary = "Grant the staff or admin role to a user (admins only)."

    public var userId: String
    public var role: GrantableRole

    public init(userId: String, role: GrantableRole) {
        self.userId = userId
        self.role = role
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        role = try r.choice("role", GrantableRole.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.choice("role", role)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(userId, field: "userId")
        let roles = try await loader.load(RolesState.self, Streams.roles)
        let account = try await loader.load(AccountState.self, Streams.account(userId))
        return try decide(context, roles: roles, grantee: account)
    }

    /// The pure decision.
    public func decide(_ context: DecisionContext, roles: RolesState, grantee: AccountState) throws(DomainError) -> Decision {
        guard context.actor.isAdmin else { throw .forbidden("only admins grant roles; \(context.actor) is not one") }
        guard grantee.exists, !grantee.deleted else { throw .notFound("user '\(userId)' has no account") }
        let holds = role == .admin ? roles.admins.contains(userId) : roles.staff.contains(userId)
        guard !holds else { throw .alreadyExists("user '\(userId)' already holds the \(role.rawValue) role") }
        return .append(Streams.roles, RoleGranted(userId: userId, role: role, grantedBy: context.actor.userID))
    }
}
