import Foundation

/// Work split over two cores for the large payloads an appending task waits for: half compressed, or a part laid
/// out by columns, on a thread of the global pool while the caller's thread does the other.
enum HelperThread {
    /// Runs `there` on another thread and `here` on this one, and returns both results.
    ///
    /// The other thread is waited for on every way out, a throw from `here` included: its work holds a context (a
    /// zstd compressor) that is its own until it finishes, and returning early would let the committer's next
    /// commit use that context meanwhile.
    ///
    /// - Parameters:
    ///   - there: The work for the other thread.
    ///   - here: The work for this one.
    /// - Returns: Their results.
    /// - Throws: What `there` threw, else what `here` threw.
    static func both<A, B>(there: @escaping () throws -> A, here: () throws -> B) throws -> (A, B) {
        let box = Box<A>()
        let done = DispatchSemaphore(value: 0)
        let work = Unchecked(value: there)
        DispatchQueue.global().async {
            box.set(Result { try work.value() })
            done.signal()
        }
        let mine = Result { try here() }
        done.wait()
        return (try box.get(), try mine.get())
    }

    /// The other thread's result, handed back through a lock.
    private final class Box<T>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Result<T, any Error>?

        func set(_ r: Result<T, any Error>) { lock.withLock { value = r } }
        func get() throws -> T { try lock.withLock { value! }.get() }
    }

    /// The other thread's work: it uses what the caller hands it (a context, a buffer) and nothing else touches those
    /// until `both` has waited for it.
    private struct Unchecked<T>: @unchecked Sendable { let value: T }
}
