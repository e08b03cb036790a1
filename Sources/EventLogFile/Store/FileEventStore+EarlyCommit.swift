import EventLog
import Foundation
import PawtrailIO

/// A large commit's payload, encoded and compressed on other threads while the committer plans it.
///
/// An append too large to be prepared by its task (``PreparedCommit``) was encoded by the committer after planning,
/// one step after the other: for a 10,000-event import into a 400,000-event store, about 6 ms of planning (lookups
/// of its ids and streams) on one core, then 14 ms of encoding and compressing, partly on two. When every stream it
/// writes names an exact version (or no stream), as an import's lines do, its versions are known before the plan,
/// so both run at once; the plan's versions decide whether the result is used, else the committer encodes it as
/// before.
final class EarlyCommit: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once by the work, read only after `done` (the group orders the two).
    private var result: PreparedCommit?

    /// Starts encoding on a thread of the global pool.
    init(_ work: @escaping @Sendable () -> PreparedCommit?) {
        DispatchQueue.global().async(group: done) { [self] in result = work() }
    }

    /// The prepared commit (`nil` when the versions could not be guessed), once the work has finished.
    func wait() -> PreparedCommit? {
        done.wait()
        return result
    }
}

extension FileEventStore {
    /// The fewest events of an append encoded while it is planned.
    static let earlyCommitEntries = 64

    /// Whether a commit's large payload may be laid out by columns: a segment an older build created may be read
    /// by it, so no frame it cannot read goes there (the caller holds `stateLock`).
    func columnarCommitsAllowed() -> Bool {
        if let active = state.active, active.header.minimumReaderVersion < LogFormat.columnarPartsVersion { return false }
        return options.columnarBlocks
    }

    /// Plans a group under the state lock as ``planGroup(_:prepared:caughtUp:early:)`` does; a lone append its task
    /// did not prepare, of at least ``earlyCommitEntries`` events, is meanwhile encoded on other threads
    /// (``EarlyCommit``). The encoding is always waited for: its contexts are the pool's until it finishes.
    func planGroupEncodingEarly(_ requests: [AppendRequest], prepared: [PreparedCommit?], caughtUp: Bool) throws -> PlannedGroup {
        guard requests.count == 1, prepared[0] == nil, requests[0].entries.count >= Self.earlyCommitEntries,
            requests[0].expectations.allSatisfy({ $0.checkOnly || $0.expected.isExactOrNoStream })
        else {
            return try stateLock.withLock { try planGroup(requests, prepared: prepared, caughtUp: caughtUp) }
        }
        // Read before a refresh may roll the segment: the plan uses the payload only if its own answer is the same.
        let columnar = stateLock.withLock { columnarCommitsAllowed() }
        let request = requests[0]
        let level = options.commitCompressionLevel
        let pool = compressors
        let dictionaries = dictionaries
        let early = EarlyCommit {
            PreparedCommit.prepare(
                request, sizeLimit: .max, underLoad: false, level: level,
                dictionary: { (try? dictionaries.newest()).flatMap { $0 }.map { ($0.id, $0.commit) } }, compressors: pool,
                columnar: columnar, twoCores: true)
        }
        defer { _ = early.wait() }
        return try stateLock.withLock { try planGroup(requests, prepared: prepared, caughtUp: caughtUp, early: early) }
    }
}

extension ExpectedVersion {
    /// Whether the version a stream's next event takes follows from this expectation alone.
    fileprivate var isExactOrNoStream: Bool {
        switch self {
        case .exact, .noStream: true
        case .any, .streamExists: false
        }
    }
}
