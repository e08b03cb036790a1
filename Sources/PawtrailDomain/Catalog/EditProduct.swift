public import Events

/// `product.edit`: an admin changes a listed product's name, description, category, tags or image. Fields left out
/// keep their value; tags are added and removed by name, so an edit never drops a tag it did not mention.
public struct EditProduct: DomainCommand, Hashable {
    public static let name = "product.edit"
    public static let summary =
        "Rename a product, describe it, recategorize it, add or remove tags, or change its image (admins only)."

    public var productId: String
    public var newName: String?
    public var description: String?
    public var category: String?
    public var addTags: [String]
    public var removeTags: [String]
    public var imageRef: String?

    public init(
        productId: String, newName: String? = nil, description: String? = nil, category: String? = nil,
        addTags: [String] = [], removeTags: [String] = [], imageRef: String? = nil
    ) {
        self.productId = productId
        self.newName = newName
        self.description = description
        self.category = category
        self.addTags = addTags
        self.removeTags = removeTags
        self.imageRef = imageRef
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        newName = try r.optionalString("newName")
        description = try r.optionalString("description")
        category = try r.optionalString("category")
        addTags = try r.strings("addTags")
        removeTags = try r.strings("removeTags")
        imageRef = try r.optionalString("imageRef")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.optionalString("newName", newName)
        w.optionalString("description", description)
        w.optionalString("category", category)
        w.strings("addTags", addTags)
        w.strings("removeTags", removeTags)
        w.optionalString("imageRef", imageRef)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(productId, field: "productId")
        return try decide(context, product: try await loader.load(ProductState.self, Streams.product(productId)))
    }

    /// The pure decision: the product's details after the edit, normalized as a listing's are; an edit that
    /// changes nothing appends nothing. A delisted product may be edited (it keeps its page for past orders).
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - product: The product's state.
    /// - Returns: ``ProductDetailsChanged`` with every detail as it is after the edit, or nothing.
    /// - Throws: ``DomainError`` for a non-admin, an edit naming no detail, malformed values, a tag both added and
    ///   removed, more than 20 tags, or a product never listed.
    public func decide(_ context: DecisionContext, product: ProductState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("edit products")
        guard newName != nil || description != nil || category != nil || imageRef != nil || !addTags.isEmpty
            || !removeTags.isEmpty
        else {
            throw .invalid(
                field: "productId", reason: "the edit names no detail; give newName, description, category, addTags, removeTags or imageRef")
        }
        let name = try newName.map { (n) throws(DomainError) in try Validate.text(n, field: "newName", max: 120) }
        let description = try description.map { (d) throws(DomainError) in try Validate.productDescription(d) }
        let category = try category.map { (c) throws(DomainError) in try Validate.text(c, field: "category", max: 40).lowercased() }
        let imageRef = try imageRef.map { (i) throws(DomainError) in try Validate.text(i, field: "imageRef", max: 300) }
        let added = try Validate.tags(addTags, field: "addTags")
        let removed = try Validate.tags(removeTags, field: "removeTags")
        if let both = added.first(where: removed.contains) {
            throw .invalid(field: "removeTags", reason: "'\(both)' is both added and removed")
        }
        try product.checkExists(productId)
        var tags = product.tags.filter { !removed.contains($0) }
        tags += added.filter { !tags.contains($0) }
        guard tags.count <= 20 else { throw .invalid(field: "addTags", reason: "a product has at most 20 tags; this edit leaves \(tags.count)") }
        let changed = ProductDetailsChanged(
            productId: productId, name: name ?? product.name, description: description ?? product.description,
            category: category ?? product.category, tags: tags, imageRef: imageRef ?? product.imageRef)
        guard ProductState.evolve(product, changed) != product else { return .nothing }
        return .append(Streams.product(productId), changed)
    }
}
