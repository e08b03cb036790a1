/// The role checks of the shop's commands, worded the same way everywhere.
extension Actor {
    /// Checks that the actor is an admin.
    ///
    /// - Parameter action: What only admins do, completing "only admins ..." (`add products`).
    /// - Throws: ``DomainError/forbidden(_:)`` naming the actor.
    public func requireAdmin(_ action: String) throws(DomainError) {
        guard isAdmin else { throw .forbidden("only admins \(action); \(self) is not one") }
    }

    /// Checks that the actor is staff (admins are staff too).
    ///
    /// - Parameter action: What only staff do, completing "only staff ..." (`confirm orders`).
    /// - Throws: ``DomainError/forbidden(_:)`` naming the actor.
    public func requireStaff(_ action: String) throws(DomainError) {
        guard isStaff else { throw .forbidden("only staff \(action); \(self) is not staff") }
    }
}
