import EventLog
import Foundation
import PawtrailIO
@testable import ProjectionStateFile
import ProjectionRuntimeTestKit
import Projections
import Testing

/// Reads of a run file's rows under a prefix, as of a position, against the answer worked out from every version
/// written: runs of many blocks, groups that share their neighbours' tables, rows that come and go.
@Suite struct RunReaderTests {
    /// Random versions in stored order: three tables, keys plain and grouped, several versions a key, some absent.
    static func versions(seed: UInt64) -> [RowVersion] {
        var rng = Mix(seed: seed)
        var out: [RowVersion] = []
        for table in UInt8(1)...3 {
            for g in 0..<(20 + Int(rng.next() % 20)) {
                let grouped = table != 2
                for part in 0..<(grouped ? 1 + Int(rng.next() % 12) : 1) {
                    let key = grouped ? RowKey(table: table, group: "u-\(g)", part: String(format: "%05d", part)) : RowKey(table: table, key: "p-\(g)")
                    var positions = Set<UInt64>()
                    for _ in 0..<(1 + Int(rng.next() % 30)) { positions.insert(rng.next() % 5_000) }
                    for p in positions {
                        let absent = rng.next() % 7 == 0
                        let value = absent ? nil : [UInt8](repeating: UInt8(p % 251), count: 20 + Int(rng.next() % 200))
                        out.append(RowVersion(key: key, position: p, value: value, keep: rng.next() % 2 == 0))
                    }
                }
            }
        }
        return out.sorted { RunFormat.precedes($0, $1) }
    }

    /// What a read under a prefix as of a position must give: each key's newest version at or before it.
    static func expected(_ all: [RowVersion], prefix: [UInt8], asOf position: UInt64?) -> [RowVersion] {
        var out: [RowVersion] = []
        for v in all where v.key.bytes.starts(with: prefix) && (position.map { v.position <= $0 } ?? true) {
            if out.last?.key != v.key { out.append(v) }
        }
        return out
    }

    @Test(arguments: [false, true])
    func `reads under a prefix as of any position give each row's newest version then`(base: Bool) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("runreader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let all = Self.versions(seed: base ? 7 : 11)
        // Beneath a base run lies nothing; beneath the other, a run that may hold every row.
        let writer = try RunWriter(path: dir + "/1.run", olderMayHold: { _ in !base })
        for v in all { try writer.add(v) }
        try writer.finish(sync: false)
        let reader = try RunReader(path: dir + "/1.run")
        #expect(reader.blockCount(.history) > 4, "the history spans many blocks")

        // Every row's present version, looked up in stored order (resuming where the last one was found), then in
        // reverse and shuffled order, and a key the run does not hold.
        var newest: [RowKey: RowVersion] = [:]
        for v in all where newest[v.key] == nil { newest[v.key] = v }
        let keys = newest.keys.sorted { RunFormat.precedes($0, .max, $1, .max) }
        var shuffler = Mix(seed: 5)
        for order in [keys, keys.reversed(), keys.map { ($0, shuffler.next()) }.sorted { $0.1 < $1.1 }.map(\.0)] {
            for key in order {
                let want = newest[key].flatMap { base && $0.value == nil ? nil : $0 }
                #expect(try reader.version(of: key, asOf: nil) == want, "present version of \(key)")
            }
        }
        #expect(try reader.version(of: RowKey(table: 2, key: "nowhere"), asOf: nil) == nil)

        var prefixes: [[UInt8]] = [[1], [2], [3], [4]]
        for g in [0, 1, 5, 13, 19, 30, 45] { prefixes += [RowKey.groupPrefix(table: 1, group: "u-\(g)"), RowKey.groupPrefix(table: 3, group: "u-\(g)")] }
        var rng = Mix(seed: 3)
        for prefix in prefixes {
            for position in [nil, 0, 4_999, 10_000] + (0..<6).map({ _ in rng.next() % 5_000 }) as [UInt64?] {
                let got = try reader.versions(prefix: prefix, asOf: position)
                var want = Self.expected(all, prefix: prefix, asOf: position)
                if position == nil && base { want.removeAll { $0.value == nil } }
                #expect(got == want, "prefix \(prefix) as of \(position.map(String.init) ?? "now")")
            }
        }
    }

    /// Rows with many versions (a product's units sold, changed at every order) span many blocks each; a read as of a
    /// position goes to the block of each row's version then instead of through every one, and must find the same.
    @Test func `reads as of a position find the version of rows whose versions span many blocks`() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("runreader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = Mix(seed: 17)
        var all: [RowVersion] = []
        for k in 0..<12 {
            // Long rows among short ones, and rows whose versions all come after some positions asked.
            let count = k % 3 == 0 ? 3_000 + Int(rng.next() % 1_000) : 1 + Int(rng.next() % 4)
            let start = k % 4 == 1 ? 10_000 : 0
            var positions = Set<UInt64>()
            while positions.count < count { positions.insert(UInt64(start) + rng.next() % 20_000) }
            for p in positions {
                let value = rng.next() % 11 == 0 ? nil : [UInt8](repeating: UInt8(p % 251), count: 40 + Int(rng.next() % 80))
                all.append(RowVersion(key: RowKey(table: 1, key: "p-\(k)"), position: p, value: value, keep: false))
            }
        }
        all.sort { RunFormat.precedes($0, $1) }
        let writer = try RunWriter(path: dir + "/1.run", olderMayHold: { _ in true })
        for v in all { try writer.add(v) }
        try writer.finish(sync: false)
        let reader = try RunReader(path: dir + "/1.run")
        #expect(reader.blockCount(.history) > 20, "long rows span many blocks")
        for position in [0, 1, 9_999, 10_000, 12_000, 29_999, 40_000] + (0..<20).map({ _ in rng.next() % 30_000 }) as [UInt64] {
            #expect(try reader.versions(prefix: [1], asOf: position) == Self.expected(all, prefix: [1], asOf: position), "as of \(position)")
        }
    }

    /// A block index entry whose fields are wrong, though its checksums agree (a bug, or a file made by hand), is
    /// refused as damage when the run opens: never a crash, never a read out of the file.
    @Test(arguments: [UInt64.max, 0, 1 << 40])
    func `a block index entry out of place is refused when the run opens`(offset: UInt64) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("runindex-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/1.run"
        let writer = try RunWriter(path: path, olderMayHold: { _ in true })
        for v in Self.versions(seed: 3) { try writer.add(v) }
        try writer.finish(sync: false)
        _ = try RunReader(path: path)

        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let f = bytes.count - RunFormat.footerSize
        func u64(_ at: Int) -> Int { bytes[at..<(at + 8)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        func put(_ value: UInt64, at: Int, width: Int) {
            for k in 0..<width { bytes[at + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) }
        }
        let (index, length) = (u64(f), u64(f + 8))
        put(offset, at: index + 4, width: 8)
        put(UInt64(PawtrailIO.CRC32C.checksum(Array(bytes[index..<(index + length)]))), at: f + 80, width: 4)
        put(UInt64(PawtrailIO.CRC32C.checksum(Array(bytes[f..<(f + 92)]))), at: f + 92, width: 4)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        do {
            _ = try RunReader(path: path)
            Issue.record("a run whose block index points out of place opened")
        } catch let e as EventStoreError {
            #expect(e.code == .corrupted, "\(e)")
        }
    }
}
