import EventLog
import EventLogMemory
import Events
import Foundation
import PawtrailDomain
import Testing

/// How a decision's states are taken up: from a snapshot and the events after it, and never from one that does not
/// fit the stream.
@Suite("Snapshots: taking a state up")
struct SnapshotLoadingTests {
    let store = InMemoryEventStore()
    let snapshots = InMemorySnapshotStore()
    let cart = StreamID(unchecked: "cart-u-ann")

    /// A customer with `adds` cart additions of product_cat_001, one unit each, through the handler.
    func shopWithCart(adds: Int, policy: SnapshotPolicy = .standard) async throws -> CommandHandler {
        let handler = CommandHandler(store: store, snapshots: snapshots, policy: policy)
        let start = Timestamp(iso8601: "2026-12-01T08:00:00Z")!
        _ = try await handler.handle(SignUp(name: "Ada", email: "ada@shop.example"), as: "u-ada", now: start)
        _ = try await handler.handle(BootstrapAdmin(), as: "u-ada", now: start)
        _ = try await handler.handle(SeedCatalog(), as: "u-ada", now: start)
        _ = try await handler.handle(SignUp(name: "Ann", email: "ann@mail.example"), as: "u-ann", now: start)
        for _ in 0..<adds {
            _ = try await handler.handle(AddToCart(productId: "product_cat_001", quantity: 1), as: "u-ann", now: start)
        }
        return handler
    }

    func cartQuantity(_ handler: CommandHandler) async throws -> (Int64, LoadStats) {
        var loader = StreamLoader(store: store, snapshots: handler.snapshots, cache: handler.cache)
        let state = try await loader.load(CartState.self, cart)
        return (state.quantity(of: "product_cat_001"), loader.stats)
    }

    @Test func aLoadReadsOnlyTheEventsAfterTheSnapshot() async throws {
        let handler = try await shopWithCart(adds: 30)
        let saved = try #require(try await snapshots.snapshot(of: cart, kind: CartState.snapshotKind))
        let (quantity, stats) = try await cartQuantity(handler)
        #expect(quantity == 30)
        #expect(stats.snapshotHits == 1)
        #expect(stats.eventsRead == Int(29 - saved.version), "folded \(stats.eventsRead) events past a snapshot at version \(saved.version)")
        #expect(stats.eventsRead < 4)
    }

    @Test func aMissingSnapshotFoldsFromTheStart() async throws {
        let handler = try await shopWithCart(adds: 12)
        try await snapshots.removeAll()
        let (quantity, stats) = try await cartQuantity(handler)
        #expect(quantity == 12)
        #expect(stats.snapshotHits == 0)
        #expect(stats.eventsRead == 12)
    }

    @Test func aSnapshotThatDoesNotDecodeIsPassedOver() async throws {
        let handler = try await shopWithCart(adds: 12)
        var s = try #require(try await snapshots.snapshot(of: cart, kind: CartState.snapshotKind))
        s.state = [0xFF]
        try await snapshots.save([s])
        let (quantity, stats) = try await cartQuantity(handler)
        #expect(quantity == 12)
        #expect(stats.snapshotsPassedOver == 1)
        #expect(stats.eventsRead == 12)
    }

    @Test func aSnapshotOfAnotherHistoryIsPassedOver() async throws {
        let handler = try await shopWithCart(adds: 12)
        var s = try #require(try await snapshots.snapshot(of: cart, kind: CartState.snapshotKind))
        // The same version, claimed at another position and with another state: a copy of another store's.
        s.position += 1
        s.state = CartState.evolve(CartState(), CartItemAdded(ownerId: "u-ann", productId: "product_cat_001", quantity: 50)).snapshotBytes()
        try await snapshots.save([s])
        let (quantity, stats) = try await cartQuantity(handler)
        #expect(quantity == 12)
        #expect(stats.snapshotsPassedOver == 1)
    }

    @Test func aSnapshotPastTheStreamsEndIsPassedOver() async throws {
        let handler = try await shopWithCart(adds: 12)
        var s = try #require(try await snapshots.snapshot(of: cart, kind: CartState.snapshotKind))
        // A log restored from an older copy: the snapshot names a version the stream no longer has.
        s.version += 100
        s.state = CartState.evolve(CartState(), CartItemAdded(ownerId: "u-ann", productId: "product_cat_001", quantity: 50)).snapshotBytes()
        try await snapshots.save([s])
        let (quantity, stats) = try await cartQuantity(handler)
        #expect(quantity == 12)
        #expect(stats.snapshotsPassedOver == 1)
    }

    @Test func aStaleSnapshotIsBroughtUpToDate() async throws {
        let handler = try await shopWithCart(adds: 12, policy: SnapshotPolicy(everyEvents: 1))
        let old = try #require(try await snapshots.snapshot(of: cart, kind: CartState.snapshotKind))
        // Events appended by something that saves no snapshots (another build, `log append`).
        let plain = CommandHandler(store: store)
        for _ in 0..<5 { _ = try await plain.handle(AddToCart(productId: "product_cat_001", quantity: 1), as: "u-ann") }
        let (quantity, stats) = try await cartQuantity(handler)
        #expect(old.version == 11)
        #expect(quantity == 17)
        #expect(stats.snapshotHits == 1)
        #expect(stats.eventsRead == 5)
    }

    /// A change to a fold bumps its schema version; the new fold passes over every snapshot the old one saved.
    @Test func aSnapshotOfAnotherSchemaVersionIsPassedOver() async throws {
        _ = try await shopWithCart(adds: 9)
        var loader = StreamLoader(store: store, snapshots: snapshots)
        let old = try await loader.load(CartLines.self, cart)
        try await snapshots.save([StreamSnapshot(
            stream: cart, kind: CartLines.snapshotKind, schemaVersion: CartLines.schemaVersion, version: 8,
            position: try #require(try await store.position(of: cart, version: 8)), eventID: try await eventID(cart, 8),
            state: old.snapshotBytes())])
        var again = StreamLoader(store: store, snapshots: snapshots)
        _ = try await again.load(CartLines.self, cart)
        #expect(again.stats.snapshotHits == 1, "the same fold takes its own snapshot up")
        var changed = StreamLoader(store: store, snapshots: snapshots)
        let counted = try await changed.load(CartUnits.self, cart)
        #expect(changed.stats.snapshotHits == 0)
        #expect(changed.stats.snapshotsPassedOver == 1)
        #expect(counted.units == 9, "the new fold's state, from its own full fold")
    }

    func eventID(_ stream: StreamID, _ version: UInt64) async throws -> UUID {
        try await store.read(ReadRequest(source: .stream(stream), from: version, limit: 1)).events[0].id
    }

    /// The expectations of an append are the stream's real versions: a writer that appends between the snapshot's
    /// load and the append makes the append conflict, and the handler decides again from the fresh state.
    @Test func aWriterBetweenTheLoadAndTheAppendMakesItConflict() async throws {
        _ = try await shopWithCart(adds: 8)
        let racer = CommandHandler(store: store)
        let interfering = InterferingStore(inner: store) {
            _ = try await racer.handle(AddToCart(productId: "product_cat_002", quantity: 1), as: "u-ann")
        }
        let handler = CommandHandler(store: interfering, snapshots: snapshots)
        let outcome = try await handler.handle(AddToCart(productId: "product_cat_001", quantity: 1), as: "u-ann")
        #expect(outcome.attempts == 2, "the first append was decided before the other writer's event")
        #expect(outcome.loadStats.snapshotHits >= 1)
        var loader = StreamLoader(store: store)
        let state = try await loader.load(CartState.self, cart)
        #expect(state.quantity(of: "product_cat_001") == 9)
        #expect(state.quantity(of: "product_cat_002") == 1)
    }
}

/// Two versions of one fold: the same kind, another schema version and another `evolve`.
struct CartLines: Aggregate, Equatable {
    static let snapshotKind = "test-cart"
    static let schemaVersion = 1
    var lines: [String] = []
    init() {}
    init(reading r: inout some FieldReader) throws(FieldError) { lines = try r.strings("lines") }
    func write(to w: inout some FieldWriter) { w.strings("lines", lines) }
    static func evolve(_ s: CartLines, _ e: any DomainEvent) -> CartLines {
        guard let e = e as? CartItemAdded else { return s }
        var s = s
        s.lines.append(e.productId)
        return s
    }
}

struct CartUnits: Aggregate, Equatable {
    static let snapshotKind = "test-cart"
    static let schemaVersion = 2
    var units: Int64 = 0
    init() {}
    init(reading r: inout some FieldReader) throws(FieldError) { units = try r.int("units") }
    func write(to w: inout some FieldWriter) { w.int("units", units) }
    static func evolve(_ s: CartUnits, _ e: any DomainEvent) -> CartUnits {
        guard let e = e as? CartItemAdded else { return s }
        var s = s
        s.units += e.quantity
        return s
    }
}

/// A store that runs `interfere` once, just before the first append it is given.
final class InterferingStore: EventStore, @unchecked Sendable {
    let inner: any EventStore
    private var interfere: (@Sendable () async throws -> Void)?

    init(inner: any EventStore, interfere: @escaping @Sendable () async throws -> Void) {
        self.inner = inner
        self.interfere = interfere
    }

    func append(_ request: AppendRequest) async throws -> AppendResult {
        if let once = interfere {
            interfere = nil
            try await once()
        }
        return try await inner.append(request)
    }

    func read(_ request: ReadRequest) async throws -> ReadBatch { try await inner.read(request) }
    func streamVersion(of stream: StreamID) async throws -> UInt64? { try await inner.streamVersion(of: stream) }
    func position(of stream: StreamID, version: UInt64) async throws -> UInt64? { try await inner.position(of: stream, version: version) }
    func lastPosition() async throws -> UInt64? { try await inner.lastPosition() }
    func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? { try await inner.lastPosition(atOrBefore: time) }
    func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        try await inner.waitForAppends(after: position, timeout: timeout)
    }
}
