import EventLog
import Events
import Foundation
@testable import ProjectionRuntime
import Projections
import Testing

/// A rebuild spreads its projections over threads, each reading the log for its own; what it stores must not
/// depend on how many threads there were.
@Suite("Rebuilding on several threads")
struct ParallelRebuildTests {
    /// A small business touching every projection: accounts, carts, favourites, stock and orders.
    static func business(_ w: World) async throws {
        try await w.shop(orders: 25)
        for n in 0..<12 {
            let user = "u-\(n % 4)"
            if n < 4 { try await w.append("account-\(user)", AccountSignedUp(userId: user, name: "User \(n)", email: "\(user)@x.test", language: .enUS)) }
            try await w.append("session-\(user)", LoggedIn(userId: user, sessionId: "s-\(n)"))
            try await w.append("cart-\(user)", CartItemAdded(ownerId: user, productId: "litter", quantity: Int64(n % 3 + 1)))
            try await w.append("favourites-\(user)", FavouriteAdded(ownerId: user, productId: "litter"))
            if n % 2 == 0 {
                try await w.append("order-o-\(n)", ScopedTimeTravelTests.placed("o-\(n)", user))
                try await w.append("order-o-\(n)", OrderConfirmed(orderId: "o-\(n)", confirmedBy: "u-sam"))
            }
        }
    }

    @Test func theStoredStatesAndSnapshotsDoNotDependOnTheThreads() async throws {
        let w = try World()
        try await Self.business(w)
        var stored: [[String: [UInt8]]] = []
        var snapshots: [[String: [UInt64]]] = []
        for threads in [1, 2, 3, 9] {
            let checkpoints = FileCheckpointStore(storePath: w.scratch.path + "/t\(threads)")
            var engine = ProjectionEngine(store: w.store, checkpoints: checkpoints, snapshotInterval: 10)
            engine.foldThreads = threads
            let result = try await engine.rebuild(ProjectionCatalog.projections)
            let last = try await w.store.lastPosition()
            #expect(result.lastPosition == last && result.eventsRead == Int(last!) + 1)
            var states: [String: [UInt8]] = [:]
            var snaps: [String: [UInt64]] = [:]
            for p in ProjectionCatalog.projections {
                let c = try #require(try checkpoints.load(p.name, version: p.schemaVersion), "\(p.name) with \(threads) threads")
                #expect(c.position == last)
                states[p.name] = c.state
                snaps[p.name] = try checkpoints.snapshotPositions(p.name, version: p.schemaVersion)
            }
            stored.append(states)
            snapshots.append(snaps)
        }
        for (i, states) in stored.enumerated().dropFirst() {
            #expect(states == stored[0], "states of run \(i)")
            #expect(snapshots[i] == snapshots[0], "snapshots of run \(i)")
        }
        #expect(!snapshots[0]["inventory"]!.isEmpty)
    }

    @Test func theEarliestFailureIsReportedWhicheverThreadMetIt() async throws {
        let w = try World()
        try await w.shop(orders: 30)
        // Picky fails at position 3, Late at position 20; on two threads both fail, each on its own.
        var engine = w.engine()
        engine.foldThreads = 2
        #expect(ProjectionEngine.lanes([Folder(Late.self), Folder(Picky.self)], count: 2).count == 2)
        await #expect(throws: ProjectionFailure(projection: "picky", position: 3, stream: "inventory-litter", type: "StockReserved", message: "order o-1 is odd")) {
            _ = try await engine.rebuild([Late.self, Picky.self])
        }
        #expect(try w.checkpoints.load("picky", version: 1) == nil && w.checkpoints.load("late", version: 1) == nil)
    }

    @Test func projectionsAreSpreadHeaviestFirstOntoTheLightestThread() {
        let folders: [AnyFolder] = [
            Folder(InventoryProjection.self), Folder(ActivityProjection.self), Folder(CartProjection.self), Folder(OrdersProjection.self),
            Folder(CatalogProjection.self),
        ]
        let lanes = ProjectionEngine.lanes(folders, count: 2)
        #expect(lanes.map { $0.folders.map(\.name) } == [["activity"], ["inventory", "cart", "orders", "catalog"]])
        #expect(ProjectionEngine.lanes(folders, count: 1).map { $0.folders.map(\.name) } == [folders.map(\.name)])
        #expect(ProjectionEngine.lanes(folders, count: 8).count == 5, "never more threads than projections")
        #expect(ProjectionEngine.lanes([], count: 2).isEmpty)
    }
}

/// Fails on the reservation of order o-18 (position 20).
enum Late: Projection {
    typealias State = CountV1.State
    static let name = "late"
    static let schemaVersion = 1
    static let summary = "test"
    static let eventTypes = types(StockReserved.self)
    static func apply(_ state: inout State, _ event: ProjectedEvent) throws(ProjectionError) {
        if let e = event.event as? StockReserved, e.orderId == "o-18" { throw ProjectionError("order o-18 is late") }
        state.events += 1
    }
}
