import EventLog
import Projections
import Synchronization

/// Row versions held in memory, sorted for lookups: a catch-up's that could not be saved, which time travel past the
/// stored checkpoint reads.
struct MemoryRows: Sendable {
    /// Sorted by key, newest first within a key.
    let versions: [RowVersion]

    init(_ versions: [RowVersion]) {
        self.versions = versions.sorted(by: RowVersion.storedOrder)
    }

    var isEmpty: Bool { versions.isEmpty }

    /// The first index at or after a row's newest version at or before a position.
    private func lowerBound(_ key: RowKey, _ position: UInt64) -> Int {
        var lo = 0
        var hi = versions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let v = versions[mid]
            if v.key < key || (v.key == key && v.position > position) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func version(of key: RowKey, asOf position: UInt64?) -> RowVersion? {
        let i = lowerBound(key, position ?? .max)
        return i < versions.count && versions[i].key == key ? versions[i] : nil
    }

    func versions(where matches: (RowKey) -> Bool, asOf position: UInt64?) -> [RowVersion] {
        var out: [RowVersion] = []
        var last: RowKey?
        for v in versions where matches(v.key) && v.key != last {
            if let position, v.position > position { continue }
            out.append(v)
            last = v.key
        }
        return out
    }
}

/// The rows of a projection's state as of one moment, for its tables to read through: the stored state, under the
/// versions of a catch-up held in memory (newer than the stored ones).
final class StateRowSource: RowSource, @unchecked Sendable {
    let stored: (any StoredProjectionState)?
    let memory: MemoryRows
    /// The moment read: `nil` for the newest of everything.
    let position: UInt64?
    private let firstFailure = Mutex<(any Error)?>(nil)
    /// Stored rows read ahead (``prefetch(_:)``): a key's newest version at the moment, or `nil` for none.
    private let readAhead = Mutex<[RowKey: RowVersion?]>([:])

    init(stored: (any StoredProjectionState)?, memory: MemoryRows = MemoryRows([]), asOf position: UInt64?) {
        self.stored = stored
        self.memory = memory
        self.position = position
    }

    var failure: (any Error)? { firstFailure.withLock { $0 } }

    var isPast: Bool { position != nil }

    private func record(_ error: any Error) {
        firstFailure.withLock { if $0 == nil { $0 = error } }
    }

    func row(_ key: RowKey) -> [UInt8]? {
        if let v = memory.version(of: key, asOf: position) { return v.value }
        if let ahead = readAhead.withLock({ $0[key] }) { return ahead?.value }
        do {
            return try stored?.version(of: key, asOf: position)?.value
        } catch {
            record(error)
            return nil
        }
    }

    func prefetch(_ keys: [RowKey]) {
        guard let stored else { return }
        do {
            let found = try stored.versions(of: keys, asOf: position)
            readAhead.withLock { ahead in
                for key in keys { ahead[key] = .some(found[key]) }
            }
        } catch {
            record(error)
        }
    }

    func rows(group: [UInt8]) -> [(key: RowKey, value: [UInt8])] {
        merged(try stored?.rows(group: group, asOf: position) ?? [], memory.versions(where: { $0.bytes.starts(with: group) }, asOf: position))
    }

    func rows(table: UInt8) -> [(key: RowKey, value: [UInt8])] {
        merged(try stored?.rows(table: table, asOf: position) ?? [], memory.versions(where: { $0.table == table }, asOf: position))
    }

    /// Stored rows under the memory's versions, which win (an absent one removes the row).
    private func merged(_ stored: @autoclosure () throws -> [(key: RowKey, value: [UInt8])], _ newer: [RowVersion]) -> [(key: RowKey, value: [UInt8])] {
        let base: [(key: RowKey, value: [UInt8])]
        do {
            base = try stored()
        } catch {
            record(error)
            return []
        }
        guard !newer.isEmpty else { return base }
        var rows: [RowKey: [UInt8]] = [:]
        for r in base { rows[r.key] = r.value }
        for v in newer { rows[v.key] = v.value }
        return rows.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
