import Synchronization

extension ProjectionEngine {
    /// Where each thread of a fold has come to, and the earliest position a projection failed on so far.
    final class LaneState: Sendable {
        struct State {
            var positions: [UInt64?]
            var failedAt: UInt64?
        }

        let state: Mutex<State>

        init(count: Int) {
            state = Mutex(State(positions: [UInt64?](repeating: nil, count: count), failedAt: nil))
        }
    }

    /// The folders one thread folds; each folder belongs to exactly one thread while the fold runs.
    struct Lane: @unchecked Sendable {
        var folders: [AnyFolder]
        var cost: Int
    }

    /// Folders folded through the end, waiting to be stored by whichever thread is free. A folder is handed over
    /// under the lock once its thread is done with it, so it still belongs to one thread at a time.
    final class FinishQueue: @unchecked Sendable {
        private struct State {
            var waiting: [AnyFolder] = []
            var taken = 0
            /// Threads still folding: while any is, an idle thread waits for its folders.
            var folding: Int
        }

        private let state: Mutex<State>

        init(folding: Int) {
            state = Mutex(State(folding: folding))
        }

        /// A thread's folders, folded through the end, in its order.
        func add(_ folders: [AnyFolder]) {
            state.withLock { $0.waiting.append(contentsOf: folders) }
        }

        /// A thread has stopped folding (done or failed).
        func laneFolded() {
            state.withLock { $0.folding -= 1 }
        }

        /// The next folder to store, waiting while a thread still folds; `nil` once every thread has stopped
        /// folding and every folder has been taken.
        ///
        /// - Throws: `CancellationError` when the fold is cancelled.
        func next() async throws -> AnyFolder? {
            while true {
                let (folder, done) = state.withLock { s -> (AnyFolder?, Bool) in
                    if s.taken < s.waiting.count {
                        s.taken += 1
                        return (s.waiting[s.taken - 1], false)
                    }
                    return (nil, s.folding == 0)
                }
                if let folder { return folder }
                if done { return nil }
                // A thread's fold ends once a rebuild: a short poll costs nothing next to the seconds it waits.
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }
}
