import EventLog
import EventLogMemory
import EventLogTestKit
import Events
import Foundation
@testable import ProjectionRuntime
import Projections
import Testing

@Suite("A head known without reading")
struct KnownHeadTests {
    @Test func aCaughtUpReadModelIsServedWithoutReadingTheLog() async throws {
        let w = try World()
        try await w.shop(orders: 3)
        let built = try await w.engine().load(InventoryProjection.self)
        let store = ReadCountingStore(w.store, knowsItsHead: true)
        let loaded = try await ProjectionEngine(store: store, states: w.states).load(InventoryProjection.self)
        #expect(!loaded.rebuilt && loaded.caughtUp == 0 && loaded.state == built.state)
        #expect(store.reads == 0, "the log was read for a read model caught up to its head")
    }

    /// Another log as long as the checkpoint's, whose last commit was made at another time: the head does not vouch
    /// for the checkpoint, the event there is read, and the state is rebuilt from that log.
    @Test func aHeadOfAnotherLogIsNotTakenForTheCheckpoints() async throws {
        let w = try World()
        try await w.shop(orders: 3)  // positions 0...4
        _ = try await w.engine().load(InventoryProjection.self)
        let other = InMemoryEventStore()
        for _ in 0..<5 {
            let e = StockReceived(productId: "litter", quantity: 10)
            _ = try await other.append(AppendRequest(stream: "inventory-litter", events: [ProposedEvent(type: e.eventType, data: DomainEventCodec.encode(e))]))
        }
        let store = ReadCountingStore(other, knowsItsHead: true)
        let loaded = try await ProjectionEngine(store: store, states: w.states).load(InventoryProjection.self)
        #expect(loaded.rebuilt, "a state folded from another log was served")
        #expect(loaded.state.products["litter"]?.onHand == 50)
    }

    @Test func aReadModelBehindTheHeadCatchesUp() async throws {
        let w = try World()
        try await w.shop(orders: 1)
        _ = try await w.engine().load(InventoryProjection.self)
        try await w.append("inventory-litter", StockReserved(productId: "litter", orderId: "o-9", quantity: 5))
        let loaded = try await ProjectionEngine(store: ReadCountingStore(w.store, knowsItsHead: true), states: w.states).load(InventoryProjection.self)
        #expect(!loaded.rebuilt && loaded.caughtUp == 1 && loaded.state.products["litter"]?.reserved == 6)
    }
}
