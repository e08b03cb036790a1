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

    @Test func theStoredStatesDoNotDependOnTheThreadsAndEverySnapshotIsTheFoldToItsPosition() async throws {
        let w = try World()
        try await Self.business(w)
        let all = try await w.store.readAll()
        var stored: [[String: [UInt8]]] = []
        for threads in [1, 2, 3, 9] {
            let checkpoints = FileCheckpointStore(storePath: w.scratch.path + "/t\(threads)")
            var engine = ProjectionEngine(store: w.store, checkpoints: checkpoints, snapshotInterval: 10)
            engine.foldThreads = threads
            let result = try await engine.rebuild(ProjectionCatalog.projections)
            let last = try await w.store.lastPosition()
            #expect(result.lastPosition == last && result.eventsRead == Int(last!) + 1)
            var states: [String: [UInt8]] = [:]
            for p in ProjectionCatalog.projections {
                let c = try #require(try checkpoints.load(p.name, version: p.schemaVersion), "\(p.name) with \(threads) threads")
                #expect(c.position == last)
                states[p.name] = c.state
                // Where snapshots fall depends on each thread's pages; what each holds must not.
                let snapshots = try checkpoints.snapshotPositions(p.name, version: p.schemaVersion)
                #expect(!snapshots.isEmpty, "\(p.name) with \(threads) threads")
                for position in snapshots {
                    #expect(
                        try checkpoints.loadSnapshot(p.name, version: p.schemaVersion, position: position) == Self.folded(p, all, through: position),
                        "\(p.name) snapshot at \(position) with \(threads) threads")
                }
            }
            stored.append(states)
        }
        for (i, states) in stored.enumerated().dropFirst() { #expect(states == stored[0], "states of run \(i)") }
    }

    /// The encoded state of a projection folded over the events up to a position.
    static func folded(_ p: any Projection.Type, _ events: [RecordedEvent], through position: UInt64) throws -> [UInt8] {
        try folded(p, events.prefix { $0.position <= position })
    }

    static func folded<P: Projection>(_ p: P.Type, _ events: ArraySlice<RecordedEvent>) throws -> [UInt8] {
        try P.folded(
            events.compactMap { e in
                try EventCatalog.domain.decode(type: e.type, data: e.data).map {
                    ProjectedEvent(position: e.position, stream: e.stream, recordedAt: e.recordedAt, metadata: e.metadata, event: $0)
                }
            }
        ).encoded()
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

    /// Over many pages, a slow thread that fails early is still the one reported when a fast thread fails later
    /// first: the fast one must not stop it before it gets there.
    @Test func aSlowThreadsEarlierFailureIsNotCutShortByAFastThreadsLaterOne() async throws {
        let w = try World()
        try await w.shop(orders: 0)
        for chunk in 0..<40 {
            let events = (0..<1_000).map { n in
                ProposedEvent(type: StockReserved.eventType, data: DomainEventCodec.encode(StockReserved(productId: "litter", orderId: "o-\(chunk * 1_000 + n)", quantity: 1)))
            }
            _ = try await w.store.append(AppendRequest(stream: StreamID(unchecked: "inventory-litter"), events: events))
        }
        var engine = w.engine()
        engine.foldThreads = 2
        await #expect(throws: ProjectionFailure(projection: "slow-early", position: 30_002, stream: "inventory-litter", type: "StockReserved", message: "o-30000 fails")) {
            _ = try await engine.rebuild([FastLate.self, SlowEarly.self])
        }
        // On one thread the same failure is reported.
        engine.foldThreads = 1
        await #expect(throws: ProjectionFailure(projection: "slow-early", position: 30_002, stream: "inventory-litter", type: "StockReserved", message: "o-30000 fails")) {
            _ = try await engine.rebuild([FastLate.self, SlowEarly.self])
        }
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

/// What a ``FailsOnReservation`` projection is called, which order's reservation it fails on, and how much work
/// each event costs it.
protocol ReservationFailure {
    static var name: String { get }
    static var orderId: String { get }
    static var work: Int { get }
}

/// Counts reservations and fails on one order's.
enum FailsOnReservation<F: ReservationFailure>: Projection {
    typealias State = CountV1.State
    static var name: String { F.name }
    static var schemaVersion: Int { 1 }
    static var summary: String { "test" }
    static var eventTypes: Set<String> { types(StockReserved.self) }
    static var foldCost: Int { 100 }
    static func apply(_ state: inout State, _ event: ProjectedEvent) throws(ProjectionError) {
        guard let e = event.event as? StockReserved else { return }
        if e.orderId == F.orderId { throw ProjectionError("\(F.orderId) fails") }
        var h = Hasher()
        for i in 0..<F.work { h.combine(i &+ Int(state.events)) }
        state.events += 1 + Int64(h.finalize() & 0)
    }
}

/// Fails on the reservation of order o-18 (position 20).
enum LateFailure: ReservationFailure {
    static let name = "late", orderId = "o-18", work = 0
}

typealias Late = FailsOnReservation<LateFailure>

/// Fails on order o-30000's reservation (position 30,002), slowly: each event costs some work.
enum SlowEarlyFailure: ReservationFailure {
    static let name = "slow-early", orderId = "o-30000", work = 200
}

typealias SlowEarly = FailsOnReservation<SlowEarlyFailure>

/// Fails at once on order o-35000's reservation (position 35,002).
enum FastLateFailure: ReservationFailure {
    static let name = "fast-late", orderId = "o-35000", work = 0
}

typealias FastLate = FailsOnReservation<FastLateFailure>
