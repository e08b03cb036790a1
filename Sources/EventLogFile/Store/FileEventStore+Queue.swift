import EventLog
import Foundation
import Synchronization

/// Handing appends to the committer: each is encoded on its caller's thread, then queued for the next group.
extension FileEventStore {
    /// Appends several requests in order, queued together so that the committer takes them into as few groups as
    /// it can (one write and one flush each), and returns each one's outcome.
    func appendAll(_ requests: [AppendRequest]) async throws -> [Result<AppendResult, any Error>] {
        guard !requests.isEmpty else { return [] }
        for request in requests { try AppendPlanner.validate(request) }
        let prepared = requests.map(prepare)
        let collected = Mutex<[Result<AppendResult, any Error>?]>(Array(repeating: nil, count: requests.count))
        return await withCheckedContinuation { (continuation: CheckedContinuation<[Result<AppendResult, any Error>], Never>) in
            let remaining = Mutex(requests.count)
            enqueue(
                requests.indices.map { i in
                    Pending(
                        request: requests[i], prepared: prepared[i],
                        complete: { result in
                            collected.withLock { $0[i] = result }
                            if remaining.withLock({ n in
                                n -= 1
                                return n == 0
                            }) {
                                continuation.resume(returning: collected.withLock { $0.map { $0! } })
                            }
                        })
                })
        }
    }

    /// Encodes an append on the caller's thread, which takes the work off the committer, the one thread every
    /// writer waits for. Under concurrent load a commit of less than a page is stored uncompressed: compressing it
    /// costs more CPU than its flush saves (it writes one page either way), and compaction compresses the sealed
    /// segment anyway. A lone writer compresses with the dictionary, so a small store stays small.
    func prepare(_ request: AppendRequest) -> PreparedCommit? {
        let busy = queue.withLock { !pending.isEmpty || groupInFlight || lastGroupSize > 1 }
        return PreparedCommit.prepare(
            request, underLoad: busy, level: options.commitCompressionLevel,
            dictionary: { (try? dictionaries.newest()).flatMap { $0 }.map { ($0.id, $0.commit) } }, compressors: compressors)
    }

    /// Queues appends for the committer, starting it when it is not running.
    func enqueue(_ appends: [Pending]) {
        queue.lock()
        pending.append(contentsOf: appends)
        if !committerRunning {
            committerRunning = true
            let thread = Thread { [self] in runCommitter() }
            thread.name = "pawtrail-committer"
            thread.start()
        }
        // The committer waits for the first append, or for as many as its last group held: waking it for
        // each one in between would only take a core from the writers it is waiting for.
        if pending.count == appends.count || pending.count >= lastGroupSize { queue.signal() }
        queue.unlock()
    }
}
