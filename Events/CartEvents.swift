// The carts area: a customer's or a guest's cart (stream `cart-<ownerId>`).

/// A product was put in the cart (or more of it).
public struct CartItemAdded: DomainEvent {
    public static let eventType = "CartItemAdded"
    public static let area = "carts"
    public static let summary = "Units of a product were added to a cart."
    public var ownerId: String
    public var productId: String
    public var quantity: Int64

    public init(ownerId: String, productId: String, quantity: Int64) {
        self.ownerId = ownerId
        self.productId = productId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.string("ownerId")
        productId = try r.string("productId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("ownerId", ownerId)
        w.string("productId", productId)
        w.int("quantity", quantity)
    }
}

/// A cart line's quantity was set.
public struct CartItemQuantityChanged: DomainEvent {
    public static let eventType = "CartItemQuantityChanged"
    public static let area = "carts"
    public static let summary = "The quantity of a cart line was changed."
    public var ownerId: String
    public var productId: String
    public var quantity: Int64

    public init(ownerId: String, productId: String, quantity: Int64) {
        self.ownerId = ownerId
        self.productId = productId
        self.quantity = quantity
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.string("ownerId")
        productId = try r.string("productId")
        quantity = try r.int("quantity")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("ownerId", ownerId)
        w.string("productId", productId)
        w.int("quantity", quantity)
    }
}

/// A line was taken out of the cart.
public struct CartItemRemoved: DomainEvent {
    public static let eventType = "CartItemRemoved"
    public static let area = "carts"
    public static let summary = "A product was removed from a cart."
    public var ownerId: String
    public var productId: String

    public init(ownerId: String, productId: String) {
        self.ownerId = ownerId
        self.productId = productId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.string("ownerId")
        productId = try r.string("productId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("ownerId", ownerId)
        w.string("productId", productId)
    }
}

/// Why a cart was emptied.
public enum CartClearReason: String, FieldChoice {
    /// The owner emptied it.
    case cleared
    /// An order was placed from it.
    case checkedOut = "checked-out"
    /// It was merged into an account's cart on sign-up or log-in.
    case merged
}

/// The cart was emptied.
public struct CartCleared: DomainEvent {
    public static let eventType = "CartCleared"
    public static let area = "carts"
    public static let summary = "A cart was emptied: by its owner, by a checkout, or by a merge into an account."
    public var ownerId: String
    public var reason: CartClearReason
    /// The order placed from the cart, or the account it was merged into.
    public var reference: String?

    public init(ownerId: String, reason: CartClearReason, reference: String? = nil) {
        self.ownerId = ownerId
        self.reason = reason
        self.reference = reference
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.string("ownerId")
        reason = try r.choice("reason", CartClearReason.self)
        reference = try r.optionalString("reference")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("ownerId", ownerId)
        w.choice("reason", reason)
        w.optionalString("reference", reference)
    }
}

/// The carts area's event types, in catalog order.
public enum CartEvents {
    public static let all: [any DomainEvent.Type] = [
        CartItemAdded.self, CartItemQuantityChanged.self, CartItemRemoved.self, CartCleared.self,
    ]
}
