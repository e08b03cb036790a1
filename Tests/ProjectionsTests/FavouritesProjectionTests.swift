import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

@Suite("Favourites projection")
struct FavouritesProjectionTests {
    typealias Favourite = FavouritesProjection.Favourite

    static func listed(_ id: String, _ name: String) -> ProductListed {
        ProductListed(productId: id, name: name, price: Money(50_000, "BDT"), category: "cat", tags: [], imageRef: "img")
    }

    static func t(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    /// A guest hearts a bowl and a toy, Alice hearts litter and the toy, drops the litter and hearts it again, then
    /// signs in from the guest's session: the domain adds the bowl (she had the toy) and empties the guest's. The
    /// toy is delisted. One event a minute from 09:00.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("product-litter", listed("litter", "Cat Litter 10L"))
        s.given("product-bowl", listed("bowl", "Steel Bowl"))
        s.given("product-toy", listed("toy", "Mouse Toy"))
        s.given("favourites-guest-7f", FavouriteAdded(ownerId: "guest-7f", productId: "bowl"))
        s.given("favourites-guest-7f", FavouriteAdded(ownerId: "guest-7f", productId: "toy"))
        s.given("favourites-u-alice", FavouriteAdded(ownerId: "u-alice", productId: "litter"))
        s.given("favourites-u-alice", FavouriteAdded(ownerId: "u-alice", productId: "toy"))
        s.given("favourites-u-alice", FavouriteRemoved(ownerId: "u-alice", productId: "litter"))
        s.given("favourites-u-alice", FavouriteAdded(ownerId: "u-alice", productId: "litter"))
        s.given("favourites-u-alice", FavouriteAdded(ownerId: "u-alice", productId: "bowl"))
        s.given("favourites-guest-7f", FavouritesMerged(ownerId: "guest-7f", mergedInto: "u-alice", productIds: ["bowl", "toy"]))
        s.given("product-toy", ProductDelisted(productId: "toy"))
        return s
    }

    @Test func favouritesAreListedInTheOrderAddedAndARemovalAndReAddMovesOneToTheEnd() throws {
        let out = try Self.scenario().view(FavouritesView.self, ["user": "u-alice"])
        #expect(out.title == "Favourites of u-alice")
        #expect(out.header == ["PRODUCT", "NAME", "ADDED"])
        #expect(
            out.rows == [
                ["toy", "Mouse Toy (delisted)", "2026-12-01 09:06"],
                ["litter", "Cat Litter 10L", "2026-12-01 09:08"],
                ["bowl", "Steel Bowl", "2026-12-01 09:09"],
            ])
        #expect(out.footer == ["3 favourites"])
        #expect(
            out.json.serialized
                == #"{"userId":"u-alice","favourites":[{"productId":"toy","name":"Mouse Toy","listed":false,"addedAt":"2026-12-01T09:06:00Z"},"#
                + #"{"productId":"litter","name":"Cat Litter 10L","listed":true,"addedAt":"2026-12-01T09:08:00Z"},"#
                + #"{"productId":"bowl","name":"Steel Bowl","listed":true,"addedAt":"2026-12-01T09:09:00Z"}],"mergedInto":null,"mergedAt":null}"#)
    }

    @Test func aMergeEmptiesTheGuestsFavouritesAndAddsNothingTwiceToTheAccount() throws {
        var s = Self.scenario()
        let state = try s.state(FavouritesProjection.self)
        #expect(
            state.owners["guest-7f"]
                == FavouritesProjection.Favourites(mergedInto: "u-alice", mergedAt: Self.t("2026-12-01T09:10:00Z"), mergedCount: 2))
        #expect(
            state.owners["u-alice"]?.products
                == [
                    "toy": Favourite(order: 6, addedAt: Self.t("2026-12-01T09:06:00Z")),
                    "litter": Favourite(order: 8, addedAt: Self.t("2026-12-01T09:08:00Z")),
                    "bowl": Favourite(order: 9, addedAt: Self.t("2026-12-01T09:09:00Z")),
                ])
        let guest = try s.view(FavouritesView.self, ["user": "guest-7f"])
        #expect(guest.rows.isEmpty)
        #expect(guest.footer == ["0 favourites", "2 merged into u-alice at 2026-12-01 09:10"])
        #expect(guest.json["mergedInto"] == .string("u-alice") && guest.json["mergedAt"] == .string("2026-12-01T09:10:00Z"))

        // The same guest id hearting again afterwards starts a new list; the merge stays noted.
        s.given("favourites-guest-7f", FavouriteAdded(ownerId: "guest-7f", productId: "litter"))
        let again = try s.view(FavouritesView.self, ["user": "guest-7f"])
        #expect(again.rows == [["litter", "Cat Litter 10L", "2026-12-01 09:12"]])
        #expect(again.footer == ["1 favourite", "2 merged into u-alice at 2026-12-01 09:10"])
    }

    @Test func someoneWithoutFavouritesHasAnEmptyListAndUnknownProductsHaveNoName() throws {
        var s = Self.scenario()
        let nobody = try s.view(FavouritesView.self, ["user": "u-nobody"])
        #expect(nobody.rows.isEmpty && nobody.footer == ["0 favourites"])
        s.given("favourites-u-bob", FavouriteAdded(ownerId: "u-bob", productId: "ghost"))
        s.given("favourites-u-bob", FavouriteAdded(ownerId: "u-bob", productId: "ghost"))
        let bob = try s.view(FavouritesView.self, ["user": "u-bob"])
        #expect(bob.rows == [["ghost", "", "2026-12-01 09:12"]], "a repeated add keeps the first")
        #expect(
            bob.json["favourites"]
                == .array([.object(["productId": .string("ghost"), "name": .null, "listed": .null, "addedAt": .string("2026-12-01T09:12:00Z")])]))
        s.given("product-toy", ProductRelisted(productId: "toy"))
        #expect(try s.view(FavouritesView.self, ["user": "u-alice"]).rows.first == ["toy", "Mouse Toy", "2026-12-01 09:06"])
        #expect(throws: ViewError.missing("user")) { try s.view(FavouritesView.self) }
    }
}
