import EventLog
import Foundation
import PawtrailIO

/// Lookups: stream versions and positions, event ids and times, in the active segment, the sealed ones and the
/// index runs.
extension LogState {
    // MARK: - Lookups

    /// The current version of a stream.
    func currentVersion(_ stream: StreamID) throws -> UInt64? {
        if let v = active?.lastVersion(of: stream) { return v }
        let h = Hash128(stream.rawValue)
        let covered = coveredSegments
        for segment in sealed[covered...].reversed() {
            if let v = try lastVersion(of: stream, hash: h, in: segment) { return v }
        }
        for run in runs.reversed() {
            let found: (entry: RunStreamIndexFile.Entry?, ordinals: [Int])? = try lookUp(streamsOf: run) { streams in
                guard let e = try streams.entry(for: h) else { return (nil, []) }
                return (e, e.lastVersion == nil ? try streams.segmentOrdinals(of: e) : [])
            }
            guard let found else {
                for segment in sealed[run.segments].reversed() {
                    if let v = try lastVersion(of: stream, hash: h, in: segment) { return v }
                }
                continue
            }
            guard let e = found.entry else { continue }
            if let v = e.lastVersion { return v }
            // The hash is two streams' within the run: ask the segments holding it.
            for o in found.ordinals.reversed() {
                if let v = try lastVersion(of: stream, hash: h, in: sealed[run.firstSegment + o]) { return v }
            }
        }
        return nil
    }

    /// A stream's last version in one sealed segment, `nil` when the segment holds none of its events.
    func lastVersion(of stream: StreamID, hash h: Hash128, in segment: SealedSegment) throws -> UInt64? {
        let entries = try lookUp(streamsOf: segment) { streams -> [(entry: StreamIndexFile.Entry, lastPosition: UInt64?)] in
            guard let first = try streams.firstEntry(for: h) else { return [] }
            let unique = first + 1 >= streams.streamCount ? true : try streams.entry(at: first + 1).hash != h
            if unique { return [(try streams.entry(at: first), nil)] }
            return try streams.entries(for: h).map { e in (e, try streams.positions(of: e).last) }
        }
        if entries.count == 1, entries[0].lastPosition == nil {
            let e = entries[0].entry
            return e.firstVersion + UInt64(e.count) - 1
        }
        for (e, last) in entries {
            // Two streams share a 128-bit hash: tell them apart by reading the event.
            if let last, try event(at: last).stream == stream { return e.firstVersion + UInt64(e.count) - 1 }
        }
        return nil
    }

    /// The committed event with an id, if any.
    func committedEvent(_ id: UUID) throws -> RecordedEvent? {
        for p in active?.candidatePositions(of: id) ?? [] {
            let e = try event(at: p)
            if e.id == id { return e }
        }
        let key = EventIDIndexFile.key(id)
        // A page found damaged: its index is taken out of use (a run's) or rebuilt (a segment's), and the lookup starts
        // again; each index can fail so only once.
        for _ in 0...(runs.count + sealed.count) {
            do {
                return try committedEvent(id, key: key)
            } catch let damage as IndexDamage {
                if let run = runs.first(where: { $0.idsFile.path == damage.file }) {
                    run.markDamaged()
                    sealedIDProbesStale = true
                } else if let segment = sealed.first(where: { $0.indexFilePath(".eidx") == damage.file }) {
                    _ = try rebuildIndexes(of: segment, replacing: true)
                } else {
                    throw EventStoreError.corrupted(location: damage.file, offset: 0, reason: damage.reason)
                }
            }
        }
        return try committedEvent(id, key: key)
    }

    func committedEvent(_ id: UUID, key: UInt64) throws -> RecordedEvent? {
        try refreshSealedIDProbes()
        var found: RecordedEvent?
        try sealedIDProbes.withUnsafeBufferPointer { probes in
            var i = probes.count
            var searching = true
            while i > 0 && searching {
                i -= 1
                try probes[i].forEachCandidate(key: key) { p in
                    let e = try event(at: p)
                    if e.id == id {
                        found = e
                        searching = false
                    }
                    return searching
                }
            }
        }
        return found
    }

    /// The id probes of the runs and of the sealed segments they do not cover, taken again after a change.
    private func refreshSealedIDProbes() throws {
        guard sealedIDProbesStale else { return }
        sealedIDProbes = try runs.flatMap { try eventIDProbes(of: $0) } + sealed[coveredSegments...].map { try eventIDIndex(of: $0).probe }
        sealedIDProbesStale = false
    }

    /// Whether no committed event can have any of `ids`, because no index holds a candidate for one of them.
    ///
    /// An append of many events asks this once instead of looking each id up: with the ids' keys in order, each index
    /// is read from front to back instead of at random (keys order an index's buckets), and nearly every bulk append
    /// has only new ids.
    ///
    /// - Parameter ids: The ids.
    /// - Returns: `true` when none can be committed; `false` when one may be, or an index could not be read (each id
    ///   is then looked up on its own, where damage is handled).
    func noneCommitted(_ ids: [UUID]) -> Bool {
        let keys = ids.map { EventIDIndexFile.key($0) }.sorted()
        if let a = active, a.mayHoldAny(ids, sortedKeys: keys) { return false }
        do {
            try refreshSealedIDProbes()
            for probe in sealedIDProbes {
                for key in keys {
                    var candidate = false
                    try probe.forEachCandidate(key: key) { _ in
                        candidate = true
                        return false
                    }
                    if candidate { return false }
                }
            }
        } catch {
            return false
        }
        return true
    }

    /// The (version, position) pairs of a stream, in version order.
    ///
    /// - Parameter versions: Only these versions are needed: segments holding none of them are skipped without
    ///   decoding their position lists (so paging through a long stream does not decode all of it per page), and the
    ///   segments are asked newest first, down to the one where the stream's versions start at or below the range:
    ///   a lookup of a stream's last events costs the segments that hold them, not every segment the stream has
    ///   events in since it began.
    func streamPositions(_ stream: StreamID, versions: ClosedRange<UInt64> = 0...UInt64.max) throws -> [(version: UInt64, position: UInt64)] {
        let h = Hash128(stream.rawValue)
        /// The segment's pairs in the range, and whether none of its entries for the hash starts above the range's
        /// lower bound (then no older segment holds a version in the range).
        func collect(_ segment: SealedSegment) throws -> (pairs: [(UInt64, UInt64)], reachesLowerBound: Bool) {
            let (ambiguous, lowest, found) = try lookUp(streamsOf: segment) { streams -> (Bool, UInt64?, [(first: UInt64, positions: [UInt64])]) in
                let entries = try streams.entries(for: h)
                var found: [(first: UInt64, positions: [UInt64])] = []
                for e in entries where (e.firstVersion...(e.firstVersion + UInt64(e.count) - 1)).overlaps(versions) {
                    found.append((e.firstVersion, try streams.positions(of: e)))
                }
                return (entries.count > 1, entries.map(\.firstVersion).min(), found)
            }
            var pairs: [(UInt64, UInt64)] = []
            for (first, positions) in found {
                if ambiguous, try event(at: positions[0]).stream != stream { continue }
                for (i, p) in positions.enumerated() { pairs.append((first + UInt64(i), p)) }
            }
            // Two streams sharing the hash: their versions cannot tell where this stream starts.
            return (pairs, !ambiguous && (lowest.map { $0 <= versions.lowerBound } ?? false))
        }
        let inActive = active?.stream(stream)
        // Where the active segment holds the stream from the range's start on, no sealed segment has a version in it.
        let sealedNeeded = inActive.map { $0.firstVersion > versions.lowerBound } ?? true
        // The segments that may hold the stream, oldest first: a run names the segments holding it, so a read skips
        // the others.
        var candidates: [SealedSegment] = []
        for run in runs where sealedNeeded {
            let ordinals: [Int]?? = try lookUp(streamsOf: run) { streams -> [Int]? in
                guard let e = try streams.entry(for: h) else { return nil }
                return try streams.segmentOrdinals(of: e)
            }
            switch ordinals {
            case .none:
                candidates += sealed[run.segments]
            case .some(.none):
                continue
            case .some(.some(let list)):
                for o in list { candidates.append(sealed[run.firstSegment + o]) }
            }
        }
        if sealedNeeded { candidates += sealed[coveredSegments...] }
        var newestFirst: [[(UInt64, UInt64)]] = []
        for segment in candidates.reversed() {
            let (pairs, reachesLowerBound) = try collect(segment)
            newestFirst.append(pairs)
            if reachesLowerBound { break }
        }
        var out: [(UInt64, UInt64)] = newestFirst.reversed().flatMap { $0 }
        if let s = inActive, versions.upperBound >= s.firstVersion, versions.lowerBound <= s.lastVersion {
            let lo = Int(versions.lowerBound > s.firstVersion ? versions.lowerBound - s.firstVersion : 0)
            let hi = Int(min(versions.upperBound, s.lastVersion) - s.firstVersion)
            for i in lo...hi { out.append((s.firstVersion + UInt64(i), s.positions[i])) }
        }
        return out
    }
}
