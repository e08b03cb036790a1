import EventLog
import EventLogMemory
import Events
import PawtrailDomain
import PawtrailJSON
import Testing

@Suite("Catalog: products")
struct CatalogTests {
    static let litter = AddProduct(
        productId: "litter", name: " Black Sand Cat Litter 10L ", price: Money(62_000, "BDT"), compareAtPrice: Money(70_000, "BDT"),
        category: " Cat ", tags: ["Litter", "bentonite", "litter"], imageRef: "img_black_sand")

    static let litterListed = ProductListed(
        productId: "litter", name: "Black Sand Cat Litter 10L", price: Money(62_000, "BDT"), compareAtPrice: Money(70_000, "BDT"),
        category: "cat", tags: ["litter", "bentonite"], imageRef: "img_black_sand")

    @Test func anAdminAddsAProduct() async throws {
        let s = try await Shop.floor()
        try await s.then(Shop.admin, Self.litter, appends: [(stream("product-litter"), Self.litterListed)])
        // The same listing again is a re-send; another listing under the id is refused.
        try await s.then(Shop.admin, Self.litter, appends: [])
        var other = Self.litter
        other.name = "Tofu Litter"
        try await s.then(Shop.admin, other, throws: .alreadyExists("product 'litter' exists already"))
    }

    @Test func withoutAnIdAProductGetsAFreshOne() async throws {
        let s = try await Shop.floor()
        var command = Self.litter
        command.productId = nil
        let appended = try await s.when(Shop.admin, command)
        let listed = try #require(appended.first?.1 as? ProductListed)
        #expect(listed.productId.hasPrefix("pr-") && listed.productId.count == "pr-".count + 11)
        #expect(appended.first?.0 == Streams.product(listed.productId))
    }

    @Test(arguments: [
        (AddProduct(productId: "p", name: " ", price: Money(100, "BDT"), category: "cat", imageRef: "i"), DomainError.invalid(field: "name", reason: "must not be empty")),
        (AddProduct(productId: "p", name: "P", price: Money(0, "BDT"), category: "cat", imageRef: "i"), .invalid(field: "price", reason: "must be above zero, got 0 BDT")),
        (AddProduct(productId: "p", name: "P", price: Money(-5, "BDT"), category: "cat", imageRef: "i"), .invalid(field: "price", reason: "must be above zero, got -5 BDT")),
        (AddProduct(productId: "p", name: "P", price: Money(100_000_000_001, "BDT"), category: "cat", imageRef: "i"), .invalid(field: "price", reason: "must be at most 100000000000 minor units, got 100000000001 BDT")),
        (AddProduct(productId: "p", name: "P", price: Money(100, "bdt"), category: "cat", imageRef: "i"), .invalid(field: "price", reason: "'bdt' is not an ISO 4217 currency code (BDT, USD)")),
        (AddProduct(productId: "p", name: "P", price: Money(100, "BDT"), compareAtPrice: Money(100, "BDT"), category: "cat", imageRef: "i"), .invalid(field: "compareAtPrice", reason: "100 BDT must be above the price 100 BDT")),
        (AddProduct(productId: "p", name: "P", price: Money(100, "BDT"), compareAtPrice: Money(50, "BDT"), category: "cat", imageRef: "i"), .invalid(field: "compareAtPrice", reason: "50 BDT must be above the price 100 BDT")),
        (AddProduct(productId: "p", name: "P", price: Money(100, "BDT"), compareAtPrice: Money(500, "USD"), category: "cat", imageRef: "i"), .invalid(field: "compareAtPrice", reason: "is in USD but the price is in BDT")),
        (AddProduct(productId: "p", name: "P", price: Money(100, "BDT"), category: "", imageRef: "i"), .invalid(field: "category", reason: "must not be empty")),
        (AddProduct(productId: "p", name: "P", price: Money(100, "BDT"), category: "cat", tags: ["ok", " "], imageRef: "i"), .invalid(field: "tags[1]", reason: "must not be empty")),
        (AddProduct(productId: "p", name: "P", price: Money(100, "BDT"), category: "cat", imageRef: ""), .invalid(field: "imageRef", reason: "must not be empty")),
        (AddProduct(productId: "p q", name: "P", price: Money(100, "BDT"), category: "cat", imageRef: "i"), .invalid(field: "productId", reason: "'p q' may hold only letters, digits and - _ . : @")),
    ])
    func malformedProductsAreRejected(_ command: AddProduct, _ error: DomainError) async throws {
        try await Shop.floor().then(Shop.admin, command, throws: error)
    }

    @Test func tooManyTagsAreRejected() async throws {
        var command = Self.litter
        command.tags = (1...21).map { "t\($0)" }
        try await Shop.floor().then(Shop.admin, command, throws: .invalid(field: "tags", reason: "at most 20 tags, got 21"))
    }

    @Test func anAdminReprices() async throws {
        let s = try await Shop.floor()
        try await s.given(Streams.product("litter"), Self.litterListed)
        try await s.then(
            Shop.admin, RepriceProduct(productId: "litter", price: Money(58_000, "BDT")),
            appends: [(stream("product-litter"), ProductRepriced(productId: "litter", price: Money(58_000, "BDT")))])
        try await s.then(Shop.admin, RepriceProduct(productId: "litter", price: Money(58_000, "BDT")), appends: [])
        try await s.then(
            Shop.admin, RepriceProduct(productId: "litter", price: Money(55_000, "BDT"), compareAtPrice: Money(62_000, "BDT")),
            appends: [(stream("product-litter"), ProductRepriced(productId: "litter", price: Money(55_000, "BDT"), compareAtPrice: Money(62_000, "BDT")))])
        let product = try await s.state(ProductState.self, Streams.product("litter"))
        #expect(product.price == Money(55_000, "BDT") && product.compareAtPrice == Money(62_000, "BDT"))
    }

    @Test func repricingKeepsTheCurrencyAndTheRules() async throws {
        let s = try await Shop.floor()
        try await s.given(Streams.product("litter"), Self.litterListed)
        try await s.then(
            Shop.admin, RepriceProduct(productId: "litter", price: Money(700, "USD")),
            throws: .invalid(field: "price", reason: "is in USD but product 'litter' is priced in BDT"))
        try await s.then(
            Shop.admin, RepriceProduct(productId: "litter", price: Money(700, "BDT"), compareAtPrice: Money(600, "BDT")),
            throws: .invalid(field: "compareAtPrice", reason: "600 BDT must be above the price 700 BDT"))
        try await s.then(
            Shop.admin, RepriceProduct(productId: "litter", price: Money(0, "BDT")), throws: .invalid(field: "price", reason: "must be above zero, got 0 BDT"))
        try await s.then(
            Shop.admin, RepriceProduct(productId: "ghost", price: Money(700, "BDT")), throws: .notFound("product 'ghost' does not exist"))
    }

    @Test func delistAndRelist() async throws {
        let s = try await Shop.floor()
        try await s.given(Streams.product("litter"), Self.litterListed)
        try await s.then(Shop.admin, DelistProduct(productId: "litter"), appends: [(stream("product-litter"), ProductDelisted(productId: "litter"))])
        try await s.then(Shop.admin, DelistProduct(productId: "litter"), appends: [])
        // A delisted product can still be repriced, ready for its return.
        try await s.then(
            Shop.admin, RepriceProduct(productId: "litter", price: Money(50_000, "BDT")),
            appends: [(stream("product-litter"), ProductRepriced(productId: "litter", price: Money(50_000, "BDT")))])
        try await s.then(Shop.admin, RelistProduct(productId: "litter"), appends: [(stream("product-litter"), ProductRelisted(productId: "litter"))])
        try await s.then(Shop.admin, RelistProduct(productId: "litter"), appends: [])
        try await s.then(Shop.admin, DelistProduct(productId: "ghost"), throws: .notFound("product 'ghost' does not exist"))
        try await s.then(Shop.admin, RelistProduct(productId: "ghost"), throws: .notFound("product 'ghost' does not exist"))
    }

    @Test func onlyAdminsManageProducts() async throws {
        let s = try await Shop.floor()
        try await s.given(Streams.product("litter"), Self.litterListed)
        try await s.refuses(Self.litter, Shop.notAdmin("product.add", "add products"))
        try await s.refuses(RepriceProduct(productId: "litter", price: Money(1, "BDT")), Shop.notAdmin("product.reprice", "reprice products"))
        try await s.refuses(DelistProduct(productId: "litter"), Shop.notAdmin("product.delist", "delist products"))
        try await s.given(Streams.product("litter"), ProductDelisted(productId: "litter"))
        try await s.refuses(RelistProduct(productId: "litter"), Shop.notAdmin("product.relist", "relist products"))
    }
}

/// `ProductListed` schema version 1 is the seed app's record: price in whole taka, no currency, compare-at or tags.
@Suite("Catalog: ProductListed schema evolution")
struct ProductListedUpcastTests {
    /// Version 1 bytes as the first importer wrote them: marker 0, version 1, then productId, name, price (whole
    /// taka), category, imageRef.
    static func version1(_ id: String, name: String, taka: Int64, category: String = "cat", image: String = "img_v1") -> [UInt8] {
        var w = BinaryFieldWriter()
        w.varint(UInt64(DomainEventCodec.marker))
        w.varint(1)
        w.string("productId", id)
        w.string("name", name)
        w.int("price", taka)
        w.string("category", category)
        w.string("imageRef", image)
        return w.bytes
    }

    static let upcast = ProductListed(
        productId: "product_cat_001", name: "Black Sand Bentonite Cat Litter 10L", price: Money(62_000, "BDT"), compareAtPrice: nil,
        category: "cat", tags: [], imageRef: "img_v1")

    /// A floor whose `product_cat_001` was listed with version 1 bytes, with 15 in stock.
    static func floorWithVersion1Product() async throws -> DomainScenario {
        let s = try await Shop.floor()
        _ = try await s.store.append(
            AppendRequest(
                stream: Streams.product("product_cat_001"), expected: .noStream,
                events: [ProposedEvent(type: "ProductListed", data: version1("product_cat_001", name: "Black Sand Bentonite Cat Litter 10L", taka: 620))]))
        try await s.given(Streams.inventory("product_cat_001"), StockReceived(productId: "product_cat_001", quantity: 15))
        return s
    }

    @Test func theCurrentVersionIs3() {
        #expect(ProductListed.schemaVersion == 3)
        #expect(EventCatalog.domain.entries.first { $0.type == "ProductListed" }?.schemaVersion == 3)
    }

    /// Version 2 bytes: version 3's fields without `description`.
    static func version2(_ listed: ProductListed) -> [UInt8] {
        var w = BinaryFieldWriter()
        w.varint(UInt64(DomainEventCodec.marker))
        w.varint(2)
        w.string("productId", listed.productId)
        w.string("name", listed.name)
        w.money("price", listed.price)
        w.optionalMoney("compareAtPrice", listed.compareAtPrice)
        w.string("category", listed.category)
        w.strings("tags", listed.tags)
        w.string("imageRef", listed.imageRef)
        return w.bytes
    }

    @Test func version2ReadsAsVersion3WithoutADescription() throws {
        let v2 = ProductListed(
            productId: "p-2", name: "Bowl", price: Money(35_000, "BDT"), compareAtPrice: Money(40_000, "BDT"),
            category: "accessories", tags: ["bowl"], imageRef: "img_bowl")
        let bytes = Self.version2(v2)
        #expect(try ProductListed.decoded(from: bytes) == v2)
        #expect(try EventCatalog.domain.json(type: "ProductListed", data: bytes)?["description"] == nil, "no description is shown as none")
        var described = v2
        described.description = "Steel, dishwasher safe."
        #expect(DomainEventCodec.encode(described).prefix(2) == [0, 3])
        #expect(try ProductListed.decoded(from: DomainEventCodec.encode(described)) == described)
        for cut in 2..<bytes.count {
            #expect(throws: FieldError.self) { try ProductListed.decoded(from: Array(bytes.prefix(cut))) }
        }
    }

    @Test func version1ReadsBackThroughTheCatalogAsVersion3() async throws {
        let s = try await Self.floorWithVersion1Product()
        let page = try await s.store.read(ReadRequest(source: .stream(Streams.product("product_cat_001"))))
        let recorded = try #require(page.events.first)
        #expect(recorded.data.prefix(2) == [0, 1], "stored as version 1")
        let event = try #require(try EventCatalog.domain.decode(type: recorded.type, data: recorded.data) as? ProductListed)
        #expect(event == Self.upcast)
        let json = try #require(try EventCatalog.domain.json(type: recorded.type, data: recorded.data))
        #expect(json["price"] == .object(["amount": .int(62_000), "currency": .string("BDT")]))
        #expect(json["tags"] == .array([]))
        // Re-encoding writes version 3, which decodes to the same value.
        #expect(DomainEventCodec.encode(event).prefix(2) == [0, 3])
        #expect(try ProductListed.decoded(from: DomainEventCodec.encode(event)) == event)
    }

    @Test func commandsLoadAVersion1Product() async throws {
        let s = try await Self.floorWithVersion1Product()
        let product = try await s.state(ProductState.self, Streams.product("product_cat_001"))
        #expect(product.exists && product.price == Money(62_000, "BDT") && product.name == "Black Sand Bentonite Cat Litter 10L")
        // The upcast currency is the product's currency from then on.
        try await s.then(
            Shop.admin, RepriceProduct(productId: "product_cat_001", price: Money(600, "USD")),
            throws: .invalid(field: "price", reason: "is in USD but product 'product_cat_001' is priced in BDT"))
        // Carts accept it and an order snapshots the upcast price.
        try await s.then(
            Shop.ann, AddToCart(productId: "product_cat_001", quantity: 2),
            appends: [(stream("cart-u-ann"), CartItemAdded(ownerId: Shop.ann, productId: "product_cat_001", quantity: 2))])
        let appended = try await s.when(Shop.ann, OrderTests.place("o-v1"))
        let placed = try #require(appended.compactMap { $0.1 as? OrderPlaced }.first)
        #expect(placed.lines == [
            PurchaseLine(
                productId: "product_cat_001", name: "Black Sand Bentonite Cat Litter 10L", category: "cat", imageRef: "img_v1",
                unitPrice: Money(62_000, "BDT"), quantity: 2, lineTotal: Money(124_000, "BDT"))
        ])
        #expect(placed.total == Money(124_000, "BDT"))
    }

    @Test func aVersion1PriceTooLargeForMinorUnitsIsAnError() throws {
        #expect(throws: FieldError(field: "price", message: "\(Int64.max / 10) taka does not fit in minor units")) {
            try ProductListed.decoded(from: Self.version1("p", name: "P", taka: Int64.max / 10))
        }
    }

    @Test func truncatedVersion1DataIsAnErrorNotACrash() throws {
        let full = Self.version1("p", name: "P", taka: 620)
        for cut in 2..<full.count {
            #expect(throws: FieldError.self) { try ProductListed.decoded(from: Array(full.prefix(cut))) }
        }
        #expect(throws: FieldError.self) { try ProductListed.decoded(from: full + [0]) }
    }

    @Test func unknownVersionsAreErrors() throws {
        var data = Self.version1("p", name: "P", taka: 620)
        data[1] = 3
        #expect(throws: FieldError.self) { try ProductListed.decoded(from: data) }
    }
}
