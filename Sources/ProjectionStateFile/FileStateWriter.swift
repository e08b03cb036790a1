import CPawtrailSupport
import EventLog
import PawtrailIO
import ProjectionRuntime
import Projections

/// Adds rows to a projection's state in the file store (see ``FileProjectionStateStore``): the versions added are
/// written as run files once they reach the store's spill size, and at ``finish(_:)``, which then renames a manifest
/// naming them into place. Runs that pile up are merged afterwards.
final class FileStateWriter: StateWriter, @unchecked Sendable {
    let store: FileProjectionStateStore
    let directory: String
    private var manifest: StateManifest?
    private let replacing: Bool
    private var pending = RowVersions()
    private var written: [StateManifest.Run] = []
    private var nextSequence: UInt64

    init(store: FileProjectionStateStore, directory: String, current: StateManifest?, replacing: Bool) {
        self.store = store
        self.directory = directory
        manifest = current
        self.replacing = replacing
        nextSequence = current?.nextSequence ?? 1
    }

    func add(_ versions: RowVersions) throws {
        var versions = versions
        try add(recycling: &versions)
    }

    /// Takes the versions without copying them when none are pending; once they are written, the caller gets their
    /// memory back to fill again.
    func add(recycling versions: inout RowVersions) throws {
        if pending.isEmpty {
            swap(&pending, &versions)
        } else {
            pending.append(contentsOf: versions)
            versions.removeAll(keepingCapacity: true)
        }
        if pending.byteCount >= store.spillBytes {
            try spill()
            if versions.capacityBytes < pending.capacityBytes { swap(&pending, &versions) }
        }
    }

    /// Writes the pending versions as one run, keeping their memory.
    private func spill() throws {
        guard !pending.isEmpty else { return }
        var versions = pending.take()
        versions.sortIntoStoredOrder()
        let sequence = nextSequence
        nextSequence += 1
        let older = olderMayHold((replacing ? [] : manifest?.runs ?? []) + written)
        let run = try writeRun(sequence, olderMayHold: older) { w in
            // Sorted, the versions visit their bytes in no particular order: each would wait on a cache miss, so the
            // bytes of versions a little ahead are asked for early.
            let entries = versions.entries
            try versions.buffer.bytes.withUnsafeBytes { bytes in
                for i in entries.indices {
                    if i + Self.prefetchDistance < entries.count, let base = bytes.baseAddress {
                        let ahead = entries[i + Self.prefetchDistance]
                        CPawtrailSupport_prefetch(base + ahead.keyStart)
                        if ahead.valueCount > 32 { CPawtrailSupport_prefetch(base + ahead.keyStart + 64) }
                    }
                    try w.add(versions, i, sameKeyAsPrevious: i > 0 && versions.sameKey(i - 1, i))
                }
            }
        }
        written.append(run)
        versions.removeAll(keepingCapacity: true)
        pending = versions
    }

    /// Whether any of the runs may hold a row, given its key's ``RunBloom/hashes(_:)``; the runs are mapped when
    /// first asked, which only an absent row does. A merge asks of a row before writing it, and the writer again: the
    /// last answer is kept.
    private func olderMayHold(_ runs: [StateManifest.Run]) -> ((UInt64, UInt64)) throws -> Bool {
        let directory = directory
        var readers: [RunReader]?
        var last: (hashes: (UInt64, UInt64), answer: Bool)?
        return { hashes in
            if let last, last.hashes == hashes { return last.answer }
            let open = try readers ?? runs.map { try RunReader(path: directory + "/" + $0.fileName) }
            readers = open
            let answer = open.contains { $0.mayHold(hashes) }
            last = (hashes, answer)
            return answer
        }
    }

    /// Writes a run file through `fill`.
    private func writeRun(
        _ sequence: UInt64, olderMayHold: @escaping ((UInt64, UInt64)) throws -> Bool, _ fill: (RunWriter) throws -> Void
    ) throws -> StateManifest.Run {
        do {
            let w = try RunWriter(path: directory + "/" + StateManifest.Run.fileName(sequence), olderMayHold: olderMayHold)
            try fill(w)
            let size = try w.finish()
            return StateManifest.Run(
                sequence: sequence, minPosition: w.versionCount == 0 ? 0 : w.minPosition, maxPosition: w.maxPosition,
                versionCount: UInt64(w.versionCount), fileSize: size)
        } catch let e as SystemError {
            throw EventStoreError.io(operation: "write projection state", path: e.path, errno: e.errno)
        }
    }

    func finish(_ checkpoint: CheckpointInfo) throws {
        try spill()
        pending = RowVersions()
        let old = manifest?.runs ?? []
        let runs = (replacing ? [] : old) + written
        let next = StateManifest(checkpoint: checkpoint, nextSequence: nextSequence, runs: runs)
        try store.writeManifest(next, in: directory)
        manifest = next
        written = []
        if replacing { remove(old) }
        // A rebuild's spills (a few, each of the spill size) stay as they are: merging them would rewrite every
        // version for no gain in reads, which visit each run's Bloom filter and head.
        if !replacing || runs.count > Self.maxRuns { try compact() }
    }

    private func remove(_ runs: [StateManifest.Run]) {
        for r in runs { try? FileSystem.removeFile(directory + "/" + r.fileName) }
    }

    // MARK: - Merging runs

    /// Merges the newest runs while the run before them is no more than four times their size, or while there are
    /// more than ``maxRuns``: sizes then fall by at least four from each run to the next, so there are about
    /// log4(n) runs and a version is rewritten about as many times.
    private func compact() throws {
        guard var m = manifest else { return }
        while m.runs.count >= 2 {
            let n = m.runs.count
            let newer = m.runs[n - 1]
            let older = m.runs[n - 2]
            guard older.fileSize <= 4 * newer.fileSize || n > Self.maxRuns else { break }
            let merged = try merge([older, newer], above: Array(m.runs[0..<(n - 2)]))
            m.runs.removeLast(2)
            if let merged { m.runs.append(merged) }
            m.nextSequence = nextSequence
            try store.writeManifest(m, in: directory)
            manifest = m
            remove([older, newer])
        }
    }

    static let maxRuns = 12

    /// How many versions ahead of the one being written a spill asks for bytes: enough for several misses in flight.
    static let prefetchDistance = 16

    /// Merges runs (oldest first, holding consecutive positions) into one, keeping each row's newest version and the
    /// older ones marked kept; an absent row with nothing kept beneath, that none of the older runs `beneath` may
    /// hold, is left out. `nil` when nothing is left.
    private func merge(_ runs: [StateManifest.Run], above beneath: [StateManifest.Run]) throws -> StateManifest.Run? {
        // Newest first: for one row, the newer run's versions come first (they are newer).
        var inputs = try runs.reversed().map { RunCursor(try RunReader(path: directory + "/" + $0.fileName)) }
        for i in inputs.indices { try inputs[i].load() }
        let sequence = nextSequence
        nextSequence += 1
        var group: [RowVersion] = []
        let older = olderMayHold(beneath)
        let run = try writeRun(sequence, olderMayHold: older) { w in
            func flush() throws {
                guard let newest = group.first else { return }
                let kept = group.dropFirst().filter(\.keep)
                defer { group.removeAll(keepingCapacity: true) }
                if newest.value == nil, kept.isEmpty, !(try older(newest.key.bytes.withUnsafeBytes { RunBloom.hashes($0) })) {
                    return
                }
                try w.add(newest)
                for v in kept { try w.add(v) }
            }
            while true {
                // The smallest row key among the inputs' next versions; ties go to the newer input.
                var pick: Int?
                for i in inputs.indices {
                    guard let a = inputs[i].current?.key else { continue }
                    guard let p = pick, let b = inputs[p].current?.key else { pick = i; continue }
                    if a != b, RunFormat.precedes(a, .max, b, .max) { pick = i }
                }
                guard let p = pick, let key = inputs[p].current?.key else { break }
                try flush()
                for i in ([p] + inputs.indices.filter { $0 != p }) {
                    while let v = inputs[i].current, v.key == key {
                        group.append(v)
                        try inputs[i].advance()
                    }
                }
            }
            try flush()
        }
        return run.versionCount == 0 ? nil : run
    }
}
