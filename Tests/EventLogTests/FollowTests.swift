import EventLog
import Foundation
import Testing

/// Following the log and waiting for appends. No timing is asserted: waits only bound how long a broken store
/// can hang a case.
@Suite("Conformance: follow and waitForAppends")
struct FollowTests {
    @Test(arguments: Backend.allCases)
    func followYieldsExistingEventsThenLaterOnesInOrder(backend: Backend) async throws {
        let h = try Harness(backend)
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

    @Test(arguments: Backend.allCases)
    func followFromAPositionAndOfACategoryWithATypeFilter(backend: Backend) async throws {
        let h = try Harness(backend)
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

    @Test(arguments: Backend.allCases)
    func cancellingTheFollowerEndsIt(backend: Backend) async throws {
        let h = try Harness(backend)
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

    @Test(arguments: Backend.allCases)
    func waitForAppendsReportsEventsAfterAPosition(backend: Backend) async throws {
        let h = try Harness(backend)
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

    @Test(arguments: Backend.allCases)
    func waitForAppendsWakesForAConcurrentAppend(backend: Backend) async throws {
        let h = try Harness(backend)
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
