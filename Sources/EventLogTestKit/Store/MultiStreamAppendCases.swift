import EventLog
import Foundation
import Testing

/// One append over several streams, each with its own expected version, plus check-only conditions on streams
/// it does not write: all of it commits, or none of it.
struct MultiStreamAppendCases {
    static func allStreamsCommitTogether(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "b-1", events(2))
        let request = AppendRequest(
            entries: [
                .init(stream: "a-1", event: event("A")), .init(stream: "b-1", event: event("B")),
                .init(stream: "a-1", event: event("A")), .init(stream: "c-1", event: event("C")),
                .init(stream: "b-1", event: event("B")),
            ],
            expectations: [
                .init(stream: "a-1", expected: .noStream), .init(stream: "b-1", expected: .exact(1)),
                .init(stream: "c-1", expected: .any), .init(stream: "d-1", expected: .noStream),
            ])
        let result = try await h.store.append(request)
        #expect(result.firstPosition == 2)
        #expect(result.lastPosition == 6)
        // Streams in order of first appearance; a non-check-only expectation without events is reported too.
        #expect(
            result.streams == [
                .init(stream: "a-1", version: 1), .init(stream: "b-1", version: 3), .init(stream: "c-1", version: 0),
                .init(stream: "d-1", version: nil),
            ])
        try h.checkpoint()
        let all = try await h.store.readAll()
        #expect(all.map(\.position) == Array(0...6))
        #expect(all.dropFirst(2).map(\.stream) == ["a-1", "b-1", "a-1", "c-1", "b-1"])
        #expect(all.dropFirst(2).map(\.version) == [0, 2, 1, 0, 3])
        #expect(all.dropFirst(2).map(\.id) == request.entries.map(\.event.id))
        #expect(Set(all.dropFirst(2).map(\.recordedAt)).count == 1, "one commit, one time")
        #expect(try await h.store.streamVersion(of: "d-1") == nil)
    }

    static func oneFailingExpectationLeavesNoTraceOnAnyStream(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "a-1", events(1))
        try await h.store.append(to: "b-1", events(3))
        let streams: [StreamID] = ["a-1", "b-1", "c-1"]
        let before = try await StoreSnapshot(h.store, streams: streams)
        let request = AppendRequest(
            entries: [
                .init(stream: "a-1", event: event()), .init(stream: "c-1", event: event()),
                .init(stream: "b-1", event: event()),
            ],
            expectations: [
                .init(stream: "a-1", expected: .exact(0)), .init(stream: "c-1", expected: .noStream),
                .init(stream: "b-1", expected: .exact(1)),
            ])
        await expectError(.wrongExpectedVersion(stream: "b-1", expected: .exact(1), actual: 2)) {
            try await h.store.append(request)
        }
        try h.checkpoint()
        #expect(try await StoreSnapshot(h.store, streams: streams) == before)
        // The failed append's ids are free: nothing of it was committed.
        var fixed = request
        fixed.expectations[2].expected = .exact(2)
        let result = try await h.store.append(fixed)
        #expect(result.wasAlreadyCommitted == false)
        #expect(result.firstPosition == 4)
    }

    static func oneFailingCheckOnlyConditionLeavesNoTrace(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "customer-1", events(2))
        let streams: [StreamID] = ["order-1", "customer-1", "coupon-1"]
        let before = try await StoreSnapshot(h.store, streams: streams)
        let failing: [(AppendRequest.Expectation, EventStoreError)] = [
            (
                .init(stream: "customer-1", expected: .exact(0), checkOnly: true),
                .wrongExpectedVersion(stream: "customer-1", expected: .exact(0), actual: 1)
            ),
            (
                .init(stream: "customer-1", expected: .noStream, checkOnly: true),
                .wrongExpectedVersion(stream: "customer-1", expected: .noStream, actual: 1)
            ),
            (
                .init(stream: "coupon-1", expected: .streamExists, checkOnly: true),
                .wrongExpectedVersion(stream: "coupon-1", expected: .streamExists, actual: nil)
            ),
        ]
        for (condition, error) in failing {
            let request = AppendRequest(
                entries: [.init(stream: "order-1", event: event("OrderPlaced"))],
                expectations: [.init(stream: "order-1", expected: .noStream), condition])
            await expectError(error) { try await h.store.append(request) }
        }
        try h.checkpoint()
        #expect(try await StoreSnapshot(h.store, streams: streams) == before)
    }

    static func checkOnlyStreamNeverGetsEvents(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "customer-1", events(2))
        let request = AppendRequest(
            entries: [.init(stream: "order-1", event: event("OrderPlaced")), .init(stream: "order-1", event: event("OrderPaid"))],
            expectations: [
                .init(stream: "order-1", expected: .noStream),
                .init(stream: "customer-1", expected: .exact(1), checkOnly: true),
                .init(stream: "blocklist-customer-1", expected: .noStream, checkOnly: true),
                .init(stream: "customer-2", expected: .any, checkOnly: true),
            ])
        let result = try await h.store.append(request)
        // Check-only streams are not reported as written.
        #expect(result.streams == [.init(stream: "order-1", version: 1)])
        #expect(result.firstPosition == 2)
        #expect(result.lastPosition == 3)
        try h.checkpoint()
        #expect(try await h.store.streamVersion(of: "customer-1") == 1)
        #expect(try await h.store.streamVersion(of: "blocklist-customer-1") == nil)
        #expect(try await h.store.streamVersion(of: "customer-2") == nil)
        #expect(try await h.store.events(of: "customer-1").count == 2)
        #expect(try await h.store.readAll().count == 4)
    }

    static func streamBothWrittenAndCheckOnlyIsRejected(_ h: any StoreHarness) async throws {
        await expectInvalidRequest {
            try await h.store.append(
                AppendRequest(
                    entries: [.init(stream: "a-1", event: event()), .init(stream: "b-1", event: event())],
                    expectations: [.init(stream: "b-1", expected: .any, checkOnly: true)]))
        }
        #expect(try await h.store.lastPosition() == nil)
    }

    /// The stock-safe checkout: an order is created only if both inventory streams are still at the versions
    /// the checkout decided on. Two checkouts decided on the same versions; the first commits, and a reservation
    /// lands on inventory-a in between, so the second fails and leaves no trace.
    static func stockSafeCheckout(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "inventory-a", [event("StockReceived", "{\"qty\":1}"), event("StockReceived", "{\"qty\":1}")])
        try await h.store.append(to: "inventory-b", [event("StockReceived", "{\"qty\":5}")])
        let a = try #require(try await h.store.streamVersion(of: "inventory-a"))
        let b = try #require(try await h.store.streamVersion(of: "inventory-b"))
        #expect(a == 1)
        #expect(b == 0)

        func checkout(_ order: StreamID) -> AppendRequest {
            AppendRequest(
                entries: [
                    .init(stream: "inventory-a", event: event("StockReserved", "{\"order\":\"\(order)\"}")),
                    .init(stream: "inventory-b", event: event("StockReserved", "{\"order\":\"\(order)\"}")),
                    .init(stream: order, event: event("OrderPlaced")),
                ],
                expectations: [
                    .init(stream: "inventory-a", expected: .exact(a)), .init(stream: "inventory-b", expected: .exact(b)),
                    .init(stream: order, expected: .noStream),
                ])
        }
        let first = try await h.store.append(checkout("order-1"))
        #expect(
            first.streams == [
                .init(stream: "inventory-a", version: 2), .init(stream: "inventory-b", version: 1),
                .init(stream: "order-1", version: 0),
            ])
        // A concurrent reservation on inventory-a.
        try await h.store.append(to: "inventory-a", expected: .exact(2), [event("StockReserved", "{\"order\":\"pos\"}")])
        let streams: [StreamID] = ["inventory-a", "inventory-b", "order-1", "order-2"]
        let before = try await StoreSnapshot(h.store, streams: streams)
        await expectError(.wrongExpectedVersion(stream: "inventory-a", expected: .exact(1), actual: 3)) {
            try await h.store.append(checkout("order-2"))
        }
        try h.checkpoint()
        #expect(try await StoreSnapshot(h.store, streams: streams) == before)
        #expect(try await h.store.streamVersion(of: "order-2") == nil)
        #expect(try await h.store.streamVersion(of: "inventory-b") == 1)
    }

    /// Concurrent checkouts over the same inventory: exactly one of those that read the same versions wins.
    static func concurrentCheckoutsOnlyOneWins(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "inventory-a", [event("StockReceived")])
        try await store.append(to: "inventory-b", [event("StockReceived")])
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<8 {
                group.addTask {
                    let order = try StreamID("order-\(i)")
                    do {
                        _ = try await store.append(
                            AppendRequest(
                                entries: [
                                    .init(stream: "inventory-a", event: event("StockReserved")),
                                    .init(stream: "inventory-b", event: event("StockReserved")),
                                    .init(stream: order, event: event("OrderPlaced")),
                                ],
                                expectations: [
                                    .init(stream: "inventory-a", expected: .exact(0)),
                                    .init(stream: "inventory-b", expected: .exact(0)),
                                    .init(stream: order, expected: .noStream),
                                ]))
                        return true
                    } catch let error as EventStoreError where error.code == .wrongExpectedVersion {
                        let stream = error.conflict?.stream
                        #expect(stream == "inventory-a" || stream == "inventory-b")
                        return false
                    }
                }
            }
            var out: [Bool] = []
            for try await o in group { out.append(o) }
            return out
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await store.streamVersion(of: "inventory-a") == 1)
        #expect(try await store.streamVersion(of: "inventory-b") == 1)
        #expect(try await store.lastPosition() == 4)
        let orders = try await store.readAll(.category("order"))
        #expect(orders.count == 1)
    }
}
