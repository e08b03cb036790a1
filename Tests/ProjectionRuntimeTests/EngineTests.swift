import EventLog
import EventLogMemory
import Events
import Foundation
import PawtrailJSON
@testable import ProjectionRuntime
import ProjectionStateFile
import Projections
import Testing

/// A fresh directory for one test's stored states.
final class Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pawtrail-proj-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A store with a small shop's events, and an engine over it.
struct World {
    let store = InMemoryEventStore()
    let scratch: Scratch
    var states: FileProjectionStateStore { FileProjectionStateStore(storePath: scratch.path) }

    init() throws {
        scratch = try Scratch()
    }

    func engine(snapshotInterval: UInt64 = 50_000) -> ProjectionEngine {
        ProjectionEngine(store: store, states: states, snapshotInterval: snapshotInterval)
    }

    func append(_ stream: String, _ events: any DomainEvent...) async throws {
        _ = try await store.append(
            AppendRequest(
                stream: StreamID(unchecked: stream),
                events: events.map { ProposedEvent(type: $0.eventType, data: DomainEventCodec.encode($0)) }))
    }

    /// Lists a product and receives stock, then `orders` reservations of one unit each.
    func shop(orders: Int) async throws {
        try await append(
            "product-litter",
            ProductListed(productId: "litter", name: "Litter", price: Money(62_000, "BDT"), category: "cat", tags: [], imageRef: "img"))
        try await append("inventory-litter", StockReceived(productId: "litter", quantity: 1_000))
        for n in 0..<orders {
            try await append("inventory-litter", StockReserved(productId: "litter", orderId: "o-\(n)", quantity: 1))
        }
    }
}

@Suite("Projection engine")
struct EngineTests {
    @Test func theFirstReadBuildsAndLaterReadsCatchUp() async throws {
        let w = try World()
        try await w.shop(orders: 3)
        let first = try await w.engine().load(InventoryProjection.self)
        #expect(first.rebuilt && first.position == 4)
        #expect(first.state.products["litter"]?.reserved == 3)
        try await w.shop(orders: 0)  // lists again and receives 1000 more
        try await w.append("inventory-litter", StockReserved(productId: "litter", orderId: "o-9", quantity: 5))
        let second = try await w.engine().load(InventoryProjection.self)
        #expect(!second.rebuilt && second.caughtUp == 3 && second.position == 7)
        #expect(second.state.products["litter"] == InventoryProjection.Row(name: "Litter", category: "cat", onHand: 2_000, reserved: 8))
        // A new engine (another process) finds the stored state and has nothing to catch up.
        let third = try await w.engine().load(InventoryProjection.self)
        #expect(third.caughtUp == 0 && third.state == second.state)
        let stored = try await w.engine().load(InventoryProjection.self, catchUp: false)
        #expect(stored.position == 7)
    }

    @Test func noCatchUpServesTheStoredStateAsItIs() async throws {
        let w = try World()
        try await w.shop(orders: 1)
        _ = try await w.engine().load(InventoryProjection.self)
        try await w.append("inventory-litter", StockReserved(productId: "litter", orderId: "o-9", quantity: 5))
        let stale = try await w.engine().load(InventoryProjection.self, catchUp: false)
        #expect(stale.position == 2 && stale.state.products["litter"]?.reserved == 1)
    }

    @Test func aStateAtAPositionEqualsTheFoldOfTheEventsUpToIt() async throws {
        let w = try World()
        try await w.shop(orders: 40)
        let engine = w.engine(snapshotInterval: 7)
        _ = try await engine.rebuild([InventoryProjection.self])
        #expect(try #require(try w.states.open("inventory", version: InventoryProjection.schemaVersion)).newestKept(wholeStateKey) != nil, "a snapshot was kept")
        let all = try await w.store.readAll()
        for n in [0, 1, 2, 6, 7, 8, 13, 14, 20, 41, 100] as [UInt64] {
            let expected = try InventoryProjection.folded(
                all.prefix { $0.position <= n }.map {
                    ProjectedEvent(position: $0.position, stream: $0.stream, recordedAt: $0.recordedAt, event: try EventCatalog.domain.decode(type: $0.type, data: $0.data)!)
                })
            #expect(try await engine.state(InventoryProjection.self, atPosition: n) == expected, "position \(n)")
        }
    }

    @Test func theAuditPassesOnAFaithfulStateAndNamesEachPlantedDifference() async throws {
        let w = try World()
        try await w.shop(orders: 2)
        let engine = w.engine()
        _ = try await engine.rebuild([InventoryProjection.self])
        let clean = try await engine.audit(InventoryProjection.self)
        #expect(clean.differences.isEmpty && clean.keysCompared == 6)
        // Plant a wrong number in the stored state, as a bug in an older build might have.
        let checkpoint = try #require(try w.states.open("inventory", version: InventoryProjection.schemaVersion)).checkpoint
        var state = InventoryProjection.State()
        state.products["litter"] = InventoryProjection.Row(name: "Litter", category: "cat", onHand: 1_000, reserved: 7)
        state.products["ghost"] = InventoryProjection.Row(name: "Ghost")
        let lock = try #require(try w.states.tryLock("inventory"))
        let writer = try w.states.writer("inventory", version: InventoryProjection.schemaVersion, replacing: false)
        try writer.add([RowVersion(key: wholeStateKey, position: try #require(checkpoint.position), value: state.encoded(), keep: false)])
        try writer.finish(checkpoint)
        lock.unlock()
        let audit = try await engine.audit(InventoryProjection.self)
        #expect(audit.differences.map(\.key) == [
            "products[ghost].category", "products[ghost].listed", "products[ghost].name", "products[ghost].onHand",
            "products[ghost].reserved", "products[ghost].sold", "products[litter].reserved",
        ])
        #expect(audit.differences.last == ProjectionEngine.Difference(key: "products[litter].reserved", live: "7", rebuilt: "2"))
    }

    @Test func aProjectionThatFailsStopsAndNamesTheEvent() async throws {
        let w = try World()
        try await w.shop(orders: 2)
        await #expect(throws: ProjectionFailure(projection: "picky", position: 3, stream: "inventory-litter", type: "StockReserved", message: "order o-1 is odd")) {
            try await w.engine().load(Picky.self)
        }
        #expect(try w.states.open("picky", version: 1) == nil, "nothing half-built is stored")
    }

    @Test func aSchemaBumpRebuildsAndTheOldStateServesUntilTheNewOneIsReady() async throws {
        let w = try World()
        try await w.shop(orders: 2)
        _ = try await w.engine().load(CountV1.self)
        #expect(try w.states.versions(of: "count") == [1])
        // Another process holds the lock (rebuilding): a v2 read folds in memory and leaves v1 in place.
        let held = try #require(try w.states.tryLock("count"))
        let meanwhile = try await w.engine().load(CountV2.self)
        #expect(meanwhile.state.events == 8, "v2 counts twice")
        #expect(try w.states.versions(of: "count") == [1])
        #expect(try await w.engine().load(CountV1.self, catchUp: false).state.events == 4)
        held.unlock()
        // Now v2 is built, stored, and v1 goes.
        let rebuilt = try await w.engine().load(CountV2.self)
        #expect(rebuilt.rebuilt && rebuilt.state.events == 8)
        #expect(try w.states.versions(of: "count") == [2])
    }

    @Test func statusReportsPositionLagAndStaleVersions() async throws {
        let w = try World()
        try await w.shop(orders: 2)
        _ = try await w.engine().load(CountV1.self)
        try await w.append("inventory-litter", StockReserved(productId: "litter", orderId: "o-8", quantity: 1))
        let status = try await w.engine().status([CountV2.self, InventoryProjection.self])
        #expect(status.map(\.name) == ["count", "inventory"])
        #expect(status[0].built == false && status[0].staleVersions == [1] && status[0].lag == 5)
        #expect(status[1].built == false && status[1].lag == 5)
        _ = try await w.engine().load(InventoryProjection.self)
        let after = try await w.engine().status([InventoryProjection.self])
        #expect(after[0].built && after[0].position == 4 && after[0].lag == 0 && after[0].eventsApplied == 5)
    }
}

/// Fails on the second reservation.
enum Picky: Projection {
    typealias State = CountV1.State
    static let name = "picky"
    static let schemaVersion = 1
    static let summary = "test"
    static let eventTypes = types(StockReserved.self)
    static func apply(_ state: inout State, _ event: ProjectedEvent) throws(ProjectionError) {
        if let e = event.event as? StockReserved, e.orderId == "o-1" { throw ProjectionError("order o-1 is odd") }
        state.events += 1
    }
}

/// Counts events; v2 counts each twice (a changed fold).
enum CountV1: Projection {
    struct State: ProjectionState {
        var events: Int64 = 0
        init() {}
        init(reading r: inout some FieldReader) throws(FieldError) { events = try r.int("events") }
        func write(to w: inout some FieldWriter) { w.int("events", events) }
    }
    static let name = "count"
    static let schemaVersion = 1
    static let summary = "test"
    static let eventTypes = types(ProductListed.self, StockReceived.self, StockReserved.self)
    static func apply(_ state: inout State, _ event: ProjectedEvent) throws(ProjectionError) { state.events += 1 }
}

enum CountV2: Projection {
    typealias State = CountV1.State
    static let name = "count"
    static let schemaVersion = 2
    static let summary = "test"
    static let eventTypes = CountV1.eventTypes
    static func apply(_ state: inout State, _ event: ProjectedEvent) throws(ProjectionError) { state.events += 2 }
}

extension InMemoryEventStore {
    func readAll() async throws -> [RecordedEvent] {
        var out: [RecordedEvent] = []
        try await forEachPage(.all) { page in
            out += page
            return true
        }
        return out
    }
}

@Suite("Time travel by streams")
struct ScopedTimeTravelTests {
    static func placed(_ id: String, _ customer: String) -> OrderPlaced {
        let line = PurchaseLine(
            productId: "litter", name: "Litter", category: "cat", imageRef: "img", unitPrice: Money(62_000, "BDT"), quantity: 2,
            lineTotal: Money(124_000, "BDT"))
        return OrderPlaced(
            orderId: id, customerId: customer, lines: [line], subtotal: Money(124_000, "BDT"), total: Money(124_000, "BDT"),
            deliveryAddress: "Road 1", deliverySlot: Timestamp(iso8601: "2026-12-05T10:00:00Z")!, recipientName: "Ann",
            recipientPhone: "+880 1711 100037", payment: .cash)
    }

    @Test func anEntitysViewAsOfEachPositionEqualsTheViewOfTheFoldUpToIt() async throws {
        let w = try World()
        try await w.shop(orders: 3)
        try await w.append("order-o-1", Self.placed("o-1", "u-ann"))
        try await w.append("order-o-2", Self.placed("o-2", "u-ann"))
        try await w.append("order-o-1", OrderConfirmed(orderId: "o-1", confirmedBy: "u-sam"))
        let engine = w.engine(snapshotInterval: 3)
        // Stored in two commits: a rebuild, then a catch-up.
        _ = try await engine.load(OrdersProjection.self)
        try await w.shop(orders: 2)
        try await w.append("order-o-1", OrderShipped(orderId: "o-1", shippedBy: "u-sam"))
        try await w.append("order-o-2", OrderCancelled(orderId: "o-2", cancelledBy: "u-ann", reason: "twice"))
        let all = try await w.store.readAll()
        let last = try #require(try await w.store.lastPosition())
        for n in 0...last {
            let past = try await engine.state(OrdersProjection.self, atPosition: n)
            // The fold of the events with their values in the clear: what the views show once they open the tokens.
            let folded = try OrdersProjection.folded(try all.prefix { $0.position <= n }.map(projected))
            let resolver = PersonalValueResolver(store: w.store)
            for args in [["customer": "u-ann"], ["customer": "u-bob"]] {
                let a = try await resolved(resolver) { () throws(ViewError) in try CustomerOrdersView.render(past, ViewArguments(args)).json }
                let b = Result { try CustomerOrdersView.render(folded, ViewArguments(args)).json }
                #expect(String(describing: a) == String(describing: b), "\(args) at position \(n)")
            }
            for id in ["o-1", "o-2"] {
                let args = ViewArguments(["id": id])
                let a = try await resolved(resolver) { () throws(ViewError) in try OrderDetailView.render(past, args).json }
                let b = Result { try OrderDetailView.render(folded, args).json }
                #expect(String(describing: a) == String(describing: b), "order \(id) at position \(n)")
            }
        }
    }
}

@Suite("A conversation's thread, row by row")
struct ThreadTimeTravelTests {
    @Test func aThreadAsOfEachPositionEqualsTheThreadOfTheFoldUpToIt() async throws {
        let w = try World()
        try await w.append("roles", AdminBootstrapped(userId: "u-ada"))
        try await w.append("roles", RoleGranted(userId: "u-sam", role: .staff, grantedBy: "u-ada"))
        try await w.append("conversation-c-1", ConversationStarted(conversationId: "c-1", subject: .order, subjectId: "o-1", ownerId: "u-ann", startedBy: "u-ann"))
        try await w.append("conversation-c-2", ConversationStarted(conversationId: "c-2", subject: .booking, subjectId: "b-1", ownerId: "u-bob", startedBy: "u-bob"))
        for n in 0..<4 {
            try await w.append("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-\(n)", senderId: n % 2 == 0 ? "u-ann" : "u-sam", text: "message \(n)"))
            try await w.append("conversation-c-2", MessageSent(conversationId: "c-2", messageId: "m-\(n)", senderId: "u-bob", text: "bob \(n)"))
        }
        let engine = w.engine(snapshotInterval: 3)
        // Stored in two commits: a rebuild, then a catch-up with receipts and more messages.
        _ = try await engine.load(ConversationsProjection.self)
        try await w.append("conversation-c-1", MessageDelivered(conversationId: "c-1", messageId: "m-0", participantId: "u-sam"))
        try await w.append("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-0", participantId: "u-sam"))
        try await w.append("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-1", participantId: "u-ann"))
        try await w.append("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-2", participantId: "u-ann"))  // her own: no receipt
        try await w.append("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-9", senderId: "u-sam", text: "last"))
        _ = try await engine.load(ConversationsProjection.self)
        let all = try await w.store.readAll()
        let last = try #require(try await w.store.lastPosition())
        for n in 0...last {
            let past = try await engine.state(ConversationsProjection.self, atPosition: n)
            let folded = try ConversationsProjection.folded(try all.prefix { $0.position <= n }.map(projected))
            let resolver = PersonalValueResolver(store: w.store)
            for args in [["id": "c-1"], ["id": "c-2"], ["id": "c-1", "last": "2"]] {
                let a = try await resolved(resolver) { () throws(ViewError) in try ConversationView.render(past, ViewArguments(args)).json }
                let b = Result { try ConversationView.render(folded, ViewArguments(args)).json }
                #expect(String(describing: a) == String(describing: b), "\(args) at position \(n)")
            }
        }
        let now = try await engine.load(ConversationsProjection.self).state
        let thread = now.thread("c-1")
        #expect(thread.map(\.messageId) == ["m-0", "m-1", "m-2", "m-3", "m-9"])
        #expect(thread[0].message.readBy == "u-sam" && thread[1].message.readBy == "u-ann" && thread[2].message.readAt == nil)
    }
}

/// A view's JSON with the personal values its read model keeps as tokens opened, as `pawtrail view` shows it.
func resolved(_ resolver: PersonalValueResolver, _ render: () throws(ViewError) -> JSONValue) async throws -> Result<JSONValue, ViewError> {
    switch Result(catching: render) {
    case .success(let json): return .success(try await resolver.resolve(json))
    case .failure(let error): return .failure(error)
    }
}

/// A recorded event with its personal values in the clear.
func projected(_ e: RecordedEvent) throws -> ProjectedEvent {
    ProjectedEvent(position: e.position, stream: e.stream, recordedAt: e.recordedAt, metadata: e.metadata, event: try EventCatalog.domain.decode(type: e.type, data: e.data)!)
}

@Suite("Snapshots are derived data")
struct SnapshotDamageTests {
    @Test func aDamagedRunIsPassedOverByTimeTravelOfAWholeStateAndRebuiltByALoad() async throws {
        let w = try World()
        let engine = w.engine(snapshotInterval: 5)
        for _ in 0..<4 {
            try await w.shop(orders: 10)
            _ = try await engine.load(InventoryProjection.self)
        }
        let expected = try await engine.state(InventoryProjection.self, atPosition: 25)
        let live = try await engine.load(InventoryProjection.self).state
        // Damage every run's blocks (the bytes after the header).
        let dir = w.scratch.path + "/projections/inventory/v\(InventoryProjection.schemaVersion)/"
        for run in try FileManager.default.contentsOfDirectory(atPath: dir) where run.hasSuffix(".run") {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: dir + run))
            bytes[20] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: dir + run))
        }
        #expect(try await engine.state(InventoryProjection.self, atPosition: 25) == expected, "time travel folds from the start")
        let reloaded = try await engine.load(InventoryProjection.self)
        #expect(reloaded.state == live)
    }
}
