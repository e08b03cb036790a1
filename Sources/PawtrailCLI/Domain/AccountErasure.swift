import EventLog
import Events
import PawtrailDomain
import ProjectionRuntime
import Projections

/// What follows an account's deletion once it is appended, in the same CLI call. The account accepts no new
/// commands from then on, so nothing new can be left open while this runs.
///
/// 1. Its obligations end, each by the domain's own command issued as the deleted account (which may still wind
///    down what it left open): every active pet is removed (`pet.remove`, which cancels the pet's active bookings,
///    releases their salon time and so stops their reminders), and every order not yet shipped is cancelled
///    (`order.cancel`, which releases its stock). An order already shipped is delivered as usual.
/// 2. The copies made before go: the log already reads the account's personal data as erased (its key is gone),
///    but the snapshots of the account's stream and of its conversations are removed (their rows overwritten and
///    the write-ahead log emptied), and every built read model that holds personal data
///    (``Projection/holdsPersonalData``) is rebuilt from the log, so that live views, their stored history for time
///    travel and an audit all agree.
enum AccountErasure {
    /// The reason recorded on the orders a deletion cancels.
    static let cancelReason = "the account was deleted"

    /// The accounts an outcome erased.
    static func erasedAccounts(_ outcome: CommandOutcome) -> [String] {
        outcome.replayed ? [] : outcome.events.compactMap { $0.event.erasesPersonalDataOf }
    }

    /// Ends what the deleted accounts left open.
    ///
    /// - Parameters:
    ///   - users: The deleted accounts.
    ///   - context: The command's context.
    /// - Returns: The pets removed and the orders cancelled.
    /// - Throws: What reading the read models or a command throws.
    static func endObligations(of users: [String], _ context: CommandContext) async throws -> (pets: Int, orders: Int) {
        let opened = try context.openStore(.read)
        return try await endObligations(of: users, in: opened, handler: try context.commandHandler(), now: .now())
    }

    /// Ends what the deleted accounts left open, through a given handler at a given time (the demo's clock).
    static func endObligations(
        of users: [String], in opened: OpenedStore, handler: CommandHandler, now: Timestamp
    ) async throws -> (pets: Int, orders: Int) {
        guard let states = opened.states, !users.isEmpty else { return (0, 0) }
        let engine = ProjectionEngine(store: opened.events, states: states)
        let pets = try await engine.load(PetsProjection.self)
        try pets.checkReads()
        let orders = try await engine.load(OrdersProjection.self)
        try orders.checkReads()
        var ended = (pets: 0, orders: 0)
        for user in users {
            for id in pets.state.byOwner[user]?.ids ?? [] where pets.state.pets[id]?.removed == false {
                ended.pets += try await handler.handle(RemovePet(petId: id), as: user, now: now).events.isEmpty ? 0 : 1
            }
            for id in orders.state.byCustomer[user]?.ids ?? [] {
                guard let status = orders.state.orders[id]?.status, status == .placed || status == .confirmed else { continue }
                let cancel = CancelOrder(orderId: id, reason: cancelReason)
                ended.orders += try await handler.handle(cancel, as: user, now: now).events.isEmpty ? 0 : 1
            }
        }
        return ended
    }

    /// Removes the erased accounts' data from the snapshots and the read models.
    ///
    /// - Parameters:
    ///   - users: The erased accounts.
    ///   - context: The command's context.
    /// - Returns: The read models rebuilt.
    /// - Throws: What opening the store, removing snapshots or rebuilding throws.
    static func purgeCopies(of users: [String], _ context: CommandContext) async throws -> [String] {
        let opened = try context.openStore(.read)
        if let snapshots = opened.snapshots {
            // The stream states that hold personal data: the account's own, and its conversations' messages
            // (found by their owner in the snapshots themselves, so no read model has to be built for it).
            var removals = users.map { (Streams.account($0), AccountState.snapshotKind) }
            let owners = Set(users)
            try await snapshots.forEach { snapshot in
                if snapshot.kind == ConversationState.snapshotKind,
                    let state = try? ConversationState(snapshotBytes: snapshot.state), owners.contains(state.ownerId)
                {
                    removals.append((snapshot.stream, snapshot.kind))
                }
                return true
            }
            for (stream, kind) in removals { try await snapshots.remove(stream: stream, kind: kind) }
        }
        guard let states = opened.states else { return [] }
        let engine = ProjectionEngine(store: opened.events, states: states)
        let built = try await engine.status(ProjectionCatalog.projections).filter(\.built).map(\.name)
        let types = ProjectionCatalog.projections.filter { $0.holdsPersonalData && built.contains($0.name) }
        guard !types.isEmpty else { return [] }
        return try await engine.rebuild(types).projections
    }
}
