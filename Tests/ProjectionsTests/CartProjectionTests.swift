import Events
import Projections
import Testing

@Suite("Cart projection")
struct CartProjectionTests {
    static func bdt(_ minor: Int64) -> Money { Money(minor, "BDT") }

    static func list(
        _ s: inout ProjectionScenario, _ id: String, _ name: String, _ price: Int64, was: Int64? = nil, _ category: String,
        stock: Int64 = 20
    ) {
        s.given(
            "product-\(id)",
            ProductListed(
                productId: id, name: name, price: bdt(price), compareAtPrice: was.map(bdt), category: category, tags: [],
                imageRef: "img_\(id)"))
        s.given("inventory-\(id)", StockReceived(productId: id, quantity: stock))
    }

    static func add(_ s: inout ProjectionScenario, _ owner: String, _ product: String, _ quantity: Int64 = 1) {
        s.given("cart-\(owner)", CartItemAdded(ownerId: owner, productId: product, quantity: quantity))
    }

    /// The position the next event will have, as a line's `addedAt`.
    static func next(_ s: ProjectionScenario) -> Int64 { Int64(s.events.count) }

    /// Eleven products, 20 units of each received but 2 of litter; units sold: leash 9, tofu 6, collar 4, post 3,
    /// mouse 3, kibble 2, fountain 1, others 0.
    static func catalog() -> ProjectionScenario {
        var s = ProjectionScenario()
        list(&s, "litter", "Black Sand Cat Litter 10L", 62_000, was: 70_000, "cat", stock: 2)
        list(&s, "tofu", "Tofu Cat Litter 6L", 85_000, "cat")
        list(&s, "kibble", "Kitten Dry Food 1.1kg", 69_000, was: 75_000, "cat")
        list(&s, "post", "Sisal Scratching Post", 145_000, "cat")
        list(&s, "mouse", "Catnip Mouse Toys", 25_000, "cat")
        list(&s, "brush", "Soft Cat Brush", 30_000, "cat")
        list(&s, "fountain", "Water Fountain", 210_000, "cat")
        list(&s, "leash", "Nylon Dog Leash", 45_000, "dog")
        list(&s, "puppy", "Puppy Dry Food", 98_000, "dog")
        list(&s, "bowl", "Steel Pet Bowl", 35_000, was: 40_000, "accessories")
        list(&s, "collar", "Pet Collar with Bell", 28_000, "accessories")
        s.given("inventory-leash", StockSoldInStore(productId: "leash", saleId: "s-1", quantity: 9))
        s.given("inventory-tofu", StockReserved(productId: "tofu", orderId: "o-1", quantity: 6))
        s.given("inventory-tofu", StockReservationFulfilled(productId: "tofu", orderId: "o-1", quantity: 6))
        s.given("inventory-collar", StockSoldInStore(productId: "collar", saleId: "s-2", quantity: 4))
        s.given("inventory-post", StockSoldInStore(productId: "post", saleId: "s-3", quantity: 3))
        s.given("inventory-mouse", StockSoldInStore(productId: "mouse", saleId: "s-4", quantity: 3))
        s.given("inventory-kibble", StockSoldInStore(productId: "kibble", saleId: "s-5", quantity: 2))
        s.given("inventory-fountain", StockSoldInStore(productId: "fountain", saleId: "s-6", quantity: 1))
        s.given("inventory-brush", StockReserved(productId: "brush", orderId: "o-2", quantity: 8))
        return s
    }

    /// u-1: litter 2 + 1, bowl 1.
    static func scenario() -> ProjectionScenario {
        var s = catalog()
        add(&s, "u-1", "litter", 2)
        add(&s, "u-1", "bowl")
        add(&s, "u-1", "litter")
        return s
    }

    static func view(_ s: ProjectionScenario, _ owner: String) throws -> ViewOutput {
        try s.view(CartView.self, ["owner": owner])
    }

    static func recommended(_ out: ViewOutput) -> [String] {
        guard case .array(let items)? = out.json["recommendations"] else { return [] }
        return items.compactMap { if case .string(let id)? = $0["productId"] { id } else { nil } }
    }

    // MARK: - The fold

    @Test func productsAreKeptOnceAndCartsAsLinesWithThePositionOfTheirFirstAdd() throws {
        var s = Self.catalog()
        let litterAt = Self.next(s)
        Self.add(&s, "u-1", "litter", 2)
        let bowlAt = Self.next(s)
        Self.add(&s, "u-1", "bowl")
        Self.add(&s, "u-1", "litter")
        let guestAt = Self.next(s)
        Self.add(&s, "guest-1", "mouse", 4)
        let state = try s.state(CartProjection.self)
        #expect(state.products.count == 11)
        #expect(
            state.products["litter"]
                == CatalogProjection.Product(
                    name: "Black Sand Cat Litter 10L", price: Self.bdt(62_000), compareAtPrice: Self.bdt(70_000),
                    category: "cat", imageRef: "img_litter", listed: true, unitsSold: 0))
        #expect(state.products["tofu"]?.unitsSold == 6)
        #expect(state.products["brush"]?.unitsSold == 0, "reserved is not sold")
        #expect(
            state.carts.entries == [
                "u-1": CartProjection.Cart(lines: [
                    "litter": CartProjection.Line(quantity: 3, addedAt: litterAt),
                    "bowl": CartProjection.Line(quantity: 1, addedAt: bowlAt),
                ]),
                "guest-1": CartProjection.Cart(lines: ["mouse": CartProjection.Line(quantity: 4, addedAt: guestAt)]),
            ])
    }

    @Test func aQuantityChangeSetsTheLineInPlaceAndARemovedProductAddedAgainGoesLast() throws {
        var s = Self.scenario()
        Self.add(&s, "u-1", "mouse")
        s.given("cart-u-1", CartItemQuantityChanged(ownerId: "u-1", productId: "litter", quantity: 5))
        s.given("cart-u-1", CartItemRemoved(ownerId: "u-1", productId: "bowl"))
        Self.add(&s, "u-1", "bowl", 2)
        s.given("cart-u-1", CartItemQuantityChanged(ownerId: "u-1", productId: "post", quantity: 3))
        let state = try s.state(CartProjection.self)
        #expect(state.carts["u-1"]!.orderedLines.map { "\($0.productId)=\($0.line.quantity)" } == ["litter=5", "mouse=1", "bowl=2"])
        #expect(state.carts["u-1"]!.lines["post"] == nil, "a change to a line that is not there adds nothing")
        #expect(try Self.view(s, "u-1").rows.map { [$0[0], $0[2]] } == [["litter", "5"], ["mouse", "1"], ["bowl", "2"]])
    }

    @Test func aClearACheckoutAndAMergeEmptyTheCartButKeepIt() throws {
        var s = Self.scenario()
        Self.add(&s, "u-2", "tofu")
        Self.add(&s, "guest-7", "kibble", 2)
        s.given("cart-u-1", CartCleared(ownerId: "u-1", reason: .cleared))
        s.given("cart-u-2", CartCleared(ownerId: "u-2", reason: .checkedOut, reference: "o-9"))
        s.given("cart-u-3", CartItemAdded(ownerId: "u-3", productId: "kibble", quantity: 2))
        s.given("cart-guest-7", CartCleared(ownerId: "guest-7", reason: .merged, reference: "u-3"))
        let state = try s.state(CartProjection.self)
        #expect(state.carts["u-1"] == CartProjection.Cart())
        #expect(state.carts["u-2"] == CartProjection.Cart())
        #expect(state.carts["guest-7"] == CartProjection.Cart())
        #expect(state.carts["u-3"]?.lines["kibble"]?.quantity == 2)
        Self.add(&s, "u-1", "post")
        #expect(try Self.view(s, "u-1").rows.map { $0[0] } == ["post"], "a cleared cart fills again")
    }

    @Test func theFoldReadsCartProductAndSoldEvents() {
        #expect(
            CartProjection.eventTypes
                == [
                    "ProductListed", "ProductRepriced", "ProductDelisted", "ProductRelisted", "ProductDetailsChanged",
                    "StockReservationFulfilled", "StockSoldInStore", "StockReceived", "StockAdjusted", "StockReserved",
                    "StockReleased", "StockReturned", "CartItemAdded", "CartItemQuantityChanged", "CartItemRemoved", "CartCleared",
                ])
    }

    // MARK: - The view: lines, totals, savings

    @Test func linesAtCurrentPricesWithSubtotalSavingsAndTotal() throws {
        let out = try Self.view(Self.scenario(), "u-1")
        #expect(out.title == "Cart of u-1")
        #expect(out.header == ["PRODUCT", "NAME", "QTY", "UNIT PRICE", "WAS", "LINE TOTAL", "SAVING", "STOCK"])
        #expect(
            out.rows == [
                ["litter", "Black Sand Cat Litter 10L", "3", "620.00 BDT", "700.00 BDT", "1,860.00 BDT", "240.00 BDT", "only 2 left (you have 3)"],
                ["bowl", "Steel Pet Bowl", "1", "350.00 BDT", "400.00 BDT", "350.00 BDT", "50.00 BDT", "in stock"],
            ])
        #expect(
            out.footer == [
                "Subtotal: 2,210.00 BDT", "Savings: 290.00 BDT", "Total: 2,210.00 BDT",
                "Short of stock at checkout: Black Sand Cat Litter 10L (3 wanted, 2 available)",
                "Recommended: Tofu Cat Litter 6L (tofu), Pet Collar with Bell (collar), Catnip Mouse Toys (mouse), Sisal Scratching Post (post), Kitten Dry Food 1.1kg (kibble)",
            ])
    }

    @Test func aRepriceAfterTheAddChangesTheCartsTotalsAndSavings() throws {
        var s = Self.scenario()
        s.given("product-litter", ProductRepriced(productId: "litter", price: Self.bdt(58_000), compareAtPrice: Self.bdt(70_000)))
        var out = try Self.view(s, "u-1")
        #expect(out.rows[0] == ["litter", "Black Sand Cat Litter 10L", "3", "580.00 BDT", "700.00 BDT", "1,740.00 BDT", "360.00 BDT", "only 2 left (you have 3)"])
        #expect(Array(out.footer.prefix(3)) == ["Subtotal: 2,090.00 BDT", "Savings: 410.00 BDT", "Total: 2,090.00 BDT"])
        // A reprice without a compare-at price removes the saving of its line.
        s.given("product-bowl", ProductRepriced(productId: "bowl", price: Self.bdt(36_000)))
        out = try Self.view(s, "u-1")
        #expect(out.rows[1] == ["bowl", "Steel Pet Bowl", "1", "360.00 BDT", "", "360.00 BDT", "", "in stock"])
        #expect(Array(out.footer.prefix(3)) == ["Subtotal: 2,100.00 BDT", "Savings: 360.00 BDT", "Total: 2,100.00 BDT"])
    }

    @Test func savingsCountOnlyLinesWithACompareAtPrice() throws {
        var s = Self.catalog()
        Self.add(&s, "u-5", "tofu", 2)
        Self.add(&s, "u-5", "kibble", 3)
        let out = try Self.view(s, "u-5")
        #expect(out.rows.map { $0[6] } == ["", "180.00 BDT"])
        #expect(Array(out.footer.prefix(3)) == ["Subtotal: 3,770.00 BDT", "Savings: 180.00 BDT", "Total: 3,770.00 BDT"])
        Self.add(&s, "u-6", "tofu")
        #expect(Array(try Self.view(s, "u-6").footer.prefix(3)) == ["Subtotal: 850.00 BDT", "Savings: 0.00 BDT", "Total: 850.00 BDT"])
    }

    @Test func aDelistedLineIsShownButLeftOutOfTheTotals() throws {
        var s = Self.scenario()
        s.given("product-bowl", ProductDelisted(productId: "bowl"))
        let out = try Self.view(s, "u-1")
        #expect(out.rows[1] == ["bowl", "Steel Pet Bowl (delisted, not in the totals)", "1", "350.00 BDT", "400.00 BDT", "350.00 BDT", "50.00 BDT", "in stock"])
        #expect(Array(out.footer.prefix(3)) == ["Subtotal: 1,860.00 BDT", "Savings: 240.00 BDT", "Total: 1,860.00 BDT"])
        s.given("product-bowl", ProductRelisted(productId: "bowl"))
        #expect(try Self.view(s, "u-1").footer[0] == "Subtotal: 2,210.00 BDT", "relisted, it counts again")
    }

    @Test func aLineInAnotherCurrencyOrOfAnUnknownProductIsLeftOutOfTheTotals() throws {
        var s = Self.catalog()
        s.given(
            "product-usd",
            ProductListed(productId: "usd", name: "Imported Fish Net", price: Money(500, "USD"), category: "fish", imageRef: "img_usd"))
        Self.add(&s, "u-7", "litter")
        Self.add(&s, "u-7", "usd", 2)
        Self.add(&s, "u-7", "ghost", 3)
        let out = try Self.view(s, "u-7")
        #expect(
            out.rows == [
                ["litter", "Black Sand Cat Litter 10L", "1", "620.00 BDT", "700.00 BDT", "620.00 BDT", "80.00 BDT", "only 2 left"],
                ["usd", "Imported Fish Net (in USD, not in the totals)", "2", "5.00 USD", "", "10.00 USD", "", "out of stock"],
                ["ghost", "(unknown product)", "3", "", "", "", "", ""],
            ])
        #expect(Array(out.footer.prefix(3)) == ["Subtotal: 620.00 BDT", "Savings: 80.00 BDT", "Total: 620.00 BDT"])
        guard case .array(let lines)? = out.json["lines"] else { Issue.record("no lines"); return }
        #expect(lines.map { $0["status"] } == [.string("ok"), .string("other-currency"), .string("unknown")])
        #expect(
            lines[2].serialized
                == #"{"productId":"ghost","name":null,"category":null,"imageRef":null,"quantity":3,"unitPrice":null,"compareAtPrice":null,"lineTotal":null,"saving":null,"status":"unknown","stock":null}"#
        )
        // The cart's currency is its first sellable line's.
        Self.add(&s, "u-8", "usd")
        Self.add(&s, "u-8", "tofu")
        #expect(Array(try Self.view(s, "u-8").footer.prefix(3)) == ["Subtotal: 5.00 USD", "Savings: 0.00 USD", "Total: 5.00 USD"])
    }

    // MARK: - Recommendations

    @Test func recommendationsAreTheTopFiveListedProductsOfTheCartsCategoriesNotInTheCart() throws {
        var s = Self.scenario()
        #expect(try Self.recommended(Self.view(s, "u-1")) == ["tofu", "collar", "mouse", "post", "kibble"])
        Self.add(&s, "u-1", "tofu")
        #expect(try Self.recommended(Self.view(s, "u-1")) == ["collar", "mouse", "post", "kibble", "fountain"], "not in the cart")
        s.given("product-collar", ProductDelisted(productId: "collar"))
        #expect(try Self.recommended(Self.view(s, "u-1")) == ["mouse", "post", "kibble", "fountain", "brush"], "listed only; ties by name")
        s.given("inventory-brush", StockReservationFulfilled(productId: "brush", orderId: "o-2", quantity: 8))
        #expect(try Self.recommended(Self.view(s, "u-1")) == ["brush", "mouse", "post", "kibble", "fountain"], "popularity follows sales")
    }

    @Test func recommendationsComeOnlyFromTheCartsCategoriesIncludingADelistedLines() throws {
        var s = Self.catalog()
        Self.add(&s, "u-4", "leash")
        #expect(try Self.recommended(Self.view(s, "u-4")) == ["puppy"])
        s.given("product-leash", ProductDelisted(productId: "leash"))
        #expect(try Self.recommended(Self.view(s, "u-4")) == ["puppy"], "a delisted line's category still recommends")
        Self.add(&s, "u-4", "puppy")
        let out = try Self.view(s, "u-4")
        #expect(Self.recommended(out) == [], "nothing else in the category")
        #expect(out.footer == ["Subtotal: 980.00 BDT", "Savings: 0.00 BDT", "Total: 980.00 BDT"], "no recommendation line")
    }

    // MARK: - Owners

    @Test func anOwnerWithoutACartIsNotFoundAndTheOwnerIsRequired() {
        let s = Self.scenario()
        #expect(throws: ViewError.notFound("no cart for 'u-x'")) { try Self.view(s, "u-x") }
        #expect(throws: ViewError.missing("owner")) { try s.view(CartView.self) }
    }

    @Test func anEmptiedCartShowsEmptyWithZeroTotalsAndNoRecommendations() throws {
        var s = Self.scenario()
        s.given("cart-u-1", CartCleared(ownerId: "u-1", reason: .checkedOut, reference: "o-5"))
        let out = try Self.view(s, "u-1")
        #expect(out.title == "Cart of u-1 (empty)")
        #expect(out.rows.isEmpty)
        #expect(out.footer == ["Subtotal: 0.00 BDT", "Savings: 0.00 BDT", "Total: 0.00 BDT"])
        #expect(
            out.json.serialized
                == #"{"owner":"u-1","lines":[],"subtotal":{"amount":0,"currency":"BDT"},"savings":{"amount":0,"currency":"BDT"},"total":{"amount":0,"currency":"BDT"},"shortOfStock":[],"recommendations":[]}"#
        )
        // A removal alone makes a cart known too.
        s.given("cart-u-9", CartItemRemoved(ownerId: "u-9", productId: "tofu"))
        #expect(try Self.view(s, "u-9").title == "Cart of u-9 (empty)")
    }

    @Test func aGuestCartMergedIntoAnAccountMovesItsLines() throws {
        var s = Self.catalog()
        Self.add(&s, "guest-1", "kibble")
        Self.add(&s, "u-2", "kibble")
        // The merge: the account's cart gets the guest's units, the guest's cart is emptied.
        Self.add(&s, "u-2", "kibble")
        s.given("cart-guest-1", CartCleared(ownerId: "guest-1", reason: .merged, reference: "u-2"))
        #expect(try Self.view(s, "guest-1").rows.isEmpty)
        let out = try Self.view(s, "u-2")
        #expect(out.rows == [["kibble", "Kitten Dry Food 1.1kg", "2", "690.00 BDT", "750.00 BDT", "1,380.00 BDT", "120.00 BDT", "in stock"]])
        #expect(
            out.json.serialized
                == #"{"owner":"u-2","lines":[{"productId":"kibble","name":"Kitten Dry Food 1.1kg","category":"cat","imageRef":"img_kibble","quantity":2,"unitPrice":{"amount":69000,"currency":"BDT"},"compareAtPrice":{"amount":75000,"currency":"BDT"},"lineTotal":{"amount":138000,"currency":"BDT"},"saving":{"amount":12000,"currency":"BDT"},"status":"ok","stock":{"level":"in-stock"}}],"subtotal":{"amount":138000,"currency":"BDT"},"savings":{"amount":12000,"currency":"BDT"},"total":{"amount":138000,"currency":"BDT"},"shortOfStock":[],"recommendations":[{"productId":"tofu","name":"Tofu Cat Litter 6L","category":"cat","price":{"amount":85000,"currency":"BDT"},"unitsSold":6},{"productId":"mouse","name":"Catnip Mouse Toys","category":"cat","price":{"amount":25000,"currency":"BDT"},"unitsSold":3},{"productId":"post","name":"Sisal Scratching Post","category":"cat","price":{"amount":145000,"currency":"BDT"},"unitsSold":3},{"productId":"fountain","name":"Water Fountain","category":"cat","price":{"amount":210000,"currency":"BDT"},"unitsSold":1},{"productId":"litter","name":"Black Sand Cat Litter 10L","category":"cat","price":{"amount":62000,"currency":"BDT"},"unitsSold":0}]}"#
        )
    }
}
