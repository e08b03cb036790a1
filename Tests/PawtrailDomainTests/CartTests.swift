import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Carts")
struct CartTests {
    static func customer() async throws -> DomainScenario {
        let s = try await Self.shop()
        try await s.given(Streams.account("u-ann"), AccountSignedUp(userId: "u-ann", name: "Ann", email: "ann@example.com", language: .enUS))
        return s
    }

    /// A scenario whose catalog lists `litter` and `food`.
    static func shop() async throws -> DomainScenario {
        let s = DomainScenario()
        for id in ["litter", "food"] {
            try await s.given(Streams.product(id), ProductListed(productId: id, name: id, price: Money(10_000, "BDT"), category: "cat", imageRef: "img_\(id)"))
        }
        return s
    }

    @Test func addingSumsIntoOneLine() async throws {
        let s = try await Self.customer()
        try await s.then("u-ann", AddToCart(productId: "litter", quantity: 2), appends: [(stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 2))])
        try await s.then("u-ann", AddToCart(productId: "litter", quantity: 98), throws: .invalid(field: "quantity", reason: "the cart holds 2 of 'litter'; a line holds at most 99"))
    }

    @Test func guestsHaveCartsToo() async throws {
        try await Self.shop().then(
            "guest-7", AddToCart(productId: "litter"), appends: [(stream("cart-guest-7"), CartItemAdded(ownerId: "guest-7", productId: "litter", quantity: 1))])
    }

    @Test func usersWithoutAnAccountHaveNoCart() async throws {
        try await DomainScenario().then("u-nobody", AddToCart(productId: "litter"), throws: .forbidden("user 'u-nobody' has no account"))
    }

    @Test(arguments: [0, -1, 100]) func quantitiesOutOfRangeAreRejected(_ q: Int64) async throws {
        let s = try await Self.customer()
        try await s.then("u-ann", AddToCart(productId: "litter", quantity: q), throws: .invalid(field: "quantity", reason: "must be between 1 and 99, got \(q)"))
    }

    @Test func onlyListedProductsOnSaleGoInACart() async throws {
        let s = try await Self.customer()
        try await s.then("u-ann", AddToCart(productId: "ghost"), throws: .notFound("product 'ghost' does not exist"))
        try await s.given(Streams.product("food"), ProductDelisted(productId: "food"))
        try await s.then("u-ann", AddToCart(productId: "food"), throws: .invalidState("product 'food' (food) is delisted; it cannot be added to a cart"))
        try await s.given(Streams.product("food"), ProductRelisted(productId: "food"))
        try await s.then("u-ann", AddToCart(productId: "food"), appends: [(stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "food", quantity: 1))])
    }

    @Test func changeRemoveAndClear() async throws {
        let s = try await Self.customer()
        try await s.given(stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 2), CartItemAdded(ownerId: "u-ann", productId: "food", quantity: 1))
        try await s.then("u-ann", ChangeCartQuantity(productId: "litter", quantity: 5), appends: [(stream("cart-u-ann"), CartItemQuantityChanged(ownerId: "u-ann", productId: "litter", quantity: 5))])
        try await s.then("u-ann", ChangeCartQuantity(productId: "litter", quantity: 5), appends: [])
        try await s.then("u-ann", ChangeCartQuantity(productId: "toy", quantity: 5), throws: .notFound("product 'toy' is not in the cart"))
        try await s.then("u-ann", RemoveFromCart(productId: "food"), appends: [(stream("cart-u-ann"), CartItemRemoved(ownerId: "u-ann", productId: "food"))])
        try await s.then("u-ann", RemoveFromCart(productId: "food"), throws: .notFound("product 'food' is not in the cart"))
        try await s.then("u-ann", ClearCart(), appends: [(stream("cart-u-ann"), CartCleared(ownerId: "u-ann", reason: .cleared))])
        try await s.then("u-ann", ClearCart(), appends: [])
    }
}
