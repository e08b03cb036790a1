/// Who may read a view's answer (`pawtrail view ... --as USER`): what each actor may see of the shop.
public enum ViewAudience: Sendable, Hashable {
    /// Anyone, guests included: the catalog and product pages.
    case everyone
    /// The user whose data it is (a customer's cart, orders, pets, activity, conversations; a guest's cart and
    /// favourites), and the shop's staff and admins, who serve them.
    case userAndStaff(String)
    /// Staff and admins: the shop's queues, stock and till.
    case staff
    /// Admins only: the dashboard.
    case admins

    /// Whether a viewer may read it.
    public func admits(_ viewer: Viewer) -> Bool {
        switch self {
        case .everyone: true
        case .userAndStaff(let user): viewer.userID == user || viewer.isStaff
        case .staff: viewer.isStaff
        case .admins: viewer.isAdmin
        }
    }
}

/// The actor reading a view: a user id and what the store's roles make them.
public struct Viewer: Sendable, Hashable {
    public var userID: String
    /// Staff or admin.
    public var isStaff: Bool
    public var isAdmin: Bool

    public init(userID: String, isStaff: Bool, isAdmin: Bool) {
        self.userID = userID
        self.isStaff = isStaff || isAdmin
        self.isAdmin = isAdmin
    }
}
