import PawtrailIO

/// Searching the directories of the index files, which list 128-bit stream hashes in ascending order. The hashes
/// are spread evenly, so a key's place is first guessed from its value, then bracketed by steps that double away
/// from the guess, then found by bisection inside the bracket: the probes stay near the guess (a page or two of the
/// file) instead of a bisection's jumps across all of it, which a store with many segments pays on every lookup.
enum HashSearch {
    /// The first index in `0..<count` whose hash is not below `key` (`count` when none is).
    ///
    /// - Parameters:
    ///   - key: The hash looked for.
    ///   - count: How many hashes there are.
    ///   - hashAt: The hash at an index; ascending in the index.
    @inline(__always)
    static func lowerBound<E: Error>(of key: Hash128, count: Int, hashAt: (Int) throws(E) -> Hash128) throws(E) -> Int {
        guard count > 0 else { return 0 }
        let guess = Int(truncatingIfNeeded: key.high.multipliedFullWidth(by: UInt64(count)).high)
        var lo: Int
        var hi: Int
        var step = 1
        if try hashAt(guess) < key {
            lo = guess + 1
            var probe = lo
            while probe < count, try hashAt(probe) < key {
                lo = probe + 1
                probe = lo + step
                step <<= 1
            }
            hi = min(probe, count)
        } else {
            hi = guess
            var probe = hi - 1
            while probe >= 0, try !(hashAt(probe) < key) {
                hi = probe
                probe = hi - step
                step <<= 1
            }
            lo = max(probe + 1, 0)
        }
        while lo < hi {
            let mid = (lo + hi) / 2
            if try hashAt(mid) < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// ``lowerBound(of:count:hashAt:)`` over a file's directory of fixed-size entries that each start with a
    /// hash stored as two little-endian 64-bit halves, high first (the layout of `.sidx` and `.ridx`).
    ///
    /// - Parameters:
    ///   - key: The hash looked for.
    ///   - bytes: The mapped file.
    ///   - start: Where the directory starts in it.
    ///   - entrySize: The size of an entry.
    ///   - count: How many entries there are.
    @inline(__always)
    static func lowerBound(of key: Hash128, in bytes: UnsafeRawBufferPointer, directoryAt start: Int, entrySize: Int, count: Int) -> Int {
        lowerBound(of: key, count: count) { i in
            let o = start + i * entrySize
            return Hash128(
                high: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self).littleEndian,
                low: bytes.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self).littleEndian)
        }
    }
}
