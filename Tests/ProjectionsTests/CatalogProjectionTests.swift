import Events
import Projections
import Testing

@Suite("Catalog projection")
struct CatalogProjectionTests {
    static func bdt(_ minor: Int64) -> Money { Money(minor, "BDT") }

    /// Six products; the bowl is delisted. Units sold: litter 4 (3 shipped, 1 at the till), tofu 2 (2 of 5 reserved
    /// shipped), puppy 2 (till), bowl 7 (till, before it was delisted), kibble and leash none. Available: litter 4 of 8
    /// received, tofu 10 of 12, puppy 3 of 5, bowl 3 of 10, kibble 40, leash none received.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given(
            "product-litter",
            ProductListed(
                productId: "litter", name: "Black Sand Cat Litter 10L", price: bdt(62_000), compareAtPrice: bdt(70_000),
                category: "cat", tags: ["litter", "clumping"], imageRef: "img_litter"))
        s.given(
            "product-tofu",
            ProductListed(
                productId: "tofu", name: "Tofu Cat Litter 6L", price: bdt(85_000), category: "cat",
                tags: ["litter", "eco friendly"], imageRef: "img_tofu"))
        s.given(
            "product-kibble",
            ProductListed(
                productId: "kibble", name: "Kitten Dry Food 1.1kg", price: bdt(69_000), category: "cat", tags: ["food"],
                imageRef: "img_kibble"))
        s.given(
            "product-puppy",
            ProductListed(
                productId: "puppy", name: "Puppy Dry Food 1.5kg", price: bdt(98_000), category: "dog", tags: ["food"],
                imageRef: "img_puppy"))
        s.given(
            "product-leash",
            ProductListed(productId: "leash", name: "Nylon Dog Leash", price: bdt(45_000), category: "dog", imageRef: "img_leash"))
        s.given(
            "product-bowl",
            ProductListed(
                productId: "bowl", name: "Steel Pet Bowl", price: bdt(35_000), category: "accessories", tags: ["bowl"],
                imageRef: "img_bowl"))
        for (id, units) in [("litter", Int64(8)), ("tofu", 12), ("puppy", 5), ("bowl", 10)] {
            s.given("inventory-\(id)", StockReceived(productId: id, quantity: units))
        }
        s.given("inventory-litter", StockReserved(productId: "litter", orderId: "o-1", quantity: 3))
        s.given("inventory-litter", StockReservationFulfilled(productId: "litter", orderId: "o-1", quantity: 3))
        s.given("inventory-litter", StockSoldInStore(productId: "litter", saleId: "s-1", quantity: 1))
        s.given("inventory-tofu", StockReserved(productId: "tofu", orderId: "o-2", quantity: 5))
        s.given("inventory-tofu", StockReserved(productId: "tofu", orderId: "o-3", quantity: 2))
        s.given("inventory-tofu", StockReleased(productId: "tofu", orderId: "o-2", quantity: 5))
        s.given("inventory-tofu", StockReservationFulfilled(productId: "tofu", orderId: "o-3", quantity: 2))
        s.given("inventory-puppy", StockSoldInStore(productId: "puppy", saleId: "s-2", quantity: 2))
        s.given("inventory-bowl", StockSoldInStore(productId: "bowl", saleId: "s-3", quantity: 7))
        s.given("inventory-kibble", StockReceived(productId: "kibble", quantity: 40))
        s.given("product-bowl", ProductDelisted(productId: "bowl"))
        return s
    }

    static func ids(_ out: ViewOutput) -> [String] { out.rows.map { $0[0] } }

    static func ids(_ args: [String: String], _ s: ProjectionScenario = scenario()) throws -> [String] {
        ids(try s.view(CatalogView.self, args))
    }

    // MARK: - The fold

    @Test func productsKeepTheirDescriptionListingAndUnitsSoldFromShipmentsAndTillSalesOnly() throws {
        let state = try Self.scenario().state(CatalogProjection.self)
        #expect(state.products.count == 6)
        #expect(
            state.products["litter"]
                == CatalogProjection.Product(
                    name: "Black Sand Cat Litter 10L", price: Self.bdt(62_000), compareAtPrice: Self.bdt(70_000),
                    category: "cat", tags: ["litter", "clumping"], imageRef: "img_litter", listed: true, unitsSold: 4))
        #expect(state.products["tofu"]?.unitsSold == 2, "reserved but not shipped, or released, is not sold")
        #expect(state.products["puppy"]?.unitsSold == 2)
        #expect(state.products["kibble"]?.unitsSold == 0, "received stock is not sold")
        #expect(state.products["bowl"]?.listed == false)
        #expect(state.products["bowl"]?.unitsSold == 7)
    }

    @Test func aRepriceSetsThePriceAndAnAbsentCompareAtPriceRemovesIt() throws {
        var s = Self.scenario()
        s.given("product-litter", ProductRepriced(productId: "litter", price: Self.bdt(58_000)))
        s.given("product-kibble", ProductRepriced(productId: "kibble", price: Self.bdt(65_000), compareAtPrice: Self.bdt(69_000)))
        let state = try s.state(CatalogProjection.self)
        #expect(state.products["litter"]?.price == Self.bdt(58_000))
        #expect(state.products["litter"]?.compareAtPrice == nil)
        #expect(state.products["kibble"]?.price == Self.bdt(65_000))
        #expect(state.products["kibble"]?.compareAtPrice == Self.bdt(69_000))
    }

    @Test func aRelistShowsTheProductAgainAndAListingAgainKeepsUnitsSold() throws {
        var s = Self.scenario()
        s.given("product-bowl", ProductRelisted(productId: "bowl"))
        s.given(
            "product-litter",
            ProductListed(productId: "litter", name: "Cat Litter 10L", price: Self.bdt(60_000), category: "cat", imageRef: "img2"))
        let state = try s.state(CatalogProjection.self)
        #expect(state.products["bowl"]?.listed == true)
        #expect(
            state.products["litter"]
                == CatalogProjection.Product(
                    name: "Cat Litter 10L", price: Self.bdt(60_000), category: "cat", imageRef: "img2", listed: true,
                    unitsSold: 4))
        #expect(try Self.ids([:], s) == ["litter", "kibble", "leash", "puppy", "bowl", "tofu"])
    }

    @Test func salesOfAProductNeverListedStayHiddenUntilItIsListed() throws {
        var s = Self.scenario()
        s.given("inventory-ghost", StockSoldInStore(productId: "ghost", saleId: "s-9", quantity: 3))
        s.given("product-ghost", ProductRepriced(productId: "ghost", price: Self.bdt(1)))
        s.given("product-ghost", ProductRelisted(productId: "ghost"))
        #expect(try s.state(CatalogProjection.self).products["ghost"] == CatalogProjection.Product(catalogued: false, unitsSold: 3))
        #expect(!(try Self.ids(["include-delisted": ""], s)).contains("ghost"))
        s.given("product-ghost", ProductListed(productId: "ghost", name: "Ghost Toy", price: Self.bdt(100), category: "cat", imageRef: "g"))
        #expect(try s.state(CatalogProjection.self).products["ghost"]?.unitsSold == 3)
        #expect(try Self.ids(["search": "ghost"], s) == ["ghost"])
    }

    @Test func theFoldReadsOnlyProductAndSoldEvents() {
        #expect(
            CatalogProjection.eventTypes
                == [
                    "ProductListed", "ProductRepriced", "ProductDelisted", "ProductRelisted", "ProductDetailsChanged",
                    "StockReservationFulfilled", "StockSoldInStore", "StockReceived", "StockAdjusted", "StockReserved",
                    "StockReleased", "StockReturned",
                ])
    }

    // MARK: - The view: default, search, filters

    @Test func byDefaultListedProductsByNameOnOnePage() throws {
        let out = try Self.scenario().view(CatalogView.self)
        #expect(out.title == "Catalog")
        #expect(out.header == ["PRODUCT", "NAME", "PRICE", "WAS", "CATEGORY", "TAGS", "SOLD", "STOCK"])
        #expect(
            out.rows == [
                ["litter", "Black Sand Cat Litter 10L", "620.00 BDT", "700.00 BDT", "cat", "litter, clumping", "4", "only 4 left"],
                ["kibble", "Kitten Dry Food 1.1kg", "690.00 BDT", "", "cat", "food", "0", "in stock"],
                ["leash", "Nylon Dog Leash", "450.00 BDT", "", "dog", "", "0", "out of stock"],
                ["puppy", "Puppy Dry Food 1.5kg", "980.00 BDT", "", "dog", "food", "2", "only 3 left"],
                ["tofu", "Tofu Cat Litter 6L", "850.00 BDT", "", "cat", "litter, eco friendly", "2", "in stock"],
            ])
        #expect(out.footer == ["page 1 of 1, 5 matches"])
    }

    @Test func searchNeedsEveryWordToBeginAWordOfTheNameATagOrTheCategoryIgnoringCase() throws {
        #expect(try Self.ids(["search": "cat litter"]) == ["litter", "tofu"])
        #expect(try Self.ids(["search": "LITTER"]) == ["litter", "tofu"])
        #expect(try Self.ids(["search": "clumping litter"]) == ["litter"], "a tag word and a name word")
        #expect(try Self.ids(["search": "friendly"]) == ["tofu"], "a word of a two-word tag")
        #expect(try Self.ids(["search": "eco friendly"]) == ["tofu"])
        #expect(try Self.ids(["search": "dry food"]) == ["kibble", "puppy"])
        #expect(try Self.ids(["search": "nylon leash"]) == ["leash"])
        #expect(try Self.ids(["search": "1.1kg"]) == ["kibble"], "punctuation splits words on both sides")
        #expect(try Self.ids(["search": "lit"]) == ["litter", "tofu"], "a prefix of a word")
        #expect(try Self.ids(["search": "LIT cl"]) == ["litter"], "each word a prefix, ignoring case")
        #expect(try Self.ids(["search": "itter"]) == [], "a word's beginning, not its middle")
        #expect(try Self.ids(["search": "dog food"]) == ["puppy"], "the category is searched")
        #expect(try Self.ids(["search": "dog"]) == ["leash", "puppy"])
        #expect(try Self.ids(["search": "access"]) == [], "the only accessory is delisted")
        #expect(try Self.ids(["search": "cat bowl"]) == [], "every word must match")
        #expect(try Self.ids(["search": "bowl"]) == [], "delisted products are not found")
        #expect(try Self.ids(["search": " -- "]) == ["litter", "kibble", "leash", "puppy", "tofu"], "no words: no condition")
        #expect(try Self.scenario().view(CatalogView.self, ["search": "Cat, LITTER"]).title == "Catalog matching 'cat litter'")
    }

    @Test func categoryAndTagFiltersMatchIgnoringCase() throws {
        #expect(try Self.ids(["category": "dog"]) == ["leash", "puppy"])
        #expect(try Self.ids(["category": "DOG"]) == ["leash", "puppy"])
        #expect(try Self.ids(["category": "accessories"]) == [], "the only accessory is delisted")
        #expect(try Self.ids(["category": "do"]) == [])
        #expect(try Self.ids(["tag": "food"]) == ["kibble", "puppy"])
        #expect(try Self.ids(["tag": "Eco Friendly"]) == ["tofu"], "a tag is matched whole")
        #expect(try Self.ids(["tag": "eco"]) == [])
        #expect(try Self.ids(["tag": "food", "category": "cat"]) == ["kibble"])
        #expect(try Self.ids(["tag": "litter", "search": "tofu"]) == ["tofu"])
    }

    @Test func thePriceRangeIsInclusiveInMinorUnits() throws {
        #expect(try Self.ids(["min-price": "62000", "max-price": "85000"]) == ["litter", "kibble", "tofu"])
        #expect(try Self.ids(["min-price": "62001"]) == ["kibble", "puppy", "tofu"])
        #expect(try Self.ids(["max-price": "45000"]) == ["leash"])
        #expect(try Self.ids(["max-price": "44999"]) == [])
        #expect(try Self.ids(["min-price": "69000", "max-price": "69000"]) == ["kibble"])
        let s = Self.scenario()
        #expect(throws: ViewError.invalid("max-price", "100 is below --min-price 200")) {
            try s.view(CatalogView.self, ["min-price": "200", "max-price": "100"])
        }
        #expect(throws: ViewError.invalid("min-price", "'6.20' is not an integer between 0 and 9223372036854775807")) {
            try s.view(CatalogView.self, ["min-price": "6.20"])
        }
        #expect(throws: ViewError.invalid("max-price", "'-1' is not an integer between 0 and 9223372036854775807")) {
            try s.view(CatalogView.self, ["max-price": "-1"])
        }
    }

    // MARK: - Sorting

    @Test func sortsByNameIgnoringCaseAscendingOrDescending() throws {
        #expect(try Self.ids(["sort": "name"]) == ["litter", "kibble", "leash", "puppy", "tofu"])
        #expect(try Self.ids(["sort": "name", "desc": ""]) == ["tofu", "puppy", "leash", "kibble", "litter"])
        var s = Self.scenario()
        s.given("product-apple", ProductListed(productId: "apple", name: "apple chew", price: Self.bdt(100), category: "dog", imageRef: "a"))
        #expect(try Self.ids(["sort": "name"], s).first == "apple", "lowercase 'apple' sorts before 'Black'")
    }

    @Test func sortsByPriceAscendingOrDescending() throws {
        #expect(try Self.ids(["sort": "price"]) == ["leash", "litter", "kibble", "tofu", "puppy"])
        #expect(try Self.ids(["sort": "price", "desc": "true"]) == ["puppy", "tofu", "kibble", "litter", "leash"])
        #expect(try Self.ids(["sort": "price", "desc": "false"]) == ["leash", "litter", "kibble", "tofu", "puppy"])
    }

    @Test func sortsByUnitsSoldWithTiesByNameAscendingEvenWhenDescending() throws {
        #expect(try Self.ids(["sort": "popularity"]) == ["kibble", "leash", "puppy", "tofu", "litter"])
        #expect(try Self.ids(["sort": "popularity", "desc": ""]) == ["litter", "puppy", "tofu", "kibble", "leash"])
        var s = Self.scenario()
        s.given("inventory-kibble", StockSoldInStore(productId: "kibble", saleId: "s-4", quantity: 5))
        #expect(try Self.ids(["sort": "popularity", "desc": ""], s) == ["kibble", "litter", "puppy", "tofu", "leash"])
    }

    @Test func anUnknownSortOrAMalformedFlagIsRefused() {
        let s = Self.scenario()
        #expect(throws: ViewError.invalid("sort", "'sold' is not one of 'name', 'price', 'popularity'")) {
            try s.view(CatalogView.self, ["sort": "sold"])
        }
        #expect(throws: ViewError.invalid("desc", "'yes' is not 'true' or 'false' (a flag takes no value)")) {
            try s.view(CatalogView.self, ["desc": "yes"])
        }
    }

    // MARK: - Paging

    @Test func pagesSplitTheSortedMatchesAndTellTheTotal() throws {
        let s = Self.scenario()
        let first = try s.view(CatalogView.self, ["page-size": "2"])
        #expect(Self.ids(first) == ["litter", "kibble"])
        #expect(first.footer == ["page 1 of 3, 5 matches"])
        #expect(try Self.ids(["page-size": "2", "page": "2"]) == ["leash", "puppy"])
        let last = try s.view(CatalogView.self, ["page-size": "2", "page": "3"])
        #expect(Self.ids(last) == ["tofu"], "the last page holds the rest")
        #expect(last.footer == ["page 3 of 3, 5 matches"])
        let past = try s.view(CatalogView.self, ["page-size": "2", "page": "4"])
        #expect(past.rows.isEmpty, "a page past the last is empty")
        #expect(past.footer == ["page 4 of 3, 5 matches"])
        #expect(past.json.serialized == #"{"page":4,"pageSize":2,"pages":3,"total":5,"products":[]}"#)
        #expect(try Self.ids(["page-size": "5"]).count == 5)
        #expect(try s.view(CatalogView.self, ["page-size": "5"]).footer == ["page 1 of 1, 5 matches"], "exactly full")
        #expect(try s.view(CatalogView.self, ["page-size": "4"]).footer == ["page 1 of 2, 5 matches"])
        #expect(try Self.ids(["page-size": "1", "page": "5", "sort": "price"]) == ["puppy"])
    }

    @Test func noMatchesIsOneEmptyPage() throws {
        let out = try Self.scenario().view(CatalogView.self, ["search": "hamster"])
        #expect(out.rows.isEmpty)
        #expect(out.footer == ["page 1 of 1, 0 matches"])
        #expect(out.json.serialized == #"{"page":1,"pageSize":20,"pages":1,"total":0,"products":[]}"#)
        let one = try Self.scenario().view(CatalogView.self, ["search": "tofu"])
        #expect(one.footer == ["page 1 of 1, 1 match"])
    }

    @Test func thePageAndPageSizeMustBePositive() {
        let s = Self.scenario()
        #expect(throws: ViewError.invalid("page", "'0' is not an integer between 1 and 2147483647")) {
            try s.view(CatalogView.self, ["page": "0"])
        }
        #expect(throws: ViewError.invalid("page-size", "'0' is not an integer between 1 and 1000")) {
            try s.view(CatalogView.self, ["page-size": "0"])
        }
        #expect(throws: ViewError.invalid("page-size", "'1001' is not an integer between 1 and 1000")) {
            try s.view(CatalogView.self, ["page-size": "1001"])
        }
    }

    // MARK: - Delisted products

    @Test func delistedProductsShowOnlyWhenIncluded() throws {
        let s = Self.scenario()
        let out = try s.view(CatalogView.self, ["include-delisted": "", "category": "accessories"])
        #expect(out.rows == [["bowl", "Steel Pet Bowl (delisted)", "350.00 BDT", "", "accessories", "bowl", "7", "only 3 left"]])
        #expect(try Self.ids(["include-delisted": "true", "sort": "popularity", "desc": ""]) == ["bowl", "litter", "puppy", "tofu", "kibble", "leash"])
        #expect(try Self.ids(["include-delisted": "false", "category": "accessories"]) == [])
        #expect(try Self.ids(["include-delisted": "", "search": "bowl"]) == ["bowl"])
        #expect(try s.view(CatalogView.self, ["include-delisted": ""]).footer == ["page 1 of 1, 6 matches"])
        #expect(throws: ViewError.invalid("include-delisted", "'1' is not 'true' or 'false' (a flag takes no value)")) {
            try s.view(CatalogView.self, ["include-delisted": "1"])
        }
    }

    // MARK: - JSON

    @Test func theJSONHoldsThePageAndEachProductWhole() throws {
        let out = try Self.scenario().view(CatalogView.self, ["search": "litter", "page-size": "1", "sort": "price", "desc": ""])
        #expect(
            out.json.serialized
                == #"{"page":1,"pageSize":1,"pages":2,"total":2,"products":[{"productId":"tofu","name":"Tofu Cat Litter 6L","description":"","price":{"amount":85000,"currency":"BDT"},"compareAtPrice":null,"category":"cat","tags":["litter","eco friendly"],"imageRef":"img_tofu","listed":true,"unitsSold":2,"stock":{"level":"in-stock"}}]}"#
        )
        let litter = try Self.scenario().view(CatalogView.self, ["search": "clumping"])
        #expect(
            litter.json.serialized
                == #"{"page":1,"pageSize":20,"pages":1,"total":1,"products":[{"productId":"litter","name":"Black Sand Cat Litter 10L","description":"","price":{"amount":62000,"currency":"BDT"},"compareAtPrice":{"amount":70000,"currency":"BDT"},"category":"cat","tags":["litter","clumping"],"imageRef":"img_litter","listed":true,"unitsSold":4,"stock":{"available":4,"level":"low"}}]}"#
        )
    }

    // MARK: - Stock and edits

    @Test func stockFollowsReceiptsReservationsReleasesTillSalesAndCounts() throws {
        var s = ProjectionScenario()
        s.given("product-bed", ProductListed(productId: "bed", name: "Plush Bed", price: Self.bdt(185_000), category: "accessories", imageRef: "b"))
        func stock() throws -> (String, String) {
            let out = try s.view(CatalogView.self)
            guard case .array(let products)? = out.json["products"], let json = products.first?["stock"] else {
                Issue.record("no product in \(out.json.serialized)")
                return ("", "")
            }
            return (out.rows[0][7], json.serialized)
        }
        var now = try stock()
        #expect(now == ("out of stock", #"{"available":0,"level":"out-of-stock"}"#), "nothing received yet")
        s.given("inventory-bed", StockReceived(productId: "bed", quantity: 9))
        now = try stock()
        #expect(now == ("in stock", #"{"level":"in-stock"}"#), "a count above the few is staff's to know")
        s.given("inventory-bed", StockReserved(productId: "bed", orderId: "o-1", quantity: 4))
        now = try stock()
        #expect(now == ("only 5 left", #"{"available":5,"level":"low"}"#), "5 is few")
        s.given("inventory-bed", StockReservationFulfilled(productId: "bed", orderId: "o-1", quantity: 4))
        now = try stock()
        #expect(now == ("only 5 left", #"{"available":5,"level":"low"}"#), "shipping a reservation leaves what is available")
        s.given("inventory-bed", StockReserved(productId: "bed", orderId: "o-2", quantity: 2))
        s.given("inventory-bed", StockReleased(productId: "bed", orderId: "o-2", quantity: 2))
        s.given("inventory-bed", StockSoldInStore(productId: "bed", saleId: "s-1", quantity: 4))
        now = try stock()
        #expect(now == ("only 1 left", #"{"available":1,"level":"low"}"#))
        s.given("inventory-bed", StockAdjusted(productId: "bed", delta: -3, reason: "count"))
        now = try stock()
        #expect(now == ("out of stock", #"{"available":0,"level":"out-of-stock"}"#), "a count short of the books shows none left")
        #expect(try s.state(CatalogProjection.self).stock["bed"]?.available == -2, "the state keeps the true figure")
    }

    @Test func aDetailsChangeRenamesRecategorizesRetagsAndDescribesAProduct() throws {
        var s = Self.scenario()
        s.given(
            "product-leash",
            ProductDetailsChanged(
                productId: "leash", name: "Reflective Dog Leash 1.5m", description: "Glows in headlights.\nNylon, 1.5 m.",
                category: "walking", tags: ["reflective", "night"], imageRef: "img_leash_2"))
        #expect(try Self.ids(["search": "reflect"], s) == ["leash"])
        #expect(try Self.ids(["search": "nylon"], s) == [], "the old name is gone")
        #expect(try Self.ids(["category": "walking"], s) == ["leash"])
        let page = try s.view(ProductView.self, ["id": "leash"])
        #expect(page.rows.contains(["Name", "Reflective Dog Leash 1.5m"]))
        #expect(page.rows.contains(["Description", "Glows in headlights."]) && page.rows.contains(["", "Nylon, 1.5 m."]))
        #expect(page.rows.contains(["Stock", "out of stock"]))
        #expect(page.json["description"] == .string("Glows in headlights.\nNylon, 1.5 m."))
        #expect(throws: ViewError.notFound("no product 'ghost' in the catalog")) { try s.view(ProductView.self, ["id": "ghost"]) }
        // A change to a product never listed is ignored, as a reprice of one is.
        s.given(
            "product-ghost",
            ProductDetailsChanged(productId: "ghost", name: "G", description: "", category: "cat", tags: [], imageRef: "g"))
        #expect(try s.state(CatalogProjection.self).products["ghost"] == nil)
    }
}
