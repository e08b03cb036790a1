public import EventLog
import Events

/// Checks every stored snapshot against a fresh fold of its stream: what `pawtrail snapshots verify` reports.
public struct SnapshotVerifier: Sendable {
    /// What one snapshot was found to be.
    public enum Finding: Sendable, Hashable {
        /// Its state is the fold of its stream up to its version.
        case matches
        /// Its state differs from the fold: a loader would have decided from a wrong state. A bug, or damage its
        /// checksum did not catch.
        case differs
        /// It no longer fits its stream (the stream lacks its event at its version and position): a load passes it
        /// over and folds from the start.
        case passedOverStale
        /// Of another schema version than the build's fold: a load passes it over.
        case passedOverSchema
        /// Of a kind no aggregate of this build has.
        case unknownKind
        /// Its state does not decode: a load passes it over.
        case passedOverUndecodable
    }

    /// What the check found.
    public struct Report: Sendable {
        /// How many snapshots had each finding.
        public var counts: [Finding: Int] = [:]
        /// The snapshots whose state differs from the fold (stream and kind), at most ``maxListed``.
        public var differing: [(stream: StreamID, kind: String)] = []
        /// Bytes of state checked.
        public var stateBytes = 0
        /// How many differing snapshots are listed.
        public static let maxListed = 100

        /// Whether no snapshot differs from its fold.
        public var isClean: Bool { (counts[.differs] ?? 0) == 0 }
        /// How many snapshots were checked.
        public var total: Int { counts.values.reduce(0, +) }
    }

    /// The events' store.
    public let store: any EventStore
    /// The snapshots.
    public let snapshots: any SnapshotStore

    /// Creates a verifier.
    public init(store: any EventStore, snapshots: any SnapshotStore) {
        self.store = store
        self.snapshots = snapshots
    }

    /// Checks every snapshot.
    ///
    /// - Returns: What was found.
    /// - Throws: Store errors.
    public func run() async throws -> Report {
        var all: [StreamSnapshot] = []
        try await snapshots.forEach { all.append($0); return true }
        var report = Report()
        for snapshot in all.sorted(by: { ($0.stream.rawValue, $0.kind) < ($1.stream.rawValue, $1.kind) }) {
            let finding = try await check(snapshot)
            report.counts[finding, default: 0] += 1
            report.stateBytes += snapshot.state.count
            if finding == .differs, report.differing.count < Report.maxListed { report.differing.append((snapshot.stream, snapshot.kind)) }
        }
        return report
    }

    /// Checks one snapshot.
    public func check(_ snapshot: StreamSnapshot) async throws -> Finding {
        guard let type = AggregateCatalog.aggregate(kind: snapshot.kind) else { return .unknownKind }
        return try await check(snapshot, as: type)
    }

    private func check<A: Aggregate>(_ snapshot: StreamSnapshot, as type: A.Type) async throws -> Finding {
        guard snapshot.schemaVersion == A.schemaVersion else { return .passedOverSchema }
        guard (try? A(snapshotBytes: snapshot.state)) != nil else { return .passedOverUndecodable }
        var state = A()
        var found = false
        try await store.forEachPage(.stream(snapshot.stream)) { page in
            for e in page {
                if e.version > snapshot.version { return false }
                if let event = try EventCatalog.domain.decode(type: e.type, data: e.data) { state = A.evolve(state, event) }
                if e.version == snapshot.version {
                    found = e.position == snapshot.position && e.id == snapshot.eventID
                    return false
                }
            }
            return true
        }
        guard found else { return .passedOverStale }
        return state.snapshotBytes() == snapshot.state ? .matches : .differs
    }
}
