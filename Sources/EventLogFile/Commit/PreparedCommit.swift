import EventLog
import Foundation
import PawtrailIO

/// A small commit's payload, encoded and compressed by the appending task before it queues for the committer,
/// on the stream versions its expectations name. Concurrent writers thus compress on every core while the
/// committer flushes, and the committer, one thread for all, only checks the guess and frames the result (as
/// Kafka's producers compress their batches before the broker appends them).
struct PreparedCommit {
    /// The version each entry takes, in entry order.
    var versions: [UInt64]
    /// The uncompressed payload (kept for the frame cache).
    var payload: [UInt8]
    /// What the frame stores.
    var stored: FrameIO.StoredPayload
    /// Whether a large payload could be laid out by columns (the committer uses it only if its segment allows that).
    var columnar = false

    /// Whether the committer's plan gave every event the version this payload encodes.
    func matches(_ events: [AppendPlanner.PlannedEvent]) -> Bool {
        guard events.count == versions.count else { return false }
        for (e, v) in zip(events, versions) where e.version != v { return false }
        return true
    }

    /// Encodes and compresses a request's payload when its versions are known in advance: each written
    /// stream expects an exact version or no stream. `nil` otherwise, or for a commit too large to gain
    /// anything from the dictionary (the committer compresses those on both cores).
    ///
    /// - Parameters:
    ///   - request: A validated append.
    ///   - sizeLimit: The largest payload prepared.
    ///   - underLoad: Whether other appends are under way (see ``FrameIO/storeCommit(_:underLoad:compressor:level:dictionary:helper:)``).
    ///   - level: The level without a dictionary.
    ///   - dictionary: The store's newest dictionary, asked for only if it is used.
    ///   - compressors: Where to borrow a compression context (two for a large payload when `twoCores`).
    ///   - columnar: Whether a large payload may be laid out by columns (see ``FrameIO/storeCommit(_:underLoad:compressor:level:dictionary:helper:columnar:)``).
    ///   - twoCores: Whether a large payload is compressed on two cores, as the committer would.
    /// - Returns: The prepared commit, or `nil`.
    static func prepare(
        _ request: AppendRequest, sizeLimit: Int = FrameIO.dictionaryCommitLimit, underLoad: Bool, level: Int32,
        dictionary: () -> (id: UInt32, dictionary: ZstdDictionary)?, compressors: CompressorPool, columnar: Bool = false,
        twoCores: Bool = false
    ) -> PreparedCommit? {
        guard !request.entries.isEmpty else { return nil }
        // Read in place, and only until the limit: a bulk append's 10,000 entries would otherwise be copied here.
        let fits = request.entries.withUnsafeBufferPointer { entries in
            var size = 64
            for i in entries.indices {
                size += entries[i].event.payloadSize + 64
                if size >= sizeLimit { return false }
            }
            return true
        }
        guard fits else { return nil }
        // The next version of each written stream, by slot.
        var slots = StreamSlots(reservingFor: request.expectations.count)
        var next: [UInt64] = []
        for e in request.expectations where !e.checkOnly {
            switch e.expected {
            case .exact(let v):
                // A version at the top of the range is left to the planner, which refuses it.
                guard v < UInt64.max - UInt64(request.entries.count) else { return nil }
                next.append(v + 1)
            case .noStream: next.append(0)
            case .any, .streamExists: return nil
            }
            // A validated append names a stream once among its expectations; anything else is left to the planner.
            guard slots.slot(adding: e.stream) == next.count - 1 else { return nil }
        }
        // Versions by entry, read in place; the payload is encoded from the entries (no planned events are built).
        var versions: [UInt64] = []
        versions.reserveCapacity(request.entries.count)
        let payload: [UInt8]? = request.entries.withUnsafeBufferPointer { entries in
            for i in entries.indices {
                guard let slot = slots.slot(of: entries[i].stream) else { return nil }
                versions.append(next[slot])
                next[slot] += 1
            }
            return CommitCodec.encodeCommit(entries, versions: versions)
        }
        guard let payload else { return nil }
        let compressor = compressors.borrow()
        defer { compressors.giveBack(compressor) }
        let helper = twoCores && payload.count >= FrameIO.parallelThreshold ? compressors.borrow() : nil
        defer { helper.map(compressors.giveBack) }
        guard
            let stored = try? FrameIO.storeCommit(
                payload, underLoad: underLoad, compressor: compressor, level: level, dictionary: dictionary, helper: helper,
                columnar: columnar)
        else { return nil }
        return PreparedCommit(versions: versions, payload: payload, stored: stored, columnar: columnar)
    }
}
