import EventLog
import EventLogPostgres
import Foundation
import PostgresTestSupport
import ProjectionStatePostgres
import Testing

/// A hot standby of the test server: what it serves while the primary takes appends, and what it refuses.
@Suite struct PostgresReplicaTests {
    private static func event(_ n: Int) -> ProposedEvent {
        ProposedEvent(type: "Noted", data: Array("{\"n\":\(n)}".utf8))
    }

    @Test func `a reader on the standby sees a gapless prefix of the primary's log while appends run`() async throws {
        let primaryURL = try PostgresTestServer.freshDatabase()
        let primary = try PostgresEventStore.open(url: primaryURL, options: .init(createIfMissing: true))
        try PostgresTestServer.waitForStandby(of: primaryURL)
        let standby = try PostgresEventStore.open(url: try PostgresTestServer.standby(of: primaryURL))
        let writer = Task {
            for i in 0..<200 {
                let events = (0..<(1 + i % 3)).map { Self.event(i * 10 + $0) }
                _ = try await primary.append(AppendRequest(stream: StreamID(unchecked: "note-\(i % 7)"), events: events))
            }
        }
        // Every read of the standby, kept to compare with the primary's log once the writer is done.
        let total = (0..<200).reduce(0) { $0 + 1 + $1 % 3 }
        var reads: [[RecordedEvent]] = []
        var grew = 0
        var lastCount = -1
        for _ in 0..<400 {
            let batch = try await standby.read(ReadRequest(source: .all, from: 0, limit: 10_000)).events
            #expect(batch.enumerated().allSatisfy { UInt64($0.offset) == $0.element.position }, "a read of the standby has a hole")
            if batch.count > lastCount { grew += 1 }
            lastCount = batch.count
            reads.append(batch)
            if batch.count == total { break }
            _ = try await standby.waitForAppends(after: batch.last?.position, timeout: .milliseconds(20))
        }
        try await writer.value
        let log = try await primary.read(ReadRequest(source: .all, from: 0, limit: 10_000)).events
        #expect(log.count == total)
        for read in reads { #expect(Array(log.prefix(read.count)) == read, "a read of the standby is not a prefix of the log") }
        #expect(grew > 2, "the standby's reads never saw the log grow: \(grew)")
    }

    @Test func `an append to the standby fails as unavailable and names the primary`() async throws {
        let primaryURL = try PostgresTestServer.freshDatabase()
        _ = try PostgresEventStore.open(url: primaryURL, options: .init(createIfMissing: true))
        try PostgresTestServer.waitForStandby(of: primaryURL)
        let standby = try PostgresEventStore.open(url: try PostgresTestServer.standby(of: primaryURL))
        let error = await #expect(throws: EventStoreError.self) {
            try await standby.append(AppendRequest(stream: "note-1", events: [Self.event(1)]))
        }
        #expect(error?.code == .unavailable, "\(String(describing: error))")
        #expect("\(String(describing: error))".contains("target_session_attrs=read-write"))
    }

    @Test func `read models on the standby are read, never locked for writing`() async throws {
        let primaryURL = try PostgresTestServer.freshDatabase()
        let primary = try PostgresEventStore.open(url: primaryURL, options: .init(createIfMissing: true))
        #expect(try PostgresProjectionStateStore(store: primary).tryLock("inventory") != nil)
        try PostgresTestServer.waitForStandby(of: primaryURL)
        let standbyURL = try PostgresTestServer.standby(of: primaryURL)
        let standby = try PostgresEventStore.open(url: standbyURL)
        #expect(try PostgresProjectionStateStore(store: standby).tryLock("inventory") == nil)
    }
}
