import EventLog
import PawtrailDomain
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
        guard let userID = context.arguments.value("as") else {
            if try await ShopSettingsState.current(in: store).requireViewer {
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
