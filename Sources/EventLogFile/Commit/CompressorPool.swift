import Foundation
import PawtrailIO

/// Compression contexts lent to appending tasks, so each thread compresses with its own context without making
/// one per append (a context costs about a megabyte to set up at the levels commits use).
final class CompressorPool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [ZstdCompressor] = []
    /// Contexts kept when returned; more are made when needed and freed on return.
    private let keep: Int

    /// Creates an empty pool.
    ///
    /// - Parameter keep: How many idle contexts to keep.
    init(keep: Int) {
        self.keep = keep
    }

    /// A context for the caller alone until it gives it back.
    func borrow() -> ZstdCompressor {
        lock.withLock { idle.popLast() } ?? ZstdCompressor()
    }

    /// Returns a borrowed context.
    func giveBack(_ compressor: ZstdCompressor) {
        lock.withLock {
            if idle.count < keep { idle.append(compressor) }
        }
    }
}
