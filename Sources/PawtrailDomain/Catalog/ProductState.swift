public import EventLog
public import Events

/// A product as decisions see it (stream `product-<productId>`).
public struct ProductState: Aggregate, Hashable {
    /// Whether the product was listed.
    public var exists = false
    /// Whether it is off sale: carts, orders and the till refuse it.
    public var delisted = false
    public var name = ""
    /// The selling price; meaningful only when `exists`.
    public var price = Money(0, "BDT")
    public var compareAtPrice: Money?
    public var category = ""
    public var tags: [String] = []
    public var imageRef = ""
    public var description = ""

    public init() {}

    public static let snapshotKind = "product"
    public static let schemaVersion = 2

    public init(reading r: inout some FieldReader) throws(FieldError) {
        exists = try r.bool("exists")
        delisted = try r.bool("delisted")
        name = try r.string("name")
        price = try r.money("price")
        compareAtPrice = try r.optionalMoney("compareAtPrice")
        category = try r.string("category")
        tags = try r.strings("tags")
        imageRef = try r.string("imageRef")
        description = try r.string("description")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("exists", exists)
        w.bool("delisted", delisted)
        w.string("name", name)
        w.money("price", price)
        w.optionalMoney("compareAtPrice", compareAtPrice)
        w.string("category", category)
        w.strings("tags", tags)
        w.string("imageRef", imageRef)
        w.string("description", description)
    }

    public static func evolve(_ state: ProductState, _ event: any DomainEvent) -> ProductState {
        var s = state
        switch event {
        case let e as ProductListed:
            s.exists = true
            s.delisted = false
            s.name = e.name
            s.price = e.price
            s.compareAtPrice = e.compareAtPrice
            s.category = e.category
            s.tags = e.tags
            s.imageRef = e.imageRef
            s.description = e.description
        case let e as ProductDetailsChanged:
            s.name = e.name
            s.description = e.description
            s.category = e.category
            s.tags = e.tags
            s.imageRef = e.imageRef
        case let e as ProductRepriced:
            s.price = e.price
            s.compareAtPrice = e.compareAtPrice
        case is ProductDelisted:
            s.delisted = true
        case is ProductRelisted:
            s.delisted = false
        default:
            break
        }
        return s
    }

    /// Checks that the product exists.
    ///
    /// - Parameter productId: The product's id, for the message.
    /// - Throws: ``DomainError/notFound(_:)``.
    public func checkExists(_ productId: String) throws(DomainError) {
        guard exists else { throw .notFound("product '\(productId)' does not exist") }
    }

    /// Checks that the product exists and is on sale.
    ///
    /// - Parameters:
    ///   - productId: The product's id, for the message.
    ///   - refusal: What cannot happen to a delisted product, completing "it cannot be ..." (`added to a cart`).
    /// - Throws: ``DomainError/notFound(_:)`` or ``DomainError/invalidState(_:)`` naming the product.
    public func checkOnSale(_ productId: String, refusal: String) throws(DomainError) {
        try checkExists(productId)
        guard !delisted else { throw .invalidState("product '\(productId)' (\(name)) is delisted; it cannot be \(refusal)") }
    }

    /// The line snapshot of a purchase of this product at its current price.
    ///
    /// - Parameters:
    ///   - productId: The product's id.
    ///   - quantity: Units bought; small enough that the line total cannot overflow (see ``Validate/price(_:field:)``).
    /// - Returns: The line.
    public func purchaseLine(_ productId: String, quantity: Int64) -> PurchaseLine {
        PurchaseLine(
            productId: productId, name: name, category: category, imageRef: imageRef, unitPrice: price,
            quantity: quantity, lineTotal: Money(price.minorUnits * quantity, price.currency))
    }
}

extension Streams {
    /// A product's listing: name, price, category, tags, image, on sale or not.
    public static func product(_ productId: String) -> StreamID { named("product", productId) }
}
