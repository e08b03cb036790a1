import BenchSupport
import EventLog
import EventLogFile
import EventLogSealing
import Events
import Foundation
import Projections

/// How "ours" rebuilds every projection of the catalog from the file store. The benchmark only needs the states at
/// the end, so `ProjectionEngine` (checkpoints, rebuild, snapshots, time travel) can replace ``DirectFold`` by a new
/// conformance whose `rebuild` runs the engine's rebuild of every projection and returns their encoded states;
/// then add it to ``oursRebuilders`` (first, to make it the default).
protocol ProjectionRebuilder: Sendable {
    /// What the report calls it.
    var label: String { get }
    /// Rebuilds every projection from the store at `path` and returns their states.
    func rebuild(storePath path: String, types: TypeSelection) async throws -> RebuildOutcome
}

/// The rebuilders the benchmark can measure as "ours", by `--ours` name; the first is the default.
let oursRebuilders: [(name: String, rebuilder: any ProjectionRebuilder)] = [
    ("engine", EngineRebuild()),
    ("direct", DirectFold()),
]

/// Until the engine lands: read the store in large pages, decode with the domain catalog only the types some
/// projection lists (the store skips the others before materializing them), and apply each projection that
/// lists the type, in position order.
struct DirectFold: ProjectionRebuilder {
    /// Events per page: 4,096 measured fastest here (1,024 pays per page; 16,384 and more spill the caches and
    /// hold more memory).
    var pageSize = 4_096

    var label: String { "direct fold (forEachPage .all, EventCatalog.domain)" }

    func rebuild(storePath path: String, types: TypeSelection) async throws -> RebuildOutcome {
        let set = FoldSet(types)
        let file = try FileEventStore.open(path: path)
        defer { file.close() }
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: path))
        var outcome = RebuildOutcome()
        let filter: Set<String>? = types == .all ? nil : set.decodedTypes
        try await store.forEachPage(.all, eventTypes: filter, pageSize: pageSize) { page in
            outcome.eventsRead += page.count
            for recorded in page {
                guard let route = set.routes[recorded.type] else { continue }
                let event = try route.type.decoded(from: recorded.data)
                outcome.eventsDecoded += 1
                guard !route.folds.isEmpty else { continue }
                let projected = ProjectedEvent(
                    position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt,
                    metadata: recorded.metadata, event: event)
                for fold in route.folds { try fold.apply(projected) }
                outcome.applications += route.folds.count
            }
            return true
        }
        outcome.states = set.states()
        return outcome
    }
}

