public import EventLog
import Events
public import Projections

extension ProjectionEngine {
    /// What `projections status|rebuild|audit` call the personal index beside the read models.
    public static let personalIndexName = "personal-index"

    /// The personal index's standing.
    public struct PersonalIndexStatus: Sendable {
        /// The indexer's version, which the stored index must have.
        public var version: Int
        /// The stored index's version, `nil` when nothing is stored.
        public var storedVersion: Int?
        /// The stored index's position.
        public var position: UInt64?
        /// Events committed after the stored position (all of them when it is not built or of another version).
        public var lag: UInt64
        /// Whether an index of the indexer's version is stored.
        public var built: Bool { storedVersion == version }
    }

    /// Whether the store keeps a personal index of its own.
    ///
    /// - Throws: State-store errors.
    public func keepsPersonalIndex() throws -> Bool { try states.personalIndex() != nil }

    /// The standing of the store's personal index.
    ///
    /// - Parameter indexing: What keeps the index.
    /// - Returns: Its standing, `nil` when the store keeps no personal index (a view then makes one in memory).
    /// - Throws: Store and index errors.
    public func personalIndexStatus(_ indexing: any PersonalIndexing.Type) async throws -> PersonalIndexStatus? {
        guard let index = try states.personalIndex() else { return nil }
        let stored = try await index.checkpoint()
        let last = try await store.lastPosition()
        let position = stored?.version == indexing.version ? stored?.position : nil
        let lag: UInt64 = last.map { l in position.map { l > $0 ? l - $0 : 0 } ?? l + 1 } ?? 0
        return PersonalIndexStatus(version: indexing.version, storedVersion: stored?.version, position: stored?.position, lag: lag)
    }

    /// Empties the store's personal index and folds the whole log into it again.
    ///
    /// - Parameter indexing: What keeps the index.
    /// - Returns: The position it was rebuilt to, `nil` for an empty log.
    /// - Throws: ``EventStoreError/Code/storeFailure`` when the store keeps no personal index or another process kept
    ///   storing into it; store and index errors.
    @discardableResult
    public func rebuildPersonalIndex(_ indexing: any PersonalIndexing.Type) async throws -> UInt64? {
        guard let index = try states.personalIndex() else {
            throw EventStoreError.storeFailure("this store keeps no personal index: views make one in memory as they need it")
        }
        try await index.reset()
        guard let end = try await store.lastPosition() else { return nil }
        guard try await catchUp(index, indexing, through: end) else {
            throw EventStoreError.storeFailure("the personal index was being stored by another process; try again")
        }
        return end
    }

    /// Compares the store's personal index, caught up, with one made from scratch in memory to the same position:
    /// each subject's present entry, the order of every subject now and at eight earlier positions, and the values
    /// it remembers of events (so an erased subject's values left behind are found).
    ///
    /// An index that cannot be caught up here (a read-only store) is compared at its own position; one never built
    /// has nothing to compare.
    ///
    /// - Parameter indexing: What keeps the index.
    /// - Returns: The differences, `nil` when the store keeps no personal index.
    /// - Throws: Store and index errors.
    public func auditPersonalIndex(_ indexing: any PersonalIndexing.Type) async throws -> Audit? {
        guard let live = try states.personalIndex() else { return nil }
        if let end = try await store.lastPosition() { _ = try? await catchUp(live, indexing, through: end) }
        guard let stored = try await live.checkpoint(), stored.version == indexing.version else {
            return Audit(projection: Self.personalIndexName, position: nil, keysCompared: 0, differences: [])
        }
        let position = stored.position
        let fresh = MemoryPersonalIndex()
        try await catchUp(fresh, indexing, through: position)
        var differences: [Difference] = []
        var compared = 0

        let now = (live: try await everySubject(live, asOf: position), rebuilt: try await everySubject(fresh, asOf: position))
        for subject in Set(now.live).union(now.rebuilt).sorted() {
            compared += 1
            let a = try await live.entry(of: subject).map(Self.describe)
            let b = try await fresh.entry(of: subject).map(Self.describe)
            if a != b { differences.append(Difference(key: "entries[\(subject)]", live: a, rebuilt: b)) }
        }
        for at in Self.earlierPositions(before: position) + [position] {
            let a = at == position ? now.live : try await everySubject(live, asOf: at)
            let b = at == position ? now.rebuilt : try await everySubject(fresh, asOf: at)
            compared += 1
            if let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? (a.count == b.count ? nil : min(a.count, b.count)) {
                differences.append(
                    Difference(
                        key: "order as of \(at)[\(i)]", live: i < a.count ? "\(a[i]) of \(a.count)" : nil,
                        rebuilt: i < b.count ? "\(b[i]) of \(b.count)" : nil))
            }
        }

        let positions = Set(try await live.rememberedPositions()).union(try await fresh.rememberedPositions()).sorted()
        let remembered = (live: try await live.values(at: positions), rebuilt: try await fresh.values(at: positions))
        for p in positions {
            compared += 1
            let a = remembered.live[p].map { $0.joined(separator: ", ") }
            let b = remembered.rebuilt[p].map { $0.joined(separator: ", ") }
            if a != b { differences.append(Difference(key: "remembered[\(p)]", live: a, rebuilt: b)) }
        }
        return Audit(projection: Self.personalIndexName, position: position, keysCompared: compared, differences: differences)
    }

    private func everySubject(_ index: any PersonalIndex, asOf position: UInt64) async throws -> [String] {
        try await index.subjects(asOf: position, matching: [], offset: 0, limit: .max).subjects
    }

    /// Eight positions spread over the log before `position`.
    static func earlierPositions(before position: UInt64) -> [UInt64] {
        guard position >= 8 else { return Array(0..<position) }
        return (0..<8).map { position / 8 * $0 }
    }

    private static func describe(_ entry: PersonalIndexEntry) -> String {
        "sort key \(entry.sortKey); terms \(entry.terms.joined(separator: " ")); values \(entry.values.joined(separator: ", "))"
    }
}
