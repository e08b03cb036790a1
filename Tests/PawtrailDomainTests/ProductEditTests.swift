import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Catalog: descriptions and edits after listing")
struct ProductEditTests {
    static let listed = ProductListed(
        productId: "leash", name: "Nylon Dog Leash", price: Money(45_000, "BDT"), category: "dog", tags: ["leash", "nylon"],
        imageRef: "img_leash", description: "A 1.5 m leash.")

    /// A floor with the leash listed.
    static func floor() async throws -> DomainScenario {
        let s = try await Shop.floor()
        try await s.given(Streams.product("leash"), listed)
        return s
    }

    static func changed(
        name: String = "Nylon Dog Leash", description: String = "A 1.5 m leash.", category: String = "dog",
        tags: [String] = ["leash", "nylon"], imageRef: String = "img_leash"
    ) -> [(StreamID, any DomainEvent)] {
        [(stream("product-leash"), ProductDetailsChanged(
            productId: "leash", name: name, description: description, category: category, tags: tags, imageRef: imageRef))]
    }

    @Test func aProductIsListedWithItsDescriptionTrimmed() async throws {
        var add = CatalogTests.litter
        add.description = "  Clumping bentonite.\nLow dust.  "
        var expected = CatalogTests.litterListed
        expected.description = "Clumping bentonite.\nLow dust."
        try await Shop.floor().then(Shop.admin, add, appends: [(stream("product-litter"), expected)])
    }

    @Test func aDescriptionIsAtMost2000CharactersWithoutControlCharacters() async throws {
        var add = CatalogTests.litter
        add.description = String(repeating: "d", count: 2_001)
        try await Shop.floor().then(Shop.admin, add, throws: .invalid(field: "description", reason: "must be at most 2000 characters"))
        add.description = "tab\there"
        try await Shop.floor().then(Shop.admin, add, throws: .invalid(field: "description", reason: "must not hold control characters"))
    }

    @Test func anAdminRenamesDescribesRecategorizesAndReimages() async throws {
        let s = try await Self.floor()
        try await s.then(Shop.admin, EditProduct(productId: "leash", newName: " Reflective Leash "), appends: Self.changed(name: "Reflective Leash"))
        try await s.then(
            Shop.admin, EditProduct(productId: "leash", description: "Glows at night."),
            appends: Self.changed(name: "Reflective Leash", description: "Glows at night."))
        try await s.then(
            Shop.admin, EditProduct(productId: "leash", category: " Walking ", imageRef: "img_leash_2"),
            appends: Self.changed(name: "Reflective Leash", description: "Glows at night.", category: "walking", imageRef: "img_leash_2"))
        let product = try await s.state(ProductState.self, Streams.product("leash"))
        #expect(product.name == "Reflective Leash" && product.description == "Glows at night." && product.category == "walking")
        #expect(product.price == Money(45_000, "BDT"), "an edit leaves the price to reprice")
        // An empty description removes it.
        try await s.then(
            Shop.admin, EditProduct(productId: "leash", description: " "),
            appends: Self.changed(name: "Reflective Leash", description: "", category: "walking", imageRef: "img_leash_2"))
    }

    @Test func tagsAreAddedAndRemovedByName() async throws {
        let s = try await Self.floor()
        try await s.then(
            Shop.admin, EditProduct(productId: "leash", addTags: ["Reflective", "leash"], removeTags: ["nylon", "absent"]),
            appends: Self.changed(tags: ["leash", "reflective"]))
        try await s.then(
            Shop.admin, EditProduct(productId: "leash", addTags: ["night"], removeTags: []),
            appends: Self.changed(tags: ["leash", "reflective", "night"]))
        try await s.then(
            Shop.admin, EditProduct(productId: "leash", addTags: ["x"], removeTags: ["X"]),
            throws: .invalid(field: "removeTags", reason: "'x' is both added and removed"))
        try await s.then(
            Shop.admin, EditProduct(productId: "leash", addTags: (1...18).map { "t\($0)" }),
            throws: .invalid(field: "addTags", reason: "a product has at most 20 tags; this edit leaves 21"))
    }

    @Test func anEditThatChangesNothingAppendsNothing() async throws {
        let s = try await Self.floor()
        try await s.then(Shop.admin, EditProduct(productId: "leash", newName: "Nylon Dog Leash", addTags: ["nylon"]), appends: [])
        try await s.then(Shop.admin, EditProduct(productId: "leash", category: "DOG", removeTags: ["collar"]), appends: [])
    }

    @Test func anEditNamesADetailAndAListedProduct() async throws {
        let s = try await Self.floor()
        try await s.then(
            Shop.admin, EditProduct(productId: "leash"),
            throws: .invalid(
                field: "productId",
                reason: "the edit names no detail; give newName, description, category, addTags, removeTags or imageRef"))
        try await s.then(Shop.admin, EditProduct(productId: "ghost", newName: "G"), throws: .notFound("product 'ghost' does not exist"))
        try await s.then(Shop.admin, EditProduct(productId: "leash", newName: " "), throws: .invalid(field: "newName", reason: "must not be empty"))
        try await s.then(Shop.admin, EditProduct(productId: "leash", imageRef: ""), throws: .invalid(field: "imageRef", reason: "must not be empty"))
        try await s.then(Shop.admin, EditProduct(productId: "leash", addTags: [" "]), throws: .invalid(field: "addTags[0]", reason: "must not be empty"))
    }

    @Test func aDelistedProductCanStillBeEdited() async throws {
        let s = try await Self.floor()
        try await s.given(Streams.product("leash"), ProductDelisted(productId: "leash"))
        try await s.then(Shop.admin, EditProduct(productId: "leash", newName: "Old Leash"), appends: Self.changed(name: "Old Leash"))
        #expect(try await s.state(ProductState.self, Streams.product("leash")).delisted)
    }

    @Test(arguments: Shop.notAdmin("product.edit", "edit products"))
    func onlyAdminsEditProducts(_ actor: String, _ error: DomainError) async throws {
        try await Self.floor().then(actor, EditProduct(productId: "leash", newName: "X"), throws: error)
    }
}
