import EventLog
import EventLogMemory
import Events
import PawtrailDomain
import Testing

@Suite("Catalog: the bundled catalog, seeded once")
struct CatalogSeedTests {
    @Test func theBundleHoldsAtLeast17ValidPetProducts() throws {
        let products = try BundledCatalog.products()
        #expect(products.count >= 17)
        #expect(Set(products.map(\.id)).count == products.count, "ids are unique")
        #expect(products.first == BundledCatalog.Product(
            id: "product_cat_001", name: "Black Sand Bentonite Cat Litter 10L", priceTaka: 620, category: "cat",
            imageURL: "img_black_sand_carbon_bentonite_cat_litter_10l_600x588", stock: 15,
            tags: ["litter", "bentonite", "clumping"]), "the seed app's sample record, with our tags")
        #expect(Set(products.map(\.category)).isSuperset(of: ["cat", "dog", "accessories"]))
        for p in products {
            // Every bundled record passes the rules `product.add` applies.
            try Validate.id(p.id, field: "id")
            #expect(try Validate.text(p.name, field: "name", max: 120) == p.name)
            try Validate.price(p.listing.price, field: "price")
            #expect(try Validate.text(p.category, field: "category", max: 40).lowercased() == p.category)
            #expect(p.stock >= 0)
            #expect(p.listing.price == Money(p.priceTaka * 100, "BDT"))
            let tags = try Validate.tags(p.tags)
            #expect(!p.tags.isEmpty && tags == p.tags && p.listing.tags == p.tags, "\(p.id) is tagged")
        }
        #expect(products.first { $0.id == "product_cat_007" }?.stock == BundledCatalog.defaultStock, "a record without stock gets 50")
    }

    @Test func malformedBundlesAreNamedErrors() {
        #expect(throws: FieldError(field: "[0].price", message: "expected an integer")) {
            try BundledCatalog.parse(#"[{"id":"a","name":"A","price":"620","category":"cat","imageURL":"i"}]"#)
        }
        #expect(throws: FieldError(field: "[0].sku", message: "is not a field of a product record")) {
            try BundledCatalog.parse(#"[{"id":"a","name":"A","price":620,"category":"cat","imageURL":"i","sku":"x"}]"#)
        }
        #expect(throws: FieldError(field: "", message: "expected an array of products")) { try BundledCatalog.parse("{}") }
    }

    /// The events one seed appends, in order.
    static func seedEvents(skipping: Set<String> = []) throws -> [(StreamID, any DomainEvent)] {
        let products = try BundledCatalog.products().filter { !skipping.contains($0.id) }
        var out: [(StreamID, any DomainEvent)] = [(Streams.catalog, CatalogSeeded(productIds: products.map(\.id)))]
        for p in products {
            out.append((Streams.product(p.id), p.listing))
            if p.stock > 0 { out.append((Streams.inventory(p.id), StockReceived(productId: p.id, quantity: p.stock))) }
        }
        // The salon's default services and capacity come with the first seed.
        out += (SalonState.defaults as [any DomainEvent]).map { (Streams.salon, $0) }
        out.append((Streams.salon, SalonCapacitySet(groomers: SalonState.defaultCapacity)))
        return out
    }

    @Test func anAdminSeedsOnceAndASecondSeedAddsNothing() async throws {
        let s = try await Shop.floor()
        let expected = try Self.seedEvents()
        #expect(expected.first?.0 == stream("catalog"))
        #expect(expected.contains { $0.0 == stream("product-product_cat_001") })
        #expect(expected.contains { $0.0 == stream("inventory-product_cat_001") })
        try await s.then(Shop.admin, SeedCatalog(), appends: expected)
        try await s.then(Shop.admin, SeedCatalog(), appends: [])
        let litter = try await s.state(InventoryState.self, Streams.inventory("product_cat_001"))
        #expect(litter.onHand == 15 && litter.available == 15)
        let fish = try await s.state(InventoryState.self, Streams.inventory("product_fish_001"))
        #expect(fish.onHand == 0, "a record with stock 0 receives none")
    }

    @Test func seedingIsOneAtomicAppend() async throws {
        let s = try await Shop.floor()
        let before = try await s.store.lastPosition()
        let outcome = try await s.handler.handle(SeedCatalog(), as: Shop.admin, now: DomainScenario.now)
        let positions = outcome.events.map(\.position)
        #expect(positions == Array(positions.first!...positions.last!), "one contiguous commit")
        #expect(positions.first == (before ?? 0) + 1)
    }

    @Test func aBundledProductListedByHandIsLeftAsItIs() async throws {
        let s = try await Shop.floor()
        try await s.product("product_cat_001", price: 99_900, stock: 3)
        try await s.then(Shop.admin, SeedCatalog(), appends: try Self.seedEvents(skipping: ["product_cat_001"]))
        let litter = try await s.state(ProductState.self, Streams.product("product_cat_001"))
        #expect(litter.price == Money(99_900, "BDT"))
        #expect(try await s.state(InventoryState.self, Streams.inventory("product_cat_001")).onHand == 3)
    }

    @Test func onlyAdminsSeed() async throws {
        try await Shop.floor().refuses(SeedCatalog(), Shop.notAdmin("catalog.seed", "seed the catalog"))
    }

    /// Two seeders in two tasks on the same in-memory store, as scheduled: however they interleave, the catalog is
    /// seeded once.
    @Test func twoSeedersOnOneStoreSeedOnce() async throws {
        for _ in 0..<20 {
            let s = try await Shop.floor()
            let before = try await s.store.lastPosition()
            async let first = s.handler.handle(SeedCatalog(), as: Shop.admin, now: DomainScenario.now)
            async let second = s.handler.handle(SeedCatalog(), as: Shop.admin, now: DomainScenario.now)
            let outcomes = try await [first, second]
            #expect(outcomes.filter { !$0.events.isEmpty }.count == 1)
            #expect(try await s.store.lastPosition() == before! + UInt64(try Self.seedEvents().count))
        }
    }

    /// Seeders racing in separate tasks, every one deciding from the empty store before any appends (the barrier
    /// holds each append until all have decided): one append wins; each loser's append conflicts on the marker,
    /// its handler decides again, sees the marker and appends nothing.
    @Test(arguments: [2, 4]) func concurrentSeedersSeedOnce(_ seeders: Int) async throws {
        let store = BarrierStore(parties: seeders)
        let floor = try await Shop.floor()
        for event in try await floor.store.readAll() {
            _ = try await store.inner.append(AppendRequest(stream: event.stream, events: [ProposedEvent(type: event.type, data: event.data)]))
        }
        let before = try await store.lastPosition()
        let handler = CommandHandler(store: store)
        let outcomes = try await withThrowingTaskGroup(of: CommandOutcome.self) { group in
            for _ in 0..<seeders {
                group.addTask { try await handler.handle(SeedCatalog(), as: Shop.admin, now: DomainScenario.now) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let winners = outcomes.filter { !$0.events.isEmpty }
        #expect(winners.count == 1)
        #expect(outcomes.filter { $0.events.isEmpty }.allSatisfy { $0.attempts == 2 }, "each loser conflicted once, then saw the marker")
        let expected = try Self.seedEvents()
        #expect(try await store.lastPosition() == before! + UInt64(expected.count))
        let markers = try await store.inner.read(ReadRequest(source: .stream(Streams.catalog))).events
        #expect(markers.count == 1)
    }
}

extension InMemoryEventStore {
    /// Every event, in position order.
    func readAll() async throws -> [RecordedEvent] {
        var out: [RecordedEvent] = []
        try await forEachPage(.all) { page in
            out += page
            return true
        }
        return out
    }
}
