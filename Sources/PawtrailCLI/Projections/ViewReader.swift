import EventLog
import PawtrailDomain
import ProjectionRuntime
import Projections

/// The reader a view or an order's history is read for: `--as USER`, resolved against the store's accounts and roles.
enum ViewReader {
    /// The reader named by `--as`; `nil` when none is named and the store does not require one.
    ///
    /// - Parameters:
    ///   - context: The command (its `--as`).
    ///   - store: The store whose accounts, roles and settings decide.
    /// - Returns: The viewer, or `nil` for the store's operator.
    /// - Throws: ``UsageError`` for a malformed id, or no `--as` on a store that requires one (set by
    ///   `shop set-read-policy`); ``DomainError/forbidden(_:)`` for a user without a live account; the store's errors.
    static func viewer(_ context: CommandContext, store: any EventStore) async throws -> Viewer? {
        try await viewer(context, store: store) { try await ShopSettingsState.current(in: store).requireViewer }
    }

    /// The reader named by `--as`, the read policy taken from the store's read models (``SettingsProjection``): a view
    /// whose read models are caught up then reads nothing of the log.
    ///
    /// - Parameters:
    ///   - context: The command (its `--as`).
    ///   - engine: The store's read models.
    /// - Returns: The viewer, or `nil` for the store's operator.
    /// - Throws: As ``viewer(_:store:)``.
    static func viewer(_ context: CommandContext, engine: ProjectionEngine) async throws -> Viewer? {
        try await viewer(context, store: engine.store) {
            // A read-only copy written before the read model existed would fold the whole log at every view: it
            // reads the settings stream instead.
            guard try engine.keepsState(of: SettingsProjection.self) else {
                return try await ShopSettingsState.current(in: engine.store).requireViewer
            }
            return try await engine.load(SettingsProjection.self).state.requireViewer
        }
    }

    private static func viewer(_ context: CommandContext, store: any EventStore, requiresReader: () async throws -> Bool) async throws -> Viewer? {
        guard let userID = context.arguments.value("as") else {
            if try await requiresReader() {
                throw context.arguments.usageError(
                    "this store requires every read to name its reader: give '--as USER' (an admin requires it with 'shop set-read-policy')")
            }
            return nil
        }
        let actor: Actor
        do {
            actor = try await ActorLookup.actor(userID, in: store)
        } catch let error as DomainError where error.kind == "invalid-command" {
            throw context.arguments.usageError("invalid value for '--as': \(userID) may hold only letters, digits and - _ . : @")
        }
        return Viewer(userID: userID, isStaff: actor.isStaff, isAdmin: actor.isAdmin)
    }
}
