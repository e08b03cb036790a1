public import Events

/// `shop.set-read-policy`: an admin decides whether every read of a view must name its reader (`--as USER`), for a
/// store behind customer-facing apps. Off by default: the operator who owns the store's files reads without `--as`.
public struct SetReadPolicy: DomainCommand, Hashable {
    public static let name = "shop.set-read-policy"
    public static let summary = "Require every read of a view to name its reader with --as, or stop requiring it (admins only)."

    public var requireViewer: Bool

    public init(requireViewer: Bool) {
        self.requireViewer = requireViewer
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requireViewer = try r.bool("requireViewer")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("requireViewer", requireViewer)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, settings: try await loader.load(ShopSettingsState.self, Streams.settings))
    }

    /// The pure decision: the policy as asked; the policy already in force appends nothing.
    ///
    /// - Parameters:
    ///   - context: The actor.
    ///   - settings: The shop's settings.
    /// - Returns: ``ReadPolicySet``, or nothing.
    /// - Throws: ``DomainError/forbidden(_:)`` for an actor who is not an admin.
    public func decide(_ context: DecisionContext, settings: ShopSettingsState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("set the read policy")
        guard settings.requireViewer != requireViewer else { return .nothing }
        return .append(Streams.settings, ReadPolicySet(requireViewer: requireViewer, setBy: context.actor.userID))
    }
}
