extension RowVersions {
    /// Sorts the entries into stored order: by table, group hash, key bytes, then newest first (the entries move, not
    /// the bytes).
    ///
    /// A rebuild sorts millions of versions per run it writes, so the table and group hash, which decide almost every
    /// comparison, are sorted by radix (stable, a pass per 11 bits); only the versions of one group (a user's activity
    /// entries, or one row's versions) are then compared by their keys and positions.
    public mutating func sortIntoStoredOrder() {
        let n = entries.count
        guard n > 1 else { return }
        guard n <= Int(UInt32.max) else { return sortByComparing() }
        var order = [SortItem](unsafeUninitializedCapacity: n) { buffer, count in
            for (i, e) in entries.enumerated() { buffer[i] = SortItem(hash: e.groupHash, index: UInt32(i), table: e.table) }
            count = n
        }
        var scratch = [SortItem](repeating: SortItem(hash: 0, index: 0, table: 0), count: n)
        for shift in stride(from: 0, to: 64, by: Self.radixBits) {
            Self.radixPass(&order, into: &scratch) { Int(truncatingIfNeeded: $0.hash >> UInt64(shift)) & Self.radixMask }
            swap(&order, &scratch)
        }
        Self.radixPass(&order, into: &scratch) { Int($0.table) }
        swap(&order, &scratch)
        scratch = []
        let unsorted = entries
        entries = order.map { unsorted[Int($0.index)] }
        order = []
        sortGroups()
    }

    /// The comparison sort, for more versions than a 32-bit index counts.
    private mutating func sortByComparing() {
        let bytes = buffer.bytes
        bytes.withUnsafeBytes { bytes in
            entries.sort { a, b in
                if a.table != b.table { return a.table < b.table }
                if a.groupHash != b.groupHash { return a.groupHash < b.groupHash }
                let c = Self.compare(bytes, a, b)
                return c != 0 ? c < 0 : a.position > b.position
            }
        }
    }

    /// Orders each run of entries of one table and group hash by key bytes, then newest first.
    private mutating func sortGroups() {
        let bytes = buffer.bytes
        bytes.withUnsafeBytes { bytes in
            entries.withUnsafeMutableBufferPointer { e in
                var start = 0
                while start < e.count {
                    var end = start + 1
                    while end < e.count, e[end].groupHash == e[start].groupHash, e[end].table == e[start].table { end += 1 }
                    if end - start > 1 { Self.orderGroup(&e[start..<end], bytes) }
                    start = end
                }
            }
        }
    }

    /// Orders one group's entries. The versions of a single row added oldest first, the common case, only need
    /// reversing.
    private static func orderGroup(_ group: inout Slice<UnsafeMutableBufferPointer<Entry>>, _ bytes: UnsafeRawBufferPointer) {
        let first = group[group.startIndex]
        var oneRowAscending = true
        for i in (group.startIndex + 1)..<group.endIndex {
            let e = group[i]
            if e.position <= group[i - 1].position || compare(bytes, first, e) != 0 {
                oneRowAscending = false
                break
            }
        }
        if oneRowAscending {
            group.reverse()
            return
        }
        group.sort { a, b in
            let c = compare(bytes, a, b)
            return c != 0 ? c < 0 : a.position > b.position
        }
    }

    /// What the radix passes move: the sort key and where the entry is.
    private struct SortItem {
        var hash: UInt64
        var index: UInt32
        var table: UInt8
    }

    private static let radixBits = 11
    private static let radixMask = (1 << radixBits) - 1

    /// One stable counting pass by `digit` (less than 2¹¹).
    private static func radixPass(_ from: inout [SortItem], into to: inout [SortItem], digit: (SortItem) -> Int) {
        var counts = [Int](repeating: 0, count: radixMask + 2)
        from.withUnsafeBufferPointer { src in
            to.withUnsafeMutableBufferPointer { dst in
                counts.withUnsafeMutableBufferPointer { c in
                    for item in src { c[digit(item) + 1] += 1 }
                    for d in 1..<c.count { c[d] += c[d - 1] }
                    for item in src {
                        let d = digit(item)
                        dst[c[d]] = item
                        c[d] += 1
                    }
                }
            }
        }
    }
}
