public import Events

/// Who holds which role (stream `roles`).
public struct RolesState: Aggregate, Hashable {
    /// The admins.
    public var admins: Set<String> = []
    /// The staff (admins are not listed here unless also granted staff).
    public var staff: Set<String> = []

    public init() {}

    public static let snapshotKind = "roles"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        admins = Set(try r.strings("admins"))
        staff = Set(try r.strings("staff"))
    }

    public func write(to w: inout some FieldWriter) {
        w.strings("admins", admins.sorted())
        w.strings("staff", staff.sorted())
    }

    /// The role of a user: admin, else staff, else customer.
    public func role(of userID: String) -> Role {
        if admins.contains(userID) { return .admin }
        if staff.contains(userID) { return .staff }
        return .customer
    }

    public static func evolve(_ state: RolesState, _ event: any DomainEvent) -> RolesState {
        var s = state
        switch event {
        case let e as AdminBootstrapped:
            s.admins.insert(e.userId)
        case let e as RoleGranted:
            switch e.role {
            case .admin: s.admins.insert(e.userId)
            case .staff: s.staff.insert(e.userId)
            }
        case let e as RoleRevoked:
            switch e.role {
            case .admin: s.admins.remove(e.userId)
            case .staff: s.staff.remove(e.userId)
            }
        default:
            break
        }
        return s
    }
}
