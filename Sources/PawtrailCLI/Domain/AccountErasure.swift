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
/// 2. The copies made before go: the log already reads the account's personal data as erased (its key is gone), and
///    the read models keep tokens that views open from the log (``Projection/foldsPersonalReferences``), so they read
///    as erased too, present and past. The snapshots of the account's stream and of its conversations are removed
///    (their rows overwritten and the write-ahead log emptied), and the personal index, once built, folds the
///    deletion, which erases the account's directory entries, present and past. A read model that still keeps
///    personal values (``Projection/holdsPersonalData``; none of the built-in ones) is rebuilt from the log.
enum AccountErasure {
    /// The reason recorded on the orders a deletion cancels.
    static let cancelReason = "the account was deleted"

    /// The accounts an outcome erased.
    static func erasedAccounts(_ outcome: CommandOutcome) -> [String] {
        outcome.replayed ? [] : outcome.events.compactMap { $0.event.erasesPersonalDataOf }
    }

    /// What ``finish(erasing:in:handler:now:)`` did.
    struct Report {
        /// Pets removed.
        var pets = 0
        /// Orders not yet shipped, cancelled.
        var orders = 0
        /// The read models rebuilt.
        var rebuilt: [String] = []
    }

    /// Ends what the erased accounts left open, then removes the copies of their personal data, on the store and
    /// through the handler of the command that erased them.
    ///
    /// - Parameters:
    ///   - users: The erased accounts.
    ///   - opened: The store.
    ///   - handler: The handler the winding-down commands go through.
    ///   - now: Their clock (the demo's, or the current time).
    /// - Returns: What was ended and rebuilt.
    /// - Throws: What reading the read models, a command, removing snapshots or rebuilding throws.
    static func finish(erasing users: [String], in opened: OpenedStore, handler: CommandHandler, now: Timestamp) async throws -> Report {
        var report = Report()
        guard !users.isEmpty else { return report }
        let engine = opened.states.map { ProjectionEngine(store: opened.events, states: $0) }
        if let engine { (report.pets, report.orders) = try await endObligations(of: users, engine: engine, handler: handler, now: now) }
        try await removeSnapshots(of: users, from: opened.snapshots)
        if let engine {
            // An index never built holds nothing to erase; one built folds the deletion now, not at its next read.
            if let index = try opened.states?.personalIndex(), try await index.checkpoint() != nil,
                let last = try await opened.events.lastPosition()
            {
                guard try await engine.catchUp(index, CustomersDirectory.self, through: last) else {
                    throw CommandFailure(kind: .failure, message: "the personal index could not fold the deletion; run the view 'customers' to finish it")
                }
            }
            // Only read models that keep values are asked whether they are built (a status measures each one's size,
            // which on a server counts its rows).
            let holding = ProjectionCatalog.projections.filter { $0.holdsPersonalData }
            if !holding.isEmpty {
                let built = try await engine.status(holding).filter(\.built).map(\.name)
                let types = holding.filter { built.contains($0.name) }
                if !types.isEmpty { report.rebuilt = try await engine.rebuild(types).projections }
            }
        }
        return report
    }

    /// ``finish(erasing:in:handler:now:)`` for a CLI command: the store opened once, the current time.
    static func finish(erasing users: [String], _ context: CommandContext) async throws -> Report {
        guard !users.isEmpty else { return Report() }
        let opened = try context.openStore(.read)
        let handler = CommandHandler(store: opened.events, snapshots: opened.snapshots)
        return try await finish(erasing: users, in: opened, handler: handler, now: .now())
    }

    /// Removes each pet of the accounts and cancels each of their orders not yet shipped.
    private static func endObligations(
        of users: [String], engine: ProjectionEngine, handler: CommandHandler, now: Timestamp
    ) async throws -> (pets: Int, orders: Int) {
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

    /// Removes the snapshots that hold the accounts' personal data: each account's own, and those tagged with it (its
    /// conversations'), by one deletion each.
    private static func removeSnapshots(of users: [String], from snapshots: (any SnapshotStore)?) async throws {
        guard let snapshots else { return }
        for user in users {
            try await snapshots.remove(stream: Streams.account(user), kind: AccountState.snapshotKind)
            try await snapshots.removeAll(taggedWith: user)
        }
    }
}
