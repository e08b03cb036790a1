import Foundation

/// Finds event ids that occur more than once in the store, for `log verify`, holding one cursor per segment instead
/// of every id: the segments' id indexes are each sorted by the ids' 64-bit hashes, so merging them brings equal
/// hashes together.
///
/// An index keeps only the leading bits of each hash (a bucket and a 24-bit fingerprint: 24 to 48 bits, more in
/// larger segments), so the merge orders entries by the leading bits all sources keep. Entries that agree there
/// are compared on the leading bits both of them keep, and only those that agree on all of them are confirmed by
/// reading the two events' ids: a handful of reads, not one per event.
struct DuplicateIDFinder {
    /// One source of hashes in ascending order.
    enum Source {
        /// A sealed segment's id index.
        case index(EventIDIndexFile)
        /// Whole 64-bit hashes with positions, sorted by hash (the active segment's, from its data).
        case keys([(key: UInt64, position: UInt64)])
    }

    private struct Cursor {
        var source: Source
        var next = 0
        var index: EventIDIndexFile.Cursor?
        let knownBits: Int

        init(_ source: Source) {
            self.source = source
            switch source {
            case .index(let file):
                index = EventIDIndexFile.Cursor(file)
                knownBits = file.knownBits
            case .keys:
                knownBits = 64
            }
        }

        /// The next entry: its hash's known leading bits, aligned to the top of 64 bits, and its position.
        mutating func advance() -> (aligned: UInt64, position: UInt64)? {
            switch source {
            case .index:
                guard let e = index!.next() else { return nil }
                return (e.prefix << UInt64(64 - knownBits), e.position)
            case .keys(let keys):
                guard next < keys.count else { return nil }
                defer { next += 1 }
                return (keys[next].key, keys[next].position)
            }
        }
    }

    private struct Entry: Comparable {
        var aligned: UInt64
        var knownBits: Int
        var position: UInt64
        var cursor: Int

        static func < (a: Entry, b: Entry) -> Bool { a.aligned < b.aligned }
        static func == (a: Entry, b: Entry) -> Bool { a.aligned == b.aligned }
    }

    /// Reports every id found at more than one position.
    ///
    /// - Parameters:
    ///   - sources: The store's id hashes, each event's once.
    ///   - idAt: Reads the id of the event at a position; `nil` when it cannot (the pair is then not reported).
    ///   - report: Called once for each pair of positions holding the same id (lower position first).
    /// - Throws: What `idAt` throws.
    static func find(_ sources: [Source], idAt: (UInt64) throws -> UUID?, report: (UUID, UInt64, UInt64) -> Void) throws {
        var cursors = sources.map(Cursor.init)
        guard let common = cursors.map(\.knownBits).min() else { return }
        let mask: UInt64 = common == 64 ? .max : ~(UInt64.max >> UInt64(common))
        var heap = MinHeap<Entry>()
        func pull(_ c: Int) {
            if let e = cursors[c].advance() {
                heap.push(Entry(aligned: e.aligned, knownBits: cursors[c].knownBits, position: e.position, cursor: c))
            }
        }
        for c in cursors.indices { pull(c) }
        var group: [Entry] = []
        while let first = heap.pop() {
            pull(first.cursor)
            group.removeAll(keepingCapacity: true)
            group.append(first)
            while let top = heap.peek, top.aligned & mask == first.aligned & mask {
                group.append(heap.pop()!)
                pull(top.cursor)
            }
            guard group.count > 1 else { continue }
            for i in 0..<(group.count - 1) {
                for j in (i + 1)..<group.count {
                    let bits = min(group[i].knownBits, group[j].knownBits)
                    let pairMask: UInt64 = bits == 64 ? .max : ~(UInt64.max >> UInt64(bits))
                    guard group[i].aligned & pairMask == group[j].aligned & pairMask else { continue }
                    guard let id = try idAt(group[i].position) else { continue }
                    if try idAt(group[j].position) == id {
                        report(id, min(group[i].position, group[j].position), max(group[i].position, group[j].position))
                    }
                }
            }
        }
    }
}
