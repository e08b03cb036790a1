import PawtrailIO

/// Merges stream indexes, each sorted by stream hash, visiting every distinct hash once with the entries that hold
/// it: questions over every stream of the store (how many there are, whether each one's versions go on from
/// segment to segment) then hold one cursor per index, not every stream.
struct HashMerge {
    /// One index: its entries' hashes, ascending.
    struct Source {
        /// How many entries it has.
        var count: Int
        /// The hash of an entry.
        var hash: (Int) throws -> Hash128
    }

    /// Where a hash occurs: the source, in the order given, and the entry within it.
    struct Occurrence: Comparable {
        var hash: Hash128
        var source: Int
        var entry: Int

        static func < (a: Occurrence, b: Occurrence) -> Bool { (a.hash, a.source, a.entry) < (b.hash, b.source, b.entry) }
    }

    /// Visits each distinct hash of the sources in ascending order.
    ///
    /// - Parameters:
    ///   - sources: The indexes, each sorted by hash.
    ///   - body: Called with a hash and its occurrences, in source order (within one source, in entry order).
    /// - Throws: What `body` throws.
    static func forEachHash(_ sources: [Source], _ body: (Hash128, [Occurrence]) throws -> Void) throws {
        var heap = MinHeap<Occurrence>()
        func pull(_ source: Int, _ entry: Int) throws {
            guard entry < sources[source].count else { return }
            heap.push(Occurrence(hash: try sources[source].hash(entry), source: source, entry: entry))
        }
        for s in sources.indices { try pull(s, 0) }
        var group: [Occurrence] = []
        while let first = heap.pop() {
            group.removeAll(keepingCapacity: true)
            group.append(first)
            try pull(first.source, first.entry + 1)
            while let top = heap.peek, top.hash == first.hash {
                _ = heap.pop()
                group.append(top)
                try pull(top.source, top.entry + 1)
            }
            try body(first.hash, group)
        }
    }

    /// How many distinct hashes the sources hold together.
    static func distinctCount(_ sources: [Source]) throws -> Int {
        var n = 0
        try forEachHash(sources) { _, _ in n += 1 }
        return n
    }
}

extension HashMerge.Source {
    /// A segment's stream index.
    init(_ file: StreamIndexFile) {
        self.init(count: file.streamCount, hash: { try file.entry(at: $0).hash })
    }

    /// An index run's stream index.
    init(_ file: RunStreamIndexFile) {
        self.init(count: file.streamCount, hash: { try file.entry(at: $0).hash })
    }

    /// Hashes already in memory, ascending.
    init(sorted hashes: [Hash128]) {
        self.init(count: hashes.count, hash: { hashes[$0] })
    }
}
