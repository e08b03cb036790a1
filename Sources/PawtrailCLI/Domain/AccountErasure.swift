import EventLog
import Events
import PawtrailDomain
import ProjectionRuntime
import Projections

/// What follows an account's deletion once it is appended, in the same CLI call: the log already reads the
/// account's personal data as erased (its key is gone), and this removes the copies made before, which the
/// store's caches and read models still hold in the clear.
///
/// - the aggregate snapshots, a cache, are dropped (their rows overwritten, their write-ahead log emptied);
/// - every read model that has been built is rebuilt from the log, where the erased fields now read as erased,
///   so that live views, their stored history for time travel and an audit all agree.
enum AccountErasure {
    /// Whether an outcome erased an account's personal data.
    static func erases(_ outcome: CommandOutcome) -> Bool {
        !outcome.replayed && outcome.events.contains { $0.event.erasesPersonalDataOf != nil }
    }

    /// Removes the erased account's data from the snapshots and the read models.
    ///
    /// - Parameter context: The command's context.
    /// - Returns: The read models rebuilt.
    /// - Throws: What opening the store, dropping the snapshots or rebuilding throws.
    static func purgeCopies(_ context: CommandContext) async throws -> [String] {
        let opened = try context.openStore(.read)
        try await opened.snapshots?.removeAll()
        guard let states = opened.states else { return [] }
        let engine = ProjectionEngine(store: opened.events, states: states)
        let built = try await engine.status(ProjectionCatalog.projections).filter(\.built).map(\.name)
        let types = ProjectionCatalog.projections.filter { built.contains($0.name) }
        guard !types.isEmpty else { return [] }
        return try await engine.rebuild(types).projections
    }
}
