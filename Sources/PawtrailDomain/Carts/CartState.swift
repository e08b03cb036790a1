public import EventLog
public import Events

/// A cart as decisions see it (stream `cart-<ownerId>`): quantities by product, in the order first added.
public struct CartState: Aggregate, Hashable {
    /// One line.
    public struct Line: Hashable, Sendable, FieldCodable {
        public var productId: String
        public var quantity: Int64

        public init(productId: String, quantity: Int64) {
            self.productId = productId
            self.quantity = quantity
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            productId = try r.string("productId")
            quantity = try r.int("quantity")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("productId", productId)
            w.int("quantity", quantity)
        }
    }

    /// The lines, in the order their products were first added.
    public var lines: [Line] = []

    /// The most units of one product a cart line holds.
    public static let maxQuantity: Int64 = 99
    /// The most lines a cart holds.
    public static let maxLines = 100

    public init() {}

    public static let snapshotKind = "cart"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        lines = try r.records("lines", Line.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.records("lines", lines)
    }

    /// The quantity of a product, 0 when it is not in the cart.
    public func quantity(of productId: String) -> Int64 {
        lines.first { $0.productId == productId }?.quantity ?? 0
    }

    public static func evolve(_ state: CartState, _ event: any DomainEvent) -> CartState {
        var s = state
        switch event {
        case let e as CartItemAdded:
            if let i = s.lines.firstIndex(where: { $0.productId == e.productId }) {
                s.lines[i].quantity += e.quantity
            } else {
                s.lines.append(Line(productId: e.productId, quantity: e.quantity))
            }
        case let e as CartItemQuantityChanged:
            if let i = s.lines.firstIndex(where: { $0.productId == e.productId }) { s.lines[i].quantity = e.quantity }
        case let e as CartItemRemoved:
            s.lines.removeAll { $0.productId == e.productId }
        case is CartCleared:
            s.lines = []
        default:
            break
        }
        return s
    }
}

extension Streams {
    /// The cart of a customer or a guest.
    public static func cart(_ ownerId: String) -> StreamID { named("cart", ownerId) }
}
