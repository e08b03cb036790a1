import EventLog
import Foundation
import Synchronization
import Testing

/// Following the log and waiting for appends. No timing is asserted: waits only bound how long a broken store
/// can hang a case.
struct FollowCases {
    static func followYieldsExistingEventsThenLaterOnesInOrder(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "order-1", events(2))
        try await h.store.append(to: "order-2", events(1))
        try h.checkpoint()
        let followed = h.store
        let positions = try await withWatchdog {
            var seen: [RecordedEvent] = []
            var appended = false
            for try await e in followed.follow(.all, from: 0, pollInterval: .milliseconds(20)) {
                seen.append(e)
                if seen.count == 3 && !appended {
                    appended = true
                    // Another task appends while we follow.
                    Task {
                        try await followed.append(to: "order-3", events(2))
                        try await followed.append(to: "order-1", events(1))
                    }
                }
                if seen.count == 6 { break }
            }
            return seen
        }
        #expect(positions.map(\.position) == Array(0..<6))
        #expect(positions.map(\.stream) == ["order-1", "order-1", "order-2", "order-3", "order-3", "order-1"])
    }

    static func followFromAPositionAndOfACategoryWithATypeFilter(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "order-1", [event("Placed"), event("Paid")])
        try await store.append(to: "pet-1", [event("Placed")])
        try await store.append(to: "order-2", [event("Placed")])
        let seen = try await withWatchdog {
            var seen: [RecordedEvent] = []
            for try await e in store.follow(.category("order"), from: 1, eventTypes: ["Placed"], pollInterval: .milliseconds(20)) {
                seen.append(e)
                if seen.count == 1 {
                    Task {
                        try await store.append(to: "pet-2", [event("Placed")])
                        try await store.append(to: "order-3", [event("Paid"), event("Placed")])
                    }
                }
                if seen.count == 2 { break }
            }
            return seen
        }
        #expect(seen.map(\.position) == [3, 6])
        #expect(seen.map(\.stream) == ["order-2", "order-3"])
    }

    /// A follower filtered by type, at the end of a log whose last events do not match, waits for new events like
    /// any other follower: it does not read the same filtered-out tail again and again (a busy loop), and it still
    /// yields the next match.
    static func followWithATypeFilterWaitsInsteadOfRereadingAFilteredOutTail(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "order-1", [event("Wanted"), event("Other"), event("Other")])
        try h.checkpoint()
        let store = ReadCountingStore(h.store)
        let (seenFirst, signal) = AsyncStream.makeStream(of: Void.self)
        let follower = Task {
            var seen: [RecordedEvent] = []
            for try await e in store.follow(.all, eventTypes: ["Wanted"], pollInterval: .milliseconds(50)) {
                seen.append(e)
                if seen.count == 1 { signal.yield() }
                if seen.count == 2 { break }
            }
            return seen
        }
        var iterator = seenFirst.makeAsyncIterator()
        _ = await iterator.next()
        // Caught up: the follower now only waits (a read at most every poll interval, plus a few).
        let before = store.reads
        try await Task.sleep(for: .milliseconds(500))
        let during = store.reads - before
        #expect(during <= 30, "\(during) reads in 500 ms while waiting at the end of the log")
        try await h.store.append(to: "order-2", [event("Other"), event("Wanted")])
        let seen = try await withWatchdog { try await follower.value }
        #expect(seen.map(\.position) == [0, 4])
    }

    /// Following from a position past the end yields nothing until an event at or after that position exists,
    /// then starts exactly there.
    static func followFromPastTheEndStartsAtThatPosition(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "order-1", events(2))
        try h.checkpoint()
        let follower = Task {
            var seen: [RecordedEvent] = []
            for try await e in store.follow(.all, from: 4, pollInterval: .milliseconds(20)) {
                seen.append(e)
                if seen.count == 2 { break }
            }
            return seen
        }
        try await Task.sleep(for: .milliseconds(50))
        try await store.append(to: "order-2", events(2))  // positions 2 and 3: before the start
        try await Task.sleep(for: .milliseconds(50))
        try await store.append(to: "order-3", events(3))  // 4, 5, 6
        let seen = try await withWatchdog { try await follower.value }
        #expect(seen.map(\.position) == [4, 5])
        #expect(seen.map(\.stream) == ["order-3", "order-3"])
    }

    static func cancellingTheFollowerEndsIt(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "order-1", events(2))
        let (firstSeen, signal) = AsyncStream.makeStream(of: Void.self)
        let follower = Task {
            var count = 0
            for try await _ in store.follow(.all, pollInterval: .milliseconds(20)) {
                count += 1
                if count == 2 { signal.yield() }
            }
            return count
        }
        var iterator = firstSeen.makeAsyncIterator()
        _ = await iterator.next()
        follower.cancel()
        let count = try await withWatchdog { try await follower.value }
        #expect(count == 2)
    }

    static func waitForAppendsReportsEventsAfterAPosition(_ h: any StoreHarness) async throws {
        #expect(try await h.store.waitForAppends(after: nil, timeout: .milliseconds(50)) == false)
        try await h.store.append(to: "order-1", events(1))
        #expect(try await h.store.waitForAppends(after: nil, timeout: .milliseconds(50)))
        #expect(try await h.store.waitForAppends(after: 0, timeout: .milliseconds(50)) == false)
        try await h.store.append(to: "order-1", events(2))
        #expect(try await h.store.waitForAppends(after: 0, timeout: .milliseconds(50)))
        #expect(try await h.store.waitForAppends(after: 1, timeout: .milliseconds(50)))
        #expect(try await h.store.waitForAppends(after: 2, timeout: .milliseconds(50)) == false)
        #expect(try await h.store.waitForAppends(after: 100, timeout: .milliseconds(50)) == false)
        try h.checkpoint()
        #expect(try await h.store.waitForAppends(after: 1, timeout: .milliseconds(50)))
    }

    static func waitForAppendsWakesForAConcurrentAppend(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "order-1", events(1))
        let woke = try await withWatchdog {
            async let waited = store.waitForAppends(after: 0, timeout: .seconds(20))
            try await Task.sleep(for: .milliseconds(30))
            try await store.append(to: "order-1", events(1))
            return try await waited
        }
        #expect(woke)
    }
}

/// Forwards to a store and counts its reads, each of which yields the thread first. With `knowsItsHead` it also
/// tells its head without a read (``EventStore/knownHead()``), as a file store opened to load on first use does.
public final class ReadCountingStore: EventStore {
    private let inner: any EventStore
    private let knowsItsHead: Bool
    private let count = Mutex(0)

    /// Wraps a store.
    ///
    /// - Parameters:
    ///   - inner: The store.
    ///   - knowsItsHead: Whether to tell the inner store's head (taken from it, not counted as a read).
    public init(_ inner: any EventStore, knowsItsHead: Bool = false) {
        self.inner = inner
        self.knowsItsHead = knowsItsHead
    }

    /// The reads asked of it so far.
    public var reads: Int { count.withLock { $0 } }

    public func knownHead() async throws -> LogHead? {
        guard knowsItsHead, let last = try await inner.lastPosition(),
            let e = try await inner.read(ReadRequest(source: .all, from: last, limit: 1)).events.first
        else { return nil }
        return LogHead(position: last, recordedAt: e.recordedAt)
    }

    public func append(_ request: AppendRequest) async throws -> AppendResult { try await inner.append(request) }

    public func read(_ request: ReadRequest) async throws -> ReadBatch {
        count.withLock { $0 += 1 }
        // A real suspension point: a caller that reads in a loop without ever waiting (the stores' reads need not
        // suspend) would otherwise hold a thread of the cooperative pool for good, and hang the test run instead
        // of failing it.
        await Task.yield()
        return try await inner.read(request)
    }

    public func streamVersion(of stream: StreamID) async throws -> UInt64? { try await inner.streamVersion(of: stream) }
    public func lastPosition() async throws -> UInt64? { try await inner.lastPosition() }
    public func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? { try await inner.lastPosition(atOrBefore: time) }

    public func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        try await inner.waitForAppends(after: position, timeout: timeout)
    }
}
