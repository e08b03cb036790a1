import EventLog
import EventLogPostgres
import Foundation
import ProjectionRuntime
import ProjectionStatePostgres
import Projections
import Testing

/// Group reads of the read-model state on PostgreSQL take one of two plans by the group's shape; both must answer as
/// a reference does, live and as of earlier positions.
@Suite struct PostgresGroupReadTests {
    private func checkpoint(_ position: UInt64) -> CheckpointInfo {
        CheckpointInfo(
            name: "g", schemaVersion: 1, position: position, eventsApplied: Int64(position), rebuiltAt: Timestamp(microsecondsSinceEpoch: 1),
            rebuildMicroseconds: 1, savedAt: Timestamp(microsecondsSinceEpoch: 2), eventID: UUID())
    }

    @Test(arguments: [(rows: 3, versionsEach: 1_000), (rows: 2_500, versionsEach: 1)])
    func `a group reads as a reference says, whichever plan its shape picks`(rows: Int, versionsEach: Int) throws {
        let h = try PostgresHarness()
        let store = PostgresProjectionStateStore(store: try #require(h.store as? PostgresEventStore))
        let prefix: [UInt8] = [7, 0x41, 0xFF]
        let other = RowKey(bytes: [7, 0x42])
        var reference: [[UInt8]: [(position: UInt64, value: [UInt8]?)]] = [:]
        var versions: [RowVersion] = []
        var position: UInt64 = 0
        for round in 0..<versionsEach {
            for r in 0..<rows {
                position += 1
                let key = prefix + Array(String(r).utf8)
                // Every seventh row is removed in the last round.
                let value: [UInt8]? = round == versionsEach - 1 && r % 7 == 3 ? nil : Array("\(r)@\(round)".utf8)
                versions.append(RowVersion(key: RowKey(bytes: key), position: position, value: value, keep: round % 100 == 0))
                reference[key, default: []].append((position, value))
            }
        }
        versions.append(RowVersion(key: other, position: position, value: [1], keep: true))
        let lock = try #require(try store.tryLock("g"))
        let writer = try store.writer("g", version: 1, replacing: true)
        try writer.add(versions)
        try writer.finish(checkpoint(position))
        lock.unlock()
        let state = try #require(try store.open("g", version: 1))
        for asOf in [nil, position / 2, 1] as [UInt64?] {
            var expected: [[UInt8]: [UInt8]] = [:]
            for (key, list) in reference {
                if let newest = list.last(where: { version in asOf.map { version.position <= $0 } ?? true }), let value = newest.value { expected[key] = value }
            }
            let read: [(key: RowKey, value: [UInt8])] = try state.rows(group: prefix, asOf: asOf)
            var got: [[UInt8]: [UInt8]] = [:]
            for row in read { got[row.key.bytes] = row.value }
            #expect(read.count == got.count, "a key read twice as of \(String(describing: asOf))")
            #expect(got.count == expected.count, "\(got.count) rows read as of \(String(describing: asOf)), \(expected.count) expected")
            let wrong = expected.filter { got[$0.key] != $0.value }.count
            #expect(wrong == 0, "\(wrong) rows read wrong as of \(String(describing: asOf))")
        }
    }
}
