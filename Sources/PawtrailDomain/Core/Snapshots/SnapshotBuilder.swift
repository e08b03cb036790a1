public import EventLog
import Events
import Foundation

/// Folds every stream of the log in one pass and saves a snapshot of each long one: what `pawtrail snapshots build`
/// does for a store whose history arrived without them (an import with `log append --batch`, a store restored from
/// a copy of its log alone, or after `snapshots clear`), so that the first command on a long stream starts from a
/// snapshot rather than reading the stream's whole history, scattered over the log.
///
/// Which aggregates fold a stream is told by its category, the part of its name before the first `-` (see
/// ``Streams``): ``AggregateCatalog/aggregates(ofCategory:)``.
public struct SnapshotBuilder: Sendable {
    /// What a build did.
    public struct Report: Sendable {
        /// Events read.
        public var eventsRead = 0
        /// Streams folded, by aggregate kind.
        public var streamsFolded: [String: Int] = [:]
        /// Snapshots saved (streams of at least ``SnapshotBuilder/minimumEvents`` events).
        public var snapshotsSaved = 0
        /// Bytes of state saved.
        public var stateBytes = 0
    }

    public let store: any EventStore
    public let snapshots: any SnapshotStore
    /// Streams with fewer events are not snapshotted: folding them costs a command less than reading a snapshot.
    public var minimumEvents: UInt64

    /// Creates a builder.
    public init(store: any EventStore, snapshots: any SnapshotStore, minimumEvents: UInt64 = 8) {
        self.store = store
        self.snapshots = snapshots
        self.minimumEvents = minimumEvents
    }

    /// One stream's fold under one aggregate.
    private final class Fold {
        let type: any Aggregate.Type
        var state: any Aggregate
        var last: (version: UInt64, position: UInt64, id: UUID)?

        init(_ type: any Aggregate.Type) {
            self.type = type
            state = type.init()
        }

        func apply(_ event: any DomainEvent) {
            state = Self.evolved(state, event)
        }

        private static func evolved<A: Aggregate>(_ state: A, _ event: any DomainEvent) -> any Aggregate {
            A.evolve(state, event)
        }
    }

    /// Folds the log and saves the snapshots.
    ///
    /// - Returns: What was done.
    /// - Throws: Store and snapshot-store errors.
    public func run() async throws -> Report {
        var report = Report()
        var folds: [StreamID: [Fold]] = [:]
        try await store.forEachPage(.all) { page in
            for e in page {
                report.eventsRead += 1
                let name = e.stream.rawValue
                let category = name.firstIndex(of: "-").map { String(name[..<$0]) } ?? name
                let types = AggregateCatalog.aggregates(ofCategory: category)
                guard !types.isEmpty, let event = try EventCatalog.domain.decode(type: e.type, data: e.data) else { continue }
                let streamFolds = folds[e.stream] ?? types.map(Fold.init)
                for f in streamFolds {
                    f.apply(event)
                    f.last = (e.version, e.position, e.id)
                }
                if folds[e.stream] == nil { folds[e.stream] = streamFolds }
            }
            return true
        }
        var batch: [StreamSnapshot] = []
        for (stream, streamFolds) in folds {
            for f in streamFolds {
                report.streamsFolded[f.type.snapshotKind, default: 0] += 1
                guard let last = f.last, last.version + 1 >= minimumEvents else { continue }
                let state = f.state.snapshotBytes()
                batch.append(
                    StreamSnapshot(
                        stream: stream, kind: f.type.snapshotKind, schemaVersion: f.type.schemaVersion, version: last.version,
                        position: last.position, eventID: last.id, state: state, subject: f.state.personalDataSubject))
                report.stateBytes += state.count
                if batch.count >= 1_000 {
                    try await snapshots.save(batch)
                    report.snapshotsSaved += batch.count
                    batch = []
                }
            }
        }
        if !batch.isEmpty {
            try await snapshots.save(batch)
            report.snapshotsSaved += batch.count
        }
        return report
    }
}
