import EventLog
import Foundation
import ProjectionRuntime
import Projections

/// One committed state of a projection in the file store: its manifest's checkpoint and runs, the runs mapped, newest
/// first. A row's newest version at or before a position is in the newest run that has one (runs hold consecutive,
/// later and later positions).
final class FileStoredState: StoredProjectionState, @unchecked Sendable {
    let manifest: StateManifest
    /// The runs, newest first.
    let runs: [RunReader]
    /// Lookups decompress into each run's cache of blocks: one at a time.
    private let lock = NSLock()

    init(manifest: StateManifest, runs: [RunReader]) {
        self.manifest = manifest
        self.runs = runs.reversed()
    }

    var checkpoint: CheckpointInfo { manifest.checkpoint }

    func version(of key: RowKey, asOf position: UInt64?) throws -> RowVersion? {
        try lock.withLock {
            for run in runs {
                if let position, run.minPosition > position { continue }
                if let v = try run.version(of: key, asOf: position) { return v }
            }
            return nil
        }
    }

    /// Several rows, looked up in stored order: rows that share a block then decompress it once.
    func versions(of keys: [RowKey], asOf position: UInt64?) throws -> [RowKey: RowVersion] {
        var out: [RowKey: RowVersion] = [:]
        for key in keys.sorted(by: { RunFormat.precedes($0, .max, $1, .max) }) {
            if let v = try version(of: key, asOf: position) { out[key] = v }
        }
        return out
    }

    func rows(group prefix: [UInt8], asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
        try merged(prefix: prefix, asOf: position)
    }

    func rows(table: UInt8, asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
        try merged(prefix: [table], asOf: position)
    }

    /// The rows under a prefix: each run's newest versions, the newest run's winning, absent rows left out. Each run
    /// gives its versions in stored order, so they merge run by run, without hashing or sorting every row.
    private func merged(prefix: [UInt8], asOf position: UInt64?) throws -> [(key: RowKey, value: [UInt8])] {
        try lock.withLock {
            var newer: [RowVersion]?
            for run in runs {
                if let position, run.minPosition > position { continue }
                let older = try run.versions(prefix: prefix, asOf: position)
                newer = newer.map { Self.merge(newer: $0, older: older) } ?? older
            }
            return (newer ?? []).compactMap { v in v.value.map { (v.key, $0) } }
        }
    }

    /// Two lists of rows' versions in stored order, one version a row, merged: where both hold a row, the newer's.
    static func merge(newer: [RowVersion], older: [RowVersion]) -> [RowVersion] {
        if older.isEmpty { return newer }
        if newer.isEmpty { return older }
        var out: [RowVersion] = []
        out.reserveCapacity(newer.count + older.count)
        var i = 0
        var j = 0
        while i < newer.count, j < older.count {
            let a = newer[i].key
            let b = older[j].key
            if a == b {
                out.append(newer[i])
                i += 1
                j += 1
            } else if RunFormat.precedes(a, .max, b, .max) {
                out.append(newer[i])
                i += 1
            } else {
                out.append(older[j])
                j += 1
            }
        }
        out.append(contentsOf: newer[i...])
        out.append(contentsOf: older[j...])
        return out
    }

    func newestKept(_ key: RowKey) throws -> UInt64? {
        try lock.withLock {
            for run in runs {
                if let p = try run.newestKept(key) { return p }
            }
            return nil
        }
    }

    var size: (versions: Int, bytes: Int) {
        runs.reduce((0, 0)) { ($0.0 + $1.versionCount, $0.1 + $1.size) }
    }
}
