import EventLog
import Foundation
import ProjectionRuntime
import ProjectionRuntimeTestKit
@testable import ProjectionStateFile
import Projections
import Testing

/// Where a removed row's absence is kept: in a run's head only while an older run may still hold the row, so that a
/// read of the present (a whole-shop view of a table whose rows come and go) does not pass over every row ever
/// removed; time travel still finds the row as it was.
@Suite struct RunAbsenceTests {
    static let table: UInt8 = 1
    static func key(_ name: String) -> RowKey { RowKey(table: table, key: name) }
    static func value(_ name: String, _ position: UInt64) -> [UInt8] { Array("\(name)@\(position)".utf8) + [UInt8](repeating: 7, count: 40) }

    /// Commits `versions` as one catch-up (or a rebuild) at the last one's position.
    static func commit(_ store: FileProjectionStateStore, _ versions: [RowVersion], replacing: Bool = false) throws {
        let lock = try #require(try store.tryLock("p"))
        defer { lock.unlock() }
        let writer = try store.writer("p", version: 1, replacing: replacing)
        try writer.add(versions)
        let position = versions.map(\.position).max()
        try writer.finish(
            CheckpointInfo(
                name: "p", schemaVersion: 1, position: position, eventsApplied: Int64(position ?? 0),
                rebuiltAt: Timestamp(microsecondsSinceEpoch: 1), rebuildMicroseconds: 1, savedAt: Timestamp(microsecondsSinceEpoch: 2),
                eventID: UUID(), eventRecordedAt: Timestamp(microsecondsSinceEpoch: 3)))
    }

    /// Every absent version in a run's head, by run (oldest first).
    static func absencesInHeads(_ state: FileStoredState) throws -> [[RowKey]] {
        try state.runs.reversed().map { run in
            try (0..<run.blockCount(.head)).flatMap { try run.entries(.head, $0) }.filter { $0.value == nil }.map(\.key)
        }
    }

    @Test(arguments: [1 << 20, 256])
    func `a removed row that no older run holds leaves no absence in a head, and time travel still finds it`(spillBytes: Int) throws {
        let scratch = try Scratch()
        let store = FileProjectionStateStore(storePath: scratch.path, spillBytes: spillBytes)
        var all: [RowVersion] = []
        // A large base of rows that stay, then catch-ups: each adds short-lived rows, removes them, and removes a
        // few of the base's rows.
        var position: UInt64 = 0
        var base: [RowVersion] = []
        for i in 0..<3_000 {
            position += 1
            base.append(RowVersion(key: Self.key(String(format: "base-%05d", i)), position: position, value: Self.value("base", position), keep: true))
        }
        try Self.commit(store, base, replacing: true)
        all += base
        for round in 0..<4 {
            var batch: [RowVersion] = []
            for i in 0..<40 {
                position += 1
                batch.append(RowVersion(key: Self.key("gone-\(round)-\(i)"), position: position, value: Self.value("gone", position), keep: true))
            }
            for i in 0..<40 {
                position += 1
                batch.append(RowVersion(key: Self.key("gone-\(round)-\(i)"), position: position, value: nil, keep: true))
            }
            for i in 0..<5 {
                position += 1
                batch.append(RowVersion(key: Self.key(String(format: "base-%05d", round * 5 + i)), position: position, value: nil, keep: true))
            }
            try Self.commit(store, batch)
            all += batch
        }

        let state = try #require(try store.openState("p", 1))
        let absences = try Self.absencesInHeads(state).flatMap { $0 }
        let shortLived = absences.filter { String(decoding: $0.bytes.dropFirst(), as: UTF8.self).hasPrefix("gone-") }
        // The older runs' Bloom filters answer "maybe" for about 1% of the keys they lack: of the 160 short-lived
        // rows, a few may keep an absence in a head; every one of them did before.
        #expect(shortLived.count <= 8, "\(shortLived.count) short-lived rows left absences in a head: \(shortLived.prefix(5))")
        if state.runs.count > 1 {
            // The base's rows removed later are held by the base run: their absences must shadow them.
            #expect(absences.count - shortLived.count == 20, "\(absences.count) absences in heads over \(state.runs.count) runs")
        }
        // Reads of the present and of every past position give each row's newest version then.
        for at in [nil] + stride(from: UInt64(2_990), through: position, by: 7).map(Optional.some) as [UInt64?] {
            var want: [RowKey: [UInt8]] = [:]
            // An absent version removes the row from `want`.
            for v in all where at.map({ v.position <= $0 }) ?? true { want[v.key] = v.value }
            let got = try state.rows(table: Self.table, asOf: at)
            #expect(got.map(\.key) == want.keys.sorted { RunFormat.precedes($0, .max, $1, .max) }, "keys as of \(String(describing: at))")
            #expect(got.allSatisfy { want[$0.key] == $0.value }, "values as of \(String(describing: at))")
            for name in ["gone-0-3", "gone-3-39", "base-00002", "base-02999"] {
                #expect(try state.version(of: Self.key(name), asOf: at)?.value == want[Self.key(name)], "\(name) as of \(String(describing: at))")
            }
        }
    }
}
