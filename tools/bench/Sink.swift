/// Keeps the optimizer from deleting reads whose results are otherwise unused.
enum Sink {
    nonisolated(unsafe) private static var value: UInt64 = 0

    /// Publishes a value where the optimizer cannot prove it is dead. Single-threaded use only.
    @inline(never)
    static func consume(_ x: UInt64) {
        value ^= x
    }
}
