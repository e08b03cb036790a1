import ProjectionRuntimeTestKit
import Projections
import Testing

/// The packed versions' sort (radix by table and group hash, then each group by key and position) against the
/// stored order worked out version by version with ``RowVersion/storedOrder(_:_:)``.
@Suite struct RowVersionsSortingTests {
    /// Random versions: four tables, plain keys and grouped ones (keys of one group share a long prefix and differ
    /// late), several versions a key, some absent, added oldest first or in any order.
    static func versions(seed: UInt64, oldestFirst: Bool) -> [RowVersion] {
        var rng = Mix(seed: seed)
        var out: [RowVersion] = []
        var seen = Set<RowKey>()
        for table in UInt8(1)...4 {
            for g in 0..<(50 + Int(rng.next() % 200)) {
                let grouped = table % 2 == 0
                for part in 0..<(grouped ? 1 + Int(rng.next() % 20) : 1) {
                    // Parts of different lengths, one a prefix of another: "7", "70", "0000000000000000070".
                    let name = ["\(part)", "\(part * 10)", String(repeating: "0", count: 17) + "\(part)"][Int(rng.next() % 3)]
                    let key = grouped ? RowKey(table: table, group: "user-\(g)", part: name) : RowKey(table: table, key: "p-\(g)")
                    guard seen.insert(key).inserted else { continue }
                    var positions = Set<UInt64>()
                    for _ in 0..<(1 + Int(rng.next() % 8)) { positions.insert(rng.next() % 100_000) }
                    for p in positions {
                        let value = rng.next() % 9 == 0 ? nil : [UInt8](repeating: UInt8(p % 251), count: Int(rng.next() % 40))
                        out.append(RowVersion(key: key, position: p, value: value, keep: rng.next() % 2 == 0))
                    }
                }
            }
        }
        if oldestFirst { return out.sorted { $0.position < $1.position } }
        for i in out.indices.reversed() { out.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        return out
    }

    @Test(arguments: [(1, true), (2, true), (3, false), (4, false)] as [(UInt64, Bool)])
    func `sorted versions are in stored order`(seed: UInt64, oldestFirst: Bool) {
        let all = Self.versions(seed: seed, oldestFirst: oldestFirst)
        var packed = RowVersions()
        for v in all { packed.add(v) }
        packed.sortIntoStoredOrder()
        #expect(packed.versions == all.sorted(by: RowVersion.storedOrder))
    }

    @Test func `versions of one key are the same key, and no others are`() {
        var packed = RowVersions()
        for v in Self.versions(seed: 5, oldestFirst: true) { packed.add(v) }
        packed.sortIntoStoredOrder()
        let versions = packed.versions
        for i in versions.indices.dropFirst() {
            #expect(packed.sameKey(i - 1, i) == (versions[i - 1].key == versions[i].key))
        }
    }

    @Test func `emptied versions keep their memory when asked to`() {
        var packed = RowVersions()
        for v in Self.versions(seed: 6, oldestFirst: true) { packed.add(v) }
        let capacity = packed.capacityBytes
        packed.removeAll(keepingCapacity: true)
        #expect(packed.isEmpty && packed.byteCount == 0 && packed.capacityBytes == capacity)
        packed.removeAll(keepingCapacity: false)
        #expect(packed.capacityBytes < capacity)
    }
}
