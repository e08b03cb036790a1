public import Events

/// `product.add`: an admin lists a new product.
public struct AddProduct: DomainCommand, Hashable {
    public static let name = "product.add"
    public static let summary = "List a new product with its price, category, tags, image and description (admins only)."

    /// The new product's id; a fresh `product-…` id when absent.
    public var productId: String?
    public var name: String
    public var price: Money
    public var compareAtPrice: Money?
    /// Trimmed and lowercased, so filters see one spelling (`cat`).
    public var category: String
    public var tags: [String]
    public var imageRef: String
    /// What the product page says about it.
    public var description: String?

    public init(
        productId: String? = nil, name: String, price: Money, compareAtPrice: Money? = nil, category: String,
        tags: [String] = [], imageRef: String, description: String? = nil
    ) {
        self.productId = productId
        self.name = name
        self.price = price
        self.compareAtPrice = compareAtPrice
        self.category = category
        self.tags = tags
        self.imageRef = imageRef
        self.description = description
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.optionalString("productId")
        name = try r.string("name")
        price = try r.money("price")
        compareAtPrice = try r.optionalMoney("compareAtPrice")
        category = try r.string("category")
        tags = try r.strings("tags")
        imageRef = try r.string("imageRef")
        description = try r.optionalString("description")
    }

    public func write(to w: inout some FieldWriter) {
        w.optionalString("productId", productId)
        w.string("name", name)
        w.money("price", price)
        w.optionalMoney("compareAtPrice", compareAtPrice)
        w.string("category", category)
        w.strings("tags", tags)
        w.string("imageRef", imageRef)
        w.optionalString("description", description)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let id = productId ?? context.newID("pr")
        try Validate.id(id, field: "productId")
        return try decide(context, productId: id, existing: try await loader.load(ProductState.self, Streams.product(id)))
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor and clock.
    ///   - productId: The id the product gets.
    ///   - existing: The state of its stream.
    /// - Returns: `ProductListed`; nothing when the same listing exists already (a re-send).
    /// - Throws: ``DomainError`` for a non-admin, malformed fields, or an id already taken by another listing.
    public func decide(_ context: DecisionContext, productId: String, existing: ProductState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("add products")
        let name = try Validate.text(name, field: "name", max: 120)
        try Validate.price(price, field: "price")
        try Validate.compareAtPrice(compareAtPrice, price: price)
        let category = try Validate.text(category, field: "category", max: 40).lowercased()
        let tags = try Validate.tags(tags)
        let imageRef = try Validate.text(imageRef, field: "imageRef", max: 300)
        let description = try Validate.productDescription(description ?? "")
        let listed = ProductListed(
            productId: productId, name: name, price: price, compareAtPrice: compareAtPrice, category: category,
            tags: tags, imageRef: imageRef, description: description)
        if existing.exists {
            guard ProductState.folded([listed]) == existing else {
                throw .alreadyExists("product '\(productId)' exists already")
            }
            return .nothing
        }
        return .append(Streams.product(productId), listed, expected: .noStream)
    }
}

/// `product.reprice`: an admin changes a product's price (in the product's currency).
public struct RepriceProduct: DomainCommand, Hashable {
    public static let name = "product.reprice"
    public static let summary = "Change a product's price and compare-at price (admins only)."

    public var productId: String
    public var price: Money
    /// The new compare-at price; absent removes it.
    public var compareAtPrice: Money?

    public init(productId: String, price: Money, compareAtPrice: Money? = nil) {
        self.productId = productId
        self.price = price
        self.compareAtPrice = compareAtPrice
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        price = try r.money("price")
        compareAtPrice = try r.optionalMoney("compareAtPrice")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.money("price", price)
        w.optionalMoney("compareAtPrice", compareAtPrice)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(productId, field: "productId")
        return try decide(context, product: try await loader.load(ProductState.self, Streams.product(productId)))
    }

    /// The pure decision: a product keeps its currency, because carts and orders assume one per order; the
    /// same prices again change nothing.
    public func decide(_ context: DecisionContext, product: ProductState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("reprice products")
        try Validate.price(price, field: "price")
        try Validate.compareAtPrice(compareAtPrice, price: price)
        try product.checkExists(productId)
        guard price.currency == product.price.currency else {
            throw .invalid(
                field: "price", reason: "is in \(price.currency) but product '\(productId)' is priced in \(product.price.currency)")
        }
        guard price != product.price || compareAtPrice != product.compareAtPrice else { return .nothing }
        return .append(
            Streams.product(productId), ProductRepriced(productId: productId, price: price, compareAtPrice: compareAtPrice))
    }
}

/// `product.delist`: an admin takes a product off sale; stock and past orders stay as they are.
public struct DelistProduct: DomainCommand, Hashable {
    public static let name = "product.delist"
    public static let summary = "Take a product off sale (admins only)."

    public var productId: String

    public init(productId: String) {
        self.productId = productId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(productId, field: "productId")
        return try decide(context, product: try await loader.load(ProductState.self, Streams.product(productId)))
    }

    /// The pure decision; a product already off sale changes nothing.
    public func decide(_ context: DecisionContext, product: ProductState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("delist products")
        try product.checkExists(productId)
        guard !product.delisted else { return .nothing }
        return .append(Streams.product(productId), ProductDelisted(productId: productId))
    }
}

/// `product.relist`: an admin puts a delisted product back on sale.
public struct RelistProduct: DomainCommand, Hashable {
    public static let name = "product.relist"
    public static let summary = "Put a delisted product back on sale (admins only)."

    public var productId: String

    public init(productId: String) {
        self.productId = productId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(productId, field: "productId")
        return try decide(context, product: try await loader.load(ProductState.self, Streams.product(productId)))
    }

    /// The pure decision; a product on sale changes nothing.
    public func decide(_ context: DecisionContext, product: ProductState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("relist products")
        try product.checkExists(productId)
        guard product.delisted else { return .nothing }
        return .append(Streams.product(productId), ProductRelisted(productId: productId))
    }
}
