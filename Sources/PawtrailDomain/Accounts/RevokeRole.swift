public import Events

/// `role.revoke`: an admin revokes a role; the last admin cannot be revoked, so the business is never locked out.
public struct RevokeRole: DomainCommand, Hashable {
    public static let name = "role.revoke"
    public static let summary = "Revoke the staff or admin role of a user (admins only; never the last admin)."

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
        try decide(context, roles: try await loader.load(RolesState.self, Streams.roles))
    }

    /// The pure decision.
    public func decide(_ context: DecisionContext, roles: RolesState) throws(DomainError) -> Decision {
        guard context.actor.isAdmin else { throw .forbidden("only admins revoke roles; \(context.actor) is not one") }
        let holds = role == .admin ? roles.admins.contains(userId) : roles.staff.contains(userId)
        guard holds else { throw .notFound("user '\(userId)' does not hold the \(role.rawValue) role") }
        if role == .admin && roles.admins.count == 1 {
            throw .rejected("'\(userId)' is the last admin; grant another admin first")
        }
        return .append(Streams.roles, RoleRevoked(userId: userId, role: role, revokedBy: context.actor.userID))
    }
}
