public import EventLog
import Events
import PawtrailJSON
public import Projections

extension ProjectionEngine {
    // MARK: Audit

    /// One difference between the live state and a fresh rebuild.
    public struct Difference: Sendable, Hashable {
        /// The key path (`products[litter].onHand`).
        public var key: String
        /// The live value, `nil` when the key is missing there.
        public var live: String?
        /// The rebuilt value, `nil` when the key is missing there.
        public var rebuilt: String?

        public init(key: String, live: String?, rebuilt: String?) {
            self.key = key
            self.live = live
            self.rebuilt = rebuilt
        }
    }

    /// What an audit found.
    public struct Audit: Sendable {
        public var projection: String
        public var position: UInt64?
        public var keysCompared: Int
        public var differences: [Difference]
    }

    /// Compares the live state (caught up) with a rebuild from scratch in memory to the same position, key by key.
    ///
    /// - Parameter type: The projection.
    /// - Returns: The differences (none when the live state is right).
    /// - Throws: ``ProjectionFailure``, store and state-store errors.
    public func audit<P: Projection>(_ type: P.Type) async throws -> Audit {
        let live = try await load(P.self, catchUp: true)
        let fresh: AnyFolder
        if let keyed = P.self as? any KeyedProjection.Type {
            fresh = freshKeyedFolder(keyed)
        } else {
            fresh = WholeFolder(P.self, snapshotInterval: .max, maxSnapshotBytes: 0)
        }
        if let p = live.position { try await fold([fresh], after: nil, through: p) }
        let a = StateFlattener.flatten(JSONFieldWriter.json(live.state))
        let b = StateFlattener.flatten(fresh.json())
        var differences: [Difference] = []
        for key in Set(a.keys).union(b.keys).sorted() where a[key] != b[key] {
            differences.append(Difference(key: key, live: a[key], rebuilt: b[key]))
        }
        return Audit(projection: P.name, position: live.position, keysCompared: Set(a.keys).union(b.keys).count, differences: differences)
    }

    private func freshKeyedFolder<K: KeyedProjection>(_ type: K.Type) -> AnyFolder { KeyedFolder(K.self, source: nil, recording: false) }

    // MARK: Status

    /// One projection's standing.
    public struct Status: Sendable {
        public var name: String
        public var schemaVersion: Int
        /// The stored state's position, `nil` when it has none (or an empty log).
        public var position: UInt64?
        /// Whether a state of the current schema version is stored.
        public var built: Bool
        /// Events committed after the stored position.
        public var lag: UInt64
        /// Older schema versions still stored (served to older builds until the new one catches up).
        public var staleVersions: [Int]
        public var rebuiltAt: Timestamp?
        public var rebuildMicroseconds: Int64?
        public var eventsApplied: Int64
        /// Whether the state is kept as rows by key (else as one whole state with snapshots).
        public var keyed: Bool
        /// Row versions stored, and their bytes on disk.
        public var storedVersions: Int
        public var storedBytes: Int
    }

    /// The standing of projections.
    public func status(_ types: [any Projection.Type]) async throws -> [Status] {
        let last = try await store.lastPosition()
        var out: [Status] = []
        for t in types {
            let stored = (try? stored(t.name, t.schemaVersion)) ?? nil
            let c = stored?.checkpoint
            let lag: UInt64
            switch (last, c?.position) {
            case (nil, _): lag = 0
            case (let l?, nil): lag = c == nil ? l + 1 : l + 1
            case (let l?, let p?): lag = l > p ? l - p : 0
            }
            let size: (versions: Int, bytes: Int) = stored?.size ?? (0, 0)
            out.append(
                Status(
                    name: t.name, schemaVersion: t.schemaVersion, position: c?.position, built: c != nil, lag: lag,
                    staleVersions: try states.versions(of: t.name).filter { $0 != t.schemaVersion },
                    rebuiltAt: c?.rebuiltAt, rebuildMicroseconds: c?.rebuildMicroseconds, eventsApplied: c?.eventsApplied ?? 0,
                    keyed: t is any KeyedProjection.Type, storedVersions: size.versions, storedBytes: size.bytes))
        }
        return out
    }
}
