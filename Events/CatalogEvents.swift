// The catalog area: products (stream `product-<productId>`) and the one-time seeding of the bundled catalog
// (stream `catalog`).

/// A product was put on sale in the catalog.
///
/// Schema version 3 added `description`. Version 2 had no description; version 1 was the seed app's product record
/// as the first importer wrote it: the price in whole taka as a bare integer (`620`), no currency, no compare-at
/// price and no tags. ``upcast(from:reading:)`` turns both into version 3 on read, so older events in a log are
/// never rewritten.
public struct ProductListed: DomainEvent {
    public static let eventType = "ProductListed"
    public static let schemaVersion = 3
    public static let area = "catalog"
    public static let summary =
        "A product was listed with its name, price and optional compare-at price, category, tags, image and description."
    public var productId: String
    public var name: String
    /// The selling price.
    public var price: Money
    /// The "was" price shown struck through; above `price`, in the same currency.
    public var compareAtPrice: Money?
    public var category: String
    public var tags: [String]
    /// The image's reference (an asset name or a content address), not the image itself.
    public var imageRef: String
    /// What the product page says about it; empty when none was given.
    public var description: String

    public init(
        productId: String, name: String, price: Money, compareAtPrice: Money? = nil, category: String,
        tags: [String] = [], imageRef: String, description: String = ""
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
        self = try Self.version2Fields(&r)
        description = try r.optionalString("description") ?? ""
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("name", name)
        w.money("price", price)
        w.optionalMoney("compareAtPrice", compareAtPrice)
        w.string("category", category)
        w.strings("tags", tags)
        w.string("imageRef", imageRef)
        w.optionalString("description", description.isEmpty ? nil : description)
    }

    /// The fields version 2 had, in its order, with no description.
    private static func version2Fields(_ r: inout some FieldReader) throws(FieldError) -> ProductListed {
        ProductListed(
            productId: try r.string("productId"), name: try r.string("name"), price: try r.money("price"),
            compareAtPrice: try r.optionalMoney("compareAtPrice"), category: try r.string("category"),
            tags: try r.strings("tags"), imageRef: try r.string("imageRef"))
    }

    /// The currency of version 1 prices: the seed app sold in Bangladeshi taka only.
    public static let version1Currency = "BDT"

    /// Reads version 2 (the current fields without `description`) and version 1: `productId`, `name`, `price` (an
    /// integer of whole taka), `category`, `imageRef`, whose price becomes minor units of BDT (1 taka = 100 poisha).
    ///
    /// - Parameters:
    ///   - version: The stored version, 1 or 2.
    ///   - reader: A reader at the first field.
    /// - Returns: The event in the version 3 shape, with an empty description.
    /// - Throws: ``FieldError`` for an unknown version, malformed fields, or a price too large for minor units.
    public static func upcast(from version: Int, reading r: inout BinaryFieldReader) throws(FieldError) -> ProductListed {
        if version == 2 { return try version2Fields(&r) }
        guard version == 1 else {
            throw FieldError(field: "", message: "\(eventType) has no schema version \(version)")
        }
        let productId = try r.string("productId")
        let name = try r.string("name")
        let wholeTaka = try r.int("price")
        let category = try r.string("category")
        let imageRef = try r.string("imageRef")
        let (minor, overflow) = wholeTaka.multipliedReportingOverflow(by: 100)
        guard !overflow else {
            throw FieldError(field: "price", message: "\(wholeTaka) taka does not fit in minor units")
        }
        return ProductListed(
            productId: productId, name: name, price: Money(minor, version1Currency), compareAtPrice: nil,
            category: category, tags: [], imageRef: imageRef)
    }
}

/// A product's details changed after listing: the event carries all of them as they are now, so a reader needs no
/// earlier event to know them.
public struct ProductDetailsChanged: DomainEvent {
    public static let eventType = "ProductDetailsChanged"
    public static let area = "catalog"
    public static let summary = "A product was renamed, described, recategorized, retagged or given another image (all its details as they are now)."
    public var productId: String
    public var name: String
    public var description: String
    public var category: String
    public var tags: [String]
    public var imageRef: String

    public init(productId: String, name: String, description: String, category: String, tags: [String], imageRef: String) {
        self.productId = productId
        self.name = name
        self.description = description
        self.category = category
        self.tags = tags
        self.imageRef = imageRef
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productId = try r.string("productId")
        name = try r.string("name")
        description = try r.optionalString("description") ?? ""
        category = try r.string("category")
        tags = try r.strings("tags")
        imageRef = try r.string("imageRef")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("productId", productId)
        w.string("name", name)
        w.optionalString("description", description.isEmpty ? nil : description)
        w.string("category", category)
        w.strings("tags", tags)
        w.string("imageRef", imageRef)
    }
}

/// A product's price changed.
public struct ProductRepriced: DomainEvent {
    public static let eventType = "ProductRepriced"
    public static let area = "catalog"
    public static let summary = "A product's price and compare-at price were changed."
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
}

/// A product was taken off sale: it can no longer be put in a cart, ordered or sold.
public struct ProductDelisted: DomainEvent {
    public static let eventType = "ProductDelisted"
    public static let area = "catalog"
    public static let summary = "A product was taken off sale; carts, orders and the till refuse it."
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
}

/// A delisted product was put back on sale.
public struct ProductRelisted: DomainEvent {
    public static let eventType = "ProductRelisted"
    public static let area = "catalog"
    public static let summary = "A delisted product was put back on sale."
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
}

/// The bundled catalog was seeded: the marker that makes seeding happen once (stream `catalog`).
public struct CatalogSeeded: DomainEvent {
    public static let eventType = "CatalogSeeded"
    public static let area = "catalog"
    public static let summary = "The bundled catalog was seeded, once; lists the products it listed."
    /// The products the seed listed (bundled products that existed already are left out).
    public var productIds: [String]

    public init(productIds: [String]) {
        self.productIds = productIds
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        productIds = try r.strings("productIds")
    }

    public func write(to w: inout some FieldWriter) {
        w.strings("productIds", productIds)
    }
}

/// The catalog area's event types, in catalog order.
public enum CatalogEvents {
    public static let all: [any DomainEvent.Type] = [
        ProductListed.self, ProductRepriced.self, ProductDelisted.self, ProductRelisted.self, ProductDetailsChanged.self, CatalogSeeded.self,
    ]
}
