import EventLog
import EventLogMemory
import Events
import Foundation
@testable import ProjectionRuntime
import Projections
import Synchronization
import Testing

/// A store that tells its head without reading, as a file store opened to read only when needed does, and counts the
/// reads it is asked for.
final class HeadKnowingStore: EventStore {
    let base: InMemoryEventStore
    let reads = Mutex(0)

    init(_ base: InMemoryEventStore) { self.base = base }

    func knownHead() async throws -> LogHead? {
        guard let last = try await base.lastPosition(), let e = try await base.read(ReadRequest(source: .all, from: last, limit: 1)).events.first else {
            return nil
        }
        return LogHead(position: last, recordedAt: e.recordedAt)
    }

    func append(_ request: AppendRequest) async throws -> AppendResult { try await base.append(request) }
    func read(_ request: ReadRequest) async throws -> ReadBatch {
        reads.withLock { $0 += 1 }
        return try await base.read(request)
    }
    func streamVersion(of stream: StreamID) async throws -> UInt64? { try await base.streamVersion(of: stream) }
    func lastPosition() async throws -> UInt64? { try await base.lastPosition() }
    func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? { try await base.lastPosition(atOrBefore: time) }
    func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        try await base.waitForAppends(after: position, timeout: timeout)
    }
}

@Suite("A head known without reading")
struct KnownHeadTests {
    @Test func aCaughtUpReadModelIsServedWithoutReadingTheLog() async throws {
        let w = try World()
        try await w.shop(orders: 3)
        let built = try await w.engine().load(InventoryProjection.self)
        let store = HeadKnowingStore(w.store)
        let loaded = try await ProjectionEngine(store: store, states: w.states).load(InventoryProjection.self)
        #expect(!loaded.rebuilt && loaded.caughtUp == 0 && loaded.state == built.state)
        #expect(store.reads.withLock { $0 } == 0, "the log was read for a read model caught up to its head")
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
        let store = HeadKnowingStore(other)
        let loaded = try await ProjectionEngine(store: store, states: w.states).load(InventoryProjection.self)
        #expect(loaded.rebuilt, "a state folded from another log was served")
        #expect(loaded.state.products["litter"]?.onHand == 50)
    }

    @Test func aReadModelBehindTheHeadCatchesUp() async throws {
        let w = try World()
        try await w.shop(orders: 1)
        _ = try await w.engine().load(InventoryProjection.self)
        try await w.append("inventory-litter", StockReserved(productId: "litter", orderId: "o-9", quantity: 5))
        let loaded = try await ProjectionEngine(store: HeadKnowingStore(w.store), states: w.states).load(InventoryProjection.self)
        #expect(!loaded.rebuilt && loaded.caughtUp == 1 && loaded.state.products["litter"]?.reserved == 6)
    }
}
