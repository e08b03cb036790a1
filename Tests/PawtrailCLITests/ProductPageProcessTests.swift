import Foundation
import PawtrailJSON
import Testing

/// A product's life after listing and what customers see of it, through the binary: an edit, the product page, stock
/// in the catalog and the cart, and prefix and category search.
@Suite(.ownThreads) struct ProductPageProcessTests {
    @Test func `an edited product shows on its page with its stock, and the cart warns before checkout`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        func run(_ arguments: String...) throws -> CommandOutcome {
            try PawtrailProcess.run(["--store", store] + arguments)
        }
        #expect(try run("account", "signup", "--as", "u-ada", "--name", "Ada", "--email", "ada@shop.example").status == 0)
        #expect(try run("admin", "bootstrap", "--as", "u-ada").status == 0)
        #expect(try run("catalog", "seed", "--as", "u-ada").status == 0)

        let edit = try run(
            "product", "edit", "--as", "u-ada", "--product-id", "product_dog_003", "--new-name", "Reflective Dog Leash",
            "--description", "Glows in headlights.", "--add-tags", "night", "--remove-tags", "walking", "--json")
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(edit.stdout.contains(#""type":"ProductDetailsChanged""#))
        let again = try run("product", "edit", "--as", "u-ada", "--product-id", "product_dog_003", "--add-tags", "night")
        #expect(again.status == 0 && again.stdout.contains("nothing to change"), "\(again.stdout)")
        let refused = try run("product", "edit", "--as", "u-ada", "--product-id", "product_dog_003")
        #expect(refused.status == 65 && refused.stderr.contains("the edit names no detail"), "\(refused.stderr)")

        let page = try run("view", "product", "--id", "product_dog_003", "--json")
        #expect(page.status == 0)
        let product = try #require(try JSONValue.parse(Array(page.stdout.utf8))["data"])
        #expect(product["name"] == .string("Reflective Dog Leash"))
        #expect(product["description"] == .string("Glows in headlights."))
        #expect(product["tags"] == .array([.string("leash"), .string("reflective"), .string("night")]))
        #expect(product["stock"] == .object(["level": .string("in-stock")]))
        let missing = try run("view", "product", "--id", "nope")
        #expect(missing.status == 1 && missing.stderr == "Error: no product 'nope' in the catalog\n")

        // The carrier bag has 5 in stock: the catalog says so, and a cart of 7 learns it before checkout.
        let bags = try run("view", "catalog", "--search", "carr")
        #expect(bags.stdout.contains("Ventilated Pet Carrier Bag") && bags.stdout.contains("only 5 left"), "\(bags.stdout)")
        #expect(try run("cart", "add", "--as", "u-ada", "--product-id", "product_acc_003", "--quantity", "7").status == 0)
        let cart = try run("view", "cart", "--owner", "u-ada")
        #expect(cart.stdout.contains("only 5 left (you have 7)"), "\(cart.stdout)")
        #expect(cart.stdout.contains("Short of stock at checkout: Ventilated Pet Carrier Bag (7 wanted, 5 available)"))
        let fish = try run("view", "catalog", "--search", "fish flakes", "--json")
        #expect(fish.stdout.contains(#""level":"out-of-stock""#), "the bundled fish flakes have none: \(fish.stdout)")

        let dogFood = try run("view", "catalog", "--search", "dog food", "--json")
        let ids = try JSONValue.parse(Array(dogFood.stdout.utf8))["data"]?["products"]
        guard case .array(let found)? = ids else { Issue.record("no products: \(dogFood.stdout)"); return }
        #expect(found.map { $0["productId"] } == [.string("product_dog_001"), .string("product_dog_002")], "the category 'dog' and the tag 'food'")
    }
}
