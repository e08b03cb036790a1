import EventLog
@testable import EventLogPostgres
@testable import EventLogTestKit
import Foundation
import PostgresTestSupport
import Synchronization
import Testing

/// What the PostgreSQL store promises beyond the shared cases, where other stores on PostgreSQL have failed:
/// positions with no holes for any reader while many connections append, a stuck holder of the append lock, and a
/// connection lost in the middle of an append.
@Suite struct PostgresGuaranteeTests {
    /// A hole probe: writers on connections of their own append at once while a reader reads the newest events
    /// again and again. Every read must be a gapless prefix of the log: no position missing below one it sees
    /// (sequence-numbered tables fail this: a later commit shows up before an earlier one).
    @Test func `readers never see a hole while eight connections append`() async throws {
        let h = try PostgresHarness()
        let writers = 8
        let appendsEach = 60
        let stores = try (0..<writers).map { _ in try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema)) }
        let reader = try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema))
        let done = Mutex(false)
        async let holes: (reads: Int, holes: [String]) = {
            var reads = 0
            var holes: [String] = []
            while !done.withLock({ $0 }) {
                guard let last = try await reader.lastPosition() else { continue }
                // The newest events, backward: the positions seen must run without a gap down from the first.
                let batch = try await reader.read(ReadRequest(source: .all, direction: .backward, limit: 50))
                let seen = batch.events.map(\.position)
                reads += 1
                if seen.first.map({ $0 < last }) ?? true { holes.append("read \(reads): newest \(seen.first.map(String.init) ?? "none") below last \(last)") }
                for (a, b) in zip(seen, seen.dropFirst()) where a != b + 1 { holes.append("read \(reads): \(b) then \(a)") }
            }
            return (reads, holes)
        }()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (w, store) in stores.enumerated() {
                group.addTask {
                    for i in 0..<appendsEach {
                        try await store.append(to: StreamID(unchecked: "probe-\(w)-\(i % 3)"), events(1 + i % 3))
                    }
                }
            }
            try await group.waitForAll()
        }
        done.withLock { $0 = true }
        let probe = try await holes
        #expect(probe.reads > 10, "the reader read \(probe.reads) times")
        #expect(probe.holes.isEmpty, "\(probe.holes.prefix(5))")
        let all = try await reader.readAll()
        #expect(all.map(\.position) == Array(0..<UInt64(all.count)))
        #expect(all.count == writers * (0..<appendsEach).reduce(0) { $0 + 1 + $1 % 3 })
        // Times never decrease along the log.
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.recordedAt <= $1.recordedAt })
    }

    /// A session that took the append lock and then idles inside its transaction makes appends fail as timed out
    /// after the lock timeout, not hang; once it is gone, appends go on.
    @Test func `a stuck holder of the append lock makes appends time out, not hang`() async throws {
        let h = try PostgresHarness()
        let store = try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema, lockTimeout: .milliseconds(300)))
        let holder = PostgresSession(url: h.url, schema: h.schema, label: "holder")
        try holder.runBlocking { c in
            try c.execute("BEGIN")
            _ = try c.query("SELECT next_position FROM head FOR UPDATE")
        }
        await #expect(throws: EventStoreError.self) {
            do {
                try await store.append(to: "pet-1", events(1))
            } catch let e as EventStoreError {
                #expect(e.code == .timedOut, "\(e)")
                throw e
            }
        }
        // The holder lets go (or the server has ended its idle transaction already, which it does after 30 s).
        try? holder.runBlocking { c in try c.execute("ROLLBACK") }
        try await store.append(to: "pet-1", events(1))
        #expect(try await store.lastPosition() == 0)
    }

    /// The server ends an appending connection while the append waits for the lock: the store runs the append
    /// again on a new connection, by its event ids, and it is written once.
    @Test func `an append whose connection is terminated is retried by its ids and written once`() async throws {
        let h = try PostgresHarness()
        // A long lock timeout: the append must still be waiting when the test finds it, however busy the machine.
        let store = try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema, lockTimeout: .seconds(600)))
        try await store.append(to: "pet-0", events(1))
        let holder = PostgresSession(url: h.url, schema: h.schema, label: "holder")
        try holder.runBlocking { c in
            // The holder may sit idle in its transaction while a busy machine runs other tests: without this, the
            // server ends it after the 30 s every connection of the store allows, and the test's next query on it
            // fails.
            try c.execute("SET idle_in_transaction_session_timeout = 0")
            try c.execute("BEGIN")
            _ = try c.query("SELECT next_position FROM head FOR UPDATE")
        }
        let batch = events(3)
        let pid = try store.session.runBlocking { Int64($0.backendPID) }
        let finished = Mutex(false)
        let appending = Task {
            defer { finished.withLock { $0 = true } }
            return try await store.append(to: "pet-1", expected: .noStream, batch)
        }
        // Wait until the store's append waits on the lock, then end its connection from the server's side; an append
        // that ended first (it failed without waiting) stops the wait at once, and the test reports it below.
        var terminated = false
        for _ in 0..<15_000 where !terminated && !finished.withLock({ $0 }) {
            try await Task.sleep(for: .milliseconds(20))
            let ended = try holder.runBlocking { c in
                try c.query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1::bigint::integer AND wait_event_type = 'Lock'", [.int8(pid)]
                ).count
            }
            terminated = ended > 0
        }
        #expect(terminated, "the append never waited on the lock")
        try holder.runBlocking { c in try c.execute("ROLLBACK") }
        let result = try await appending.value
        #expect(result.firstPosition == 1 && result.lastPosition == 3)
        let all = try await store.readAll()
        #expect(all.map(\.id) == [all[0].id] + batch.map(\.id), "written once, in order")
    }
}

/// Follow mode on a primary: the follower LISTENs on the store's channel and an append on another connection wakes it.
@Suite struct PostgresFollowTests {
    @Test func `a follower listens on the store's channel and another connection's append wakes it`() async throws {
        let h = try PostgresHarness()
        let follower = try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema))
        let writer = try PostgresEventStore.open(url: h.url, options: .init(schema: h.schema))
        #expect(try await !follower.waitForAppends(after: nil, timeout: .milliseconds(50)))
        let channels = try follower.listener.runBlocking { c in
            let r = try c.query("SELECT pg_listening_channels()")
            return (0..<r.count).map { r.string($0, 0) }
        }
        #expect(channels == [PostgresConnection.channel(h.schema)])
        async let woke = follower.waitForAppends(after: nil, timeout: .seconds(60))
        try await Task.sleep(for: .milliseconds(100))
        try await writer.append(to: "pet-1", events(1))
        #expect(try await woke)
        #expect(try await follower.waitForAppends(after: 0, timeout: .milliseconds(50)) == false)
    }
}
