import Foundation
import Testing

/// Runs a suite's tests on threads of their own, one per piece of work, instead of on the concurrency pool.
///
/// These tests wait for the `pawtrail` processes they start, blocking their thread meanwhile. The pool has one
/// thread per core: on two cores, two such tests stopped every other test of the run (their watchdogs fired after
/// 120 s of a wait that takes milliseconds), and a slow machine hung the whole run. Here a blocked test holds only a
/// thread of its own.
struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreads {
    /// Runs the tests on threads of their own (see ``OwnThreads``).
    static var ownThreads: OwnThreads { OwnThreads() }
}

/// A task executor that starts a thread for every job it is given: a job that blocks never delays another.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    /// Whether the calling thread is one this executor started.
    static var isCurrent: Bool { pthread_getspecific(marker) != nil }

    /// Set on each thread this executor starts.
    private static let marker: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread {
            pthread_setspecific(Self.marker, UnsafeRawPointer(bitPattern: 1))
            job.runSynchronously(on: executor)
        }
        thread.name = "pawtrail-test-job"
        // Room for the deep stacks of a debug build's test bodies.
        thread.stackSize = 8 << 20
        thread.start()
    }
}
