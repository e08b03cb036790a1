import Foundation
import Testing

/// The trait the process tests run under: their bodies, and the tasks they start, block threads of their own.
@Suite(.ownThreads) struct OwnThreadsTests {
    @Test func aTestThatBlocksRunsOnAThreadOfItsOwn() {
        #expect(ThreadPerJobExecutor.isCurrent)
    }

    /// More jobs than cores, each blocked until all of them have started: on the concurrency pool (a thread per
    /// core) the last ones never start, and the barrier gives up after a minute.
    @Test func moreBlockedJobsThanCoresAllRunAtOnce() async {
        let jobs = ProcessInfo.processInfo.activeProcessorCount + 2
        let barrier = Barrier(parties: jobs)
        let met = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<jobs { group.addTask { ThreadPerJobExecutor.isCurrent && barrier.arriveAndWait(seconds: 60) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(met == jobs)
    }

    /// Blocks each caller until `parties` have arrived, or until a time-out.
    final class Barrier: @unchecked Sendable {
        private let condition = NSCondition()
        private let parties: Int
        private var arrived = 0

        init(parties: Int) { self.parties = parties }

        /// - Returns: Whether every party arrived in time.
        func arriveAndWait(seconds: Double) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            arrived += 1
            condition.broadcast()
            let deadline = Date(timeIntervalSinceNow: seconds)
            while arrived < parties {
                if !condition.wait(until: deadline) { return arrived >= parties }
            }
            return true
        }
    }
}
