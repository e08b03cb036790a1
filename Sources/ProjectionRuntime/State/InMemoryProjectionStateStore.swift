import Projections
import Synchronization

/// The states of the read models held in memory: the reference implementation of ``ProjectionStateStore``, for tests
/// and for the in-memory event store. Nothing survives the process.
public final class InMemoryProjectionStateStore: ProjectionStateStore {
    struct Key: Hashable {
        var name: String
        var version: Int
    }

    private let states = Mutex<[Key: Snapshot]>([:])
    private let locks = Mutex<Set<String>>([])

    /// Creates an empty store.
    public init() {}

    public func open(_ name: String, version: Int) throws -> (any StoredProjectionState)? {
        states.withLock { $0[Key(name: name, version: version)] }
    }

    public func tryLock(_ name: String) throws -> (any ProjectionLock)? {
        let taken = locks.withLock { $0.insert(name).inserted }
        guard taken else { return nil }
        return Lock { [weak self] in _ = self?.locks.withLock { $0.remove(name) } }
    }

    public func writer(_ name: String, version: Int, replacing: Bool) throws -> any StateWriter {
        Writer(store: self, key: Key(name: name, version: version), replacing: replacing)
    }

    public func versions(of name: String) throws -> [Int] {
        states.withLock { s in s.keys.filter { $0.name == name }.map(\.version).sorted() }
    }

    public func remove(_ name: String, version: Int) throws {
        _ = states.withLock { $0.removeValue(forKey: Key(name: name, version: version)) }
    }

    fileprivate func commit(_ key: Key, _ versions: [RowVersion], _ checkpoint: CheckpointInfo, replacing: Bool) {
        states.withLock { s in
            var rows = replacing ? [:] : (s[key]?.rows ?? [:])
            for v in versions { rows[v.key, default: []].append(v) }
            for k in rows.keys {
                // Newest first; a version not kept survives only as its row's newest.
                var list = rows[k]!.sorted { $0.position > $1.position }
                list = list.enumerated().filter { $0.offset == 0 || $0.element.keep }.map(\.element)
                rows[k] = list
            }
            s[key] = Snapshot(checkpoint: checkpoint, rows: rows)
        }
    }

    /// One committed state: every row's versions, newest first.
    struct Snapshot: StoredProjectionState {
        let checkpoint: CheckpointInfo
        let rows: [RowKey: [RowVersion]]

        func version(of key: RowKey, asOf position: UInt64?) throws -> RowVersion? {
            rows[key]?.first { v in position.map { v.position <= $0 } ?? true }
        }

        func rows(group prefix: [UInt8], asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
            present(where: { $0.bytes.starts(with: prefix) }, asOf: position)
        }

        func rows(table: UInt8, asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
            present(where: { $0.table == table }, asOf: position)
        }

        private func present(where matches: (RowKey) -> Bool, asOf position: UInt64?) -> [(key: RowKey, value: [UInt8])] {
            rows.keys.filter(matches).sorted().compactMap { k in
                guard let v = try? version(of: k, asOf: position), let value = v.value else { return nil }
                return (k, value)
            }
        }

        func newestKept(_ key: RowKey) throws -> UInt64? {
            rows[key]?.first { $0.keep }?.position
        }

        var size: (versions: Int, bytes: Int) {
            rows.values.reduce((0, 0)) { acc, list in
                (acc.0 + list.count, acc.1 + list.reduce(0) { $0 + $1.key.bytes.count + ($1.value?.count ?? 0) })
            }
        }
    }

    private final class Writer: StateWriter, @unchecked Sendable {
        let store: InMemoryProjectionStateStore
        let key: Key
        let replacing: Bool
        var added: [RowVersion] = []

        init(store: InMemoryProjectionStateStore, key: Key, replacing: Bool) {
            self.store = store
            self.key = key
            self.replacing = replacing
        }

        func add(_ versions: RowVersions) throws { added += versions.versions }

        func finish(_ checkpoint: CheckpointInfo) throws {
            store.commit(key, added, checkpoint, replacing: replacing)
            added = []
        }
    }

    private struct Lock: ProjectionLock {
        let release: @Sendable () -> Void
        func unlock() { release() }
    }
}
