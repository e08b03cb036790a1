public import Events

/// `admin.bootstrap`: the actor becomes the very first admin; refused once any admin exists.
public struct BootstrapAdmin: DomainCommand, Hashable {
    public static let name = "admin.bootstrap"
    public static let summary = "Make the actor the first admin; refused once any admin exists."

    public init() {}
    public init(reading r: inout some FieldReader) throws(FieldError) {}
    public func write(to w: inout some FieldWriter) {}

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, roles: try await loader.load(RolesState.self, Streams.roles))
    }

    /// The pure decision.
    public func decide(_ context: DecisionContext, roles: RolesState) throws(DomainError) -> Decision {
        guard roles.admins.isEmpty else {
            throw .rejected("an admin exists already (\(roles.admins.sorted().joined(separator: ", "))); ask one to grant roles")
        }
        return .append(Streams.roles, AdminBootstrapped(userId: context.actor.userID))
    }
}
