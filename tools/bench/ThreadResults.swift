import BenchSupport
import Foundation

/// What the SQLite writer threads report back, behind a lock.
final class ThreadResults: @unchecked Sendable {
    private let lock = NSLock()
    private var allLatencies: [Double] = []
    private var errors: [any Error] = []

    /// Adds one thread's commit latencies.
    func add(_ latencies: [Double]) {
        lock.withLock { allLatencies += latencies }
    }

    /// Records a thread's failure.
    func fail(_ error: any Error) {
        lock.withLock { errors.append(error) }
    }

    /// Every latency added.
    var latencies: [Double] { lock.withLock { allLatencies } }

    /// The first failure, if any.
    var firstError: (any Error)? { lock.withLock { errors.first } }
}
