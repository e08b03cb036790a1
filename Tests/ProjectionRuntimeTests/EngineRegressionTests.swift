import EventLog
import EventLogMemory
import Events
import Foundation
@testable import ProjectionRuntime
import Projections
import Testing

/// Edge cases of the runtime: short catch-ups, checkpoints the log does not back, raw events, older builds.
@Suite("Engine regressions")
struct EngineRegressionTests {
    /// Catch-ups shorter than the snapshot spacing still take snapshots once enough of them have passed.
    @Test func incrementalCatchUpsStillTakeSnapshots() async throws {
        let w = try World()
        try await w.shop(orders: 2)
        let engine = w.engine(snapshotInterval: 10)
        _ = try await engine.rebuild([InventoryProjection.self])
        for n in 0..<50 {
            try await w.append("inventory-litter", StockReserved(productId: "litter", orderId: "x-\(n)", quantity: 1))
            _ = try await engine.load(InventoryProjection.self)
        }
        // Kept versions of the whole state are its snapshots: one at least every 10 positions or so.
        let stored = try #require(try w.states.open("inventory", version: InventoryProjection.schemaVersion))
        var kept: Set<UInt64> = []
        for n in stride(from: UInt64(0), through: 56, by: 1) {
            if let v = try stored.version(of: wholeStateKey, asOf: n), v.keep { kept.insert(v.position) }
        }
        #expect(kept.count >= 4, "snapshots after 50 single-event catch-ups with interval 10: \(kept.sorted())")
    }

    /// A checkpoint of positions the log does not have (a restored or replaced log) is rebuilt, not served.
    @Test func aCheckpointNewerThanTheLogIsRebuilt() async throws {
        let w = try World()
        try await w.shop(orders: 5)  // positions 0...6
        _ = try await w.engine().load(InventoryProjection.self)
        // Same checkpoints, a shorter log (e.g. restored from an older backup beside the projections directory).
        let other = InMemoryEventStore()
        let engine = ProjectionEngine(store: other, states: w.states)
        func append(_ s: String, _ e: any DomainEvent) async throws {
            _ = try await other.append(AppendRequest(stream: StreamID(unchecked: s), events: [ProposedEvent(type: e.eventType, data: DomainEventCodec.encode(e))]))
        }
        try await append("product-litter", ProductListed(productId: "litter", name: "Litter", price: Money(62_000, "BDT"), category: "cat", tags: [], imageRef: "img"))
        try await append("inventory-litter", StockReceived(productId: "litter", quantity: 10))
        let loaded = try await engine.load(InventoryProjection.self)
        #expect(loaded.position == 1, "position \(String(describing: loaded.position)) on a log that ends at 1")
        #expect(loaded.state.products["litter"]?.reserved == 0, "reserved \(String(describing: loaded.state.products["litter"]?.reserved))")
    }

    /// A checkpoint whose position holds another event in this log (a promoted replica that lost the last commits
    /// and took new ones, as long as the old log) is rebuilt, not served: the checkpoint recorded the event id there.
    @Test func aCheckpointOfADivergedLogIsRebuilt() async throws {
        let w = try World()
        try await w.shop(orders: 5)  // positions 0...6
        let first = try await w.engine().load(InventoryProjection.self)
        let stored = try #require(try w.states.open("inventory", version: InventoryProjection.schemaVersion))
        let recorded = try #require(stored.checkpoint.eventID)
        #expect(try await w.store.read(ReadRequest(source: .all, from: 6, limit: 1)).events.first?.id == recorded)
        #expect(first.state.products["litter"]?.reserved ?? 0 > 0)
        // Another log of the same length up to the checkpoint's position, with other events.
        let other = InMemoryEventStore()
        func append(_ s: String, _ e: any DomainEvent) async throws {
            _ = try await other.append(AppendRequest(stream: StreamID(unchecked: s), events: [ProposedEvent(type: e.eventType, data: DomainEventCodec.encode(e))]))
        }
        try await append("product-litter", ProductListed(productId: "litter", name: "Litter", price: Money(62_000, "BDT"), category: "cat", tags: [], imageRef: "img"))
        for _ in 0..<6 { try await append("inventory-litter", StockReceived(productId: "litter", quantity: 10)) }
        let loaded = try await ProjectionEngine(store: other, states: w.states).load(InventoryProjection.self)
        #expect(loaded.rebuilt, "a state folded from another log was served")
        #expect(loaded.state.products["litter"]?.reserved == 0 && loaded.state.products["litter"]?.onHand == 60)
    }

    /// Event ids derived from command ids are the same in every log the same commands went into: a log holding the
    /// checkpoint's event at its position, with the same id but committed at another time (the commands landed in
    /// another order before it), is another log, and the state is rebuilt.
    @Test func aCheckpointWhoseEventIdRecursInAnotherLogIsRebuilt() async throws {
        let listed = ProductListed(productId: "litter", name: "Litter", price: Money(62_000, "BDT"), category: "cat", tags: [], imageRef: "img")
        let ids = (0..<4).map { _ in UUID() }
        func log(_ quantities: [Int64]) async throws -> InMemoryEventStore {
            let store = InMemoryEventStore()
            _ = try await store.append(AppendRequest(stream: "product-litter", events: [ProposedEvent(id: ids[0], type: listed.eventType, data: DomainEventCodec.encode(listed))]))
            for (i, q) in quantities.enumerated() {
                let e = StockReceived(productId: "litter", quantity: q)
                _ = try await store.append(AppendRequest(stream: "inventory-litter", events: [ProposedEvent(id: ids[i + 1], type: e.eventType, data: DomainEventCodec.encode(e))]))
            }
            return store
        }
        let states = InMemoryProjectionStateStore()
        let first = try await ProjectionEngine(store: try await log([10, 20, 30]), states: states).load(InventoryProjection.self)
        #expect(first.state.products["litter"]?.onHand == 60)
        // The same ids at the same positions, other events before the last (as a race decided otherwise).
        let other = try await log([1, 2, 30])
        #expect(try await other.event(at: 3)?.id == ids[3])
        let loaded = try await ProjectionEngine(store: other, states: states).load(InventoryProjection.self)
        #expect(loaded.rebuilt, "a state folded from another log was served")
        #expect(loaded.state.products["litter"]?.onHand == 33)
    }

    /// A JSON-encoded event of a type the projection reads (as `pawtrail log append` writes) stops the fold.
    @Test func aRawEventOfAReadTypeStopsTheFold() async throws {
        let w = try World()
        try await w.shop(orders: 1)
        _ = try await w.store.append(
            AppendRequest(
                stream: StreamID(unchecked: "inventory-litter"),
                events: [ProposedEvent(type: "StockReserved", data: Array(#"{"productId":"litter","orderId":"o-raw","quantity":5}"#.utf8))]))
        await #expect(throws: ProjectionFailure.self) {
            _ = try await w.engine().load(InventoryProjection.self)
        }
    }

    /// A rebuild by an older build leaves the newer schema version's checkpoint alone.
    @Test func anOlderBuildsRebuildKeepsTheNewerVersion() async throws {
        let w = try World()
        try await w.shop(orders: 1)
        _ = try await w.engine().load(CountV2.self)
        _ = try await w.engine().rebuild([CountV1.self])
        let versions = try w.states.versions(of: "count")
        #expect(versions.contains(2), "versions: \(versions)")
    }
}
