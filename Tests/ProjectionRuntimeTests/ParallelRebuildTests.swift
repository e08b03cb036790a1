import EventLog
import Events
import EventLogMemory
import Foundation
@testable import ProjectionRuntime
import ProjectionStateFile
import Projections
import Testing

/// A rebuild spreads its projections over threads, each reading the log for its own; what it stores must not
/// depend on how many threads there were.
@Suite("Rebuilding on several threads")
struct ParallelRebuildTests {
    /// A small business touching every projection: accounts, carts, favourites, stock and orders.
    static func business(_ w: World, prefix: String = "") async throws {
        try await w.shop(orders: 25)
        for n in 0..<12 {
            let user = "u-\(n % 4)"
            let order = "\(prefix)o-\(n)"
            if n < 4 && prefix.isEmpty { try await w.append("account-\(user)", AccountSignedUp(userId: user, name: "User \(n)", email: "\(user)@x.test", language: .enUS)) }
            try await w.append("session-\(user)", LoggedIn(userId: user, sessionId: "s-\(n)"))
            try await w.append("cart-\(user)", CartItemAdded(ownerId: user, productId: "litter", quantity: Int64(n % 3 + 1)))
            if n % 3 == 0 { try await w.append("cart-\(user)", CartItemRemoved(ownerId: user, productId: "litter")) }
            try await w.append("favourites-\(user)", n % 5 == 4 ? FavouriteRemoved(ownerId: user, productId: "litter") : FavouriteAdded(ownerId: user, productId: "litter"))
            let conversation = "\(prefix)c-\(user)"
            if n < 4 {
                try await w.append("pet-\(prefix)p-\(user)", PetAdded(petId: "\(prefix)p-\(user)", ownerId: user, name: "Pet \(n)", species: .cat))
                try await w.append("conversation-\(conversation)", ConversationStarted(conversationId: conversation, subject: .order, subjectId: "o-0", ownerId: user, startedBy: user))
            }
            try await w.append("conversation-\(conversation)", MessageSent(conversationId: conversation, messageId: "m-\(n)", senderId: user, text: "note \(n)"))
            if n % 3 == 1 {
                try await w.append("conversation-\(conversation)", MessageRead(conversationId: conversation, messageId: "m-\(n)", participantId: "u-sam"))
            }
            if n % 3 == 0 {
                let slot = Timestamp(iso8601: "2026-12-0\(1 + n % 4)T10:00:00Z")!
                try await w.append("booking-\(prefix)b-\(n)", BookingRequested(bookingId: "\(prefix)b-\(n)", petId: "\(prefix)p-\(user)", ownerId: user, service: .bath, slot: slot))
                if n % 2 == 0 {
                    let later = Timestamp(iso8601: "2026-12-0\(2 + n % 4)T11:30:00Z")!
                    try await w.append("booking-\(prefix)b-\(n)", BookingRescheduled(bookingId: "\(prefix)b-\(n)", previousSlot: slot, slot: later, rescheduledBy: user))
                } else {
                    try await w.append("booking-\(prefix)b-\(n)", BookingCancelled(bookingId: "\(prefix)b-\(n)", cancelledBy: user, reason: nil))
                }
            }
            if n % 4 == 1 {
                let line = PurchaseLine(
                    productId: "litter", name: "Litter", category: "cat", imageRef: "img", unitPrice: Money(62_000, "BDT"), quantity: 1,
                    lineTotal: Money(62_000, "BDT"))
                try await w.append(
                    "sale-\(prefix)s-\(n)",
                    InStoreSaleCompleted(saleId: "\(prefix)s-\(n)", soldBy: "u-sam", lines: [line], total: Money(62_000, "BDT"), payment: .cash, customerId: n % 8 == 1 ? user : nil))
            }
            if n % 2 == 0 {
                try await w.append("order-\(order)", ScopedTimeTravelTests.placed(order, user))
                try await w.append("order-\(order)", OrderConfirmed(orderId: order, confirmedBy: "u-sam"))
                if n % 4 == 0 { try await w.append("order-\(order)", OrderCancelled(orderId: order, cancelledBy: user, reason: nil)) }
            }
        }
    }

    @Test func theStoredStatesDoNotDependOnTheThreadsAndEveryPastStateIsTheFoldToItsPosition() async throws {
        let w = try World()
        try await Self.business(w)
        let all = try await w.store.readAll()
        var stored: [[String: [UInt8]]] = []
        for threads in [1, 2, 3, 9] {
            var engine = ProjectionEngine(store: w.store, states: FileProjectionStateStore(storePath: w.scratch.path + "/t\(threads)"), snapshotInterval: 10)
            engine.foldThreads = threads
            let result = try await engine.rebuild(ProjectionCatalog.projections)
            let last = try await w.store.lastPosition()
            #expect(result.lastPosition == last && result.eventsRead == Int(last!) + 1)
            var states: [String: [UInt8]] = [:]
            for p in ProjectionCatalog.projections {
                let (position, bytes) = try await p.storedEncoding(engine)
                #expect(position == last, "\(p.name) with \(threads) threads")
                states[p.name] = bytes
                // Where snapshots fall depends on each thread's pages; what time travel reads must not.
                for n in stride(from: 0, through: last!, by: 7) {
                    let past = try await p.pastRows(engine, n)
                    #expect(past == (try p.foldedRows(all, through: n)), "\(p.name) as of \(n) with \(threads) threads")
                }
            }
            stored.append(states)
        }
        for (i, states) in stored.enumerated().dropFirst() { #expect(states == stored[0], "states of run \(i)") }
    }

    @Test func theEarliestFailureIsReportedWhicheverThreadMetIt() async throws {
        let w = try World()
        try await w.shop(orders: 30)
        // Picky fails at position 3, Late at position 20; on two threads both fail, each on its own.
        var engine = w.engine()
        engine.foldThreads = 2
        #expect(ProjectionEngine.lanes([engine.folder(Late.self), engine.folder(Picky.self)], count: 2).count == 2)
        await #expect(throws: ProjectionFailure(projection: "picky", position: 3, stream: "inventory-litter", type: "StockReserved", message: "order o-1 is odd")) {
            _ = try await engine.rebuild([Late.self, Picky.self])
        }
        #expect(try w.states.open("picky", version: 1) == nil && w.states.open("late", version: 1) == nil)
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
        let engine = ProjectionEngine(store: InMemoryEventStore(), states: InMemoryProjectionStateStore())
        let folders: [AnyFolder] = [
            engine.folder(InventoryProjection.self), engine.folder(ActivityProjection.self), engine.folder(CartProjection.self),
            engine.folder(OrdersProjection.self), engine.folder(CatalogProjection.self),
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

extension Projection {
    /// The stored state's position and field encoding, as stored.
    static func storedEncoding(_ engine: ProjectionEngine) async throws -> (UInt64?, [UInt8]) {
        let loaded = try await engine.load(Self.self, catchUp: false)
        return (loaded.position, loaded.state.encoded())
    }

    /// The fold of the events up to a position.
    static func folded(_ events: [RecordedEvent], through position: UInt64) throws -> State {
        try folded(
            events.prefix { $0.position <= position }.compactMap { e in try projected(e) })
    }

    /// What time travel to a position reads: a keyed state's rows of exact history, a whole state's encoding.
    static func pastRows(_ engine: ProjectionEngine, _ position: UInt64) async throws -> [RowKey: [UInt8]] {
        var state = try await engine.state(Self.self, atPosition: position)
        return rows(&state)
    }

    /// The same of the fold up to a position.
    static func foldedRows(_ events: [RecordedEvent], through position: UInt64) throws -> [RowKey: [UInt8]] {
        var state = try folded(events, through: position)
        return rows(&state)
    }

    static func rows(_ state: inout State) -> [RowKey: [UInt8]] {
        if var keyed = state as? any KeyedProjectionState { return keyed.exactRows() }
        return [RowKey(bytes: [0]): state.encoded()]
    }
}
