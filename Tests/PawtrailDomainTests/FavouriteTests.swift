import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Favourites")
struct FavouriteTests {
    /// A scenario whose catalog lists these products.
    static func listing(_ s: DomainScenario, _ ids: String...) async throws -> DomainScenario {
        for id in ids {
            try await s.given(Streams.product(id), ProductListed(productId: id, name: id, price: Money(10_000, "BDT"), category: "cat", imageRef: "img_\(id)"))
        }
        return s
    }

    @Test func onlyAListedProductOnSaleBecomesAFavourite() async throws {
        let s = try await Self.listing(DomainScenario.signedUp("u-ann"), "litter")
        try await s.then("u-ann", AddFavourite(productId: "ghost"), throws: .notFound("product 'ghost' does not exist"))
        try await s.then("guest-7", AddFavourite(productId: "ghost"), throws: .notFound("product 'ghost' does not exist"))
        try await s.then("u-ann", AddFavourite(productId: "litter"), appends: [(stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "litter"))])
        try await s.given(Streams.product("litter"), ProductDelisted(productId: "litter"))
        // A favourite already kept stays; it can be removed, and not added again while delisted.
        try await s.then("u-ann", AddFavourite(productId: "litter"), appends: [])
        try await s.then("u-ann", RemoveFavourite(productId: "litter"), appends: [(stream("favourites-u-ann"), FavouriteRemoved(ownerId: "u-ann", productId: "litter"))])
        try await s.then("u-ann", AddFavourite(productId: "litter"), throws: .invalidState("product 'litter' (litter) is delisted; it cannot be added to favourites"))
    }

    @Test func addingIsIdempotentAndRemovingNeedsTheFavourite() async throws {
        let s = try await Self.listing(DomainScenario.signedUp("u-ann"), "litter")
        try await s.then(
            "u-ann", AddFavourite(productId: "litter"), appends: [(stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "litter"))])
        try await s.then("u-ann", AddFavourite(productId: "litter"), appends: [])
        try await s.then(
            "u-ann", RemoveFavourite(productId: "litter"), appends: [(stream("favourites-u-ann"), FavouriteRemoved(ownerId: "u-ann", productId: "litter"))])
        try await s.then("u-ann", RemoveFavourite(productId: "litter"), throws: .notFound("product 'litter' is not among the favourites"))
        try await s.then(
            "u-ann", AddFavourite(productId: "litter"), appends: [(stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "litter"))])
    }

    @Test func favouritesAreBoundedAndSoIsTheirMerge() async throws {
        let s = try await Self.listing(DomainScenario.signedUp("u-ann"), "one-more")
        let many = (0..<FavouritesState.maxFavourites).map { FavouriteAdded(ownerId: "guest-7", productId: "p\($0)") }
        try await s.given(stream("favourites-guest-7"), events: many)
        try await s.then(
            "guest-7", AddFavourite(productId: "one-more"),
            throws: .rejected("the favourites hold 500 products already, the most they may hold"))
        try await s.given(stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "mine"))
        let merged = try await s.when("u-ann", Login(guestId: "guest-7"))
        let added = merged.filter { $0.0 == stream("favourites-u-ann") }
        #expect(added.count == FavouritesState.maxFavourites - 1, "the account keeps its own favourite and fills up to the cap")
    }

    @Test func guestsKeepFavouritesToo() async throws {
        let s = try await Self.listing(DomainScenario(), "bowl")
        try await s.then(
            "guest-7", AddFavourite(productId: "bowl"), appends: [(stream("favourites-guest-7"), FavouriteAdded(ownerId: "guest-7", productId: "bowl"))])
        try await s.then(
            "guest-7", RemoveFavourite(productId: "bowl"), appends: [(stream("favourites-guest-7"), FavouriteRemoved(ownerId: "guest-7", productId: "bowl"))])
    }

    @Test func eachActorHasTheirOwnFavourites() async throws {
        let s = try await Self.listing(DomainScenario.signedUp("u-ann", "u-bob", "u-sam"), "litter")
        try await s.given(Streams.roles, AdminBootstrapped(userId: "u-sam"))
        try await s.given(stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "litter"))
        for other in ["u-bob", "u-sam", "guest-7"] {
            try await s.then(other, RemoveFavourite(productId: "litter"), throws: .notFound("product 'litter' is not among the favourites"))
        }
        try await s.then(
            "u-sam", AddFavourite(productId: "litter"), appends: [(stream("favourites-u-sam"), FavouriteAdded(ownerId: "u-sam", productId: "litter"))])
    }

    @Test func aMergedGuestHasNoFavouritesLeft() async throws {
        let s = DomainScenario()
        try await s.given(
            stream("favourites-guest-7"), FavouriteAdded(ownerId: "guest-7", productId: "bowl"),
            FavouritesMerged(ownerId: "guest-7", mergedInto: "u-ann", productIds: ["bowl"]))
        try await s.then("guest-7", RemoveFavourite(productId: "bowl"), throws: .notFound("product 'bowl' is not among the favourites"))
    }

    @Test func malformedProductIdsAreRejected() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.then("u-ann", AddFavourite(productId: ""), throws: .invalid(field: "productId", reason: "an id must have 1 to 64 characters"))
        try await s.then(
            "u-ann", RemoveFavourite(productId: "cat litter"),
            throws: .invalid(field: "productId", reason: "'cat litter' may hold only letters, digits and - _ . : @"))
    }

    static let commands: [any DomainCommand] = [AddFavourite(productId: "litter"), RemoveFavourite(productId: "litter")]

    @Test(arguments: commands) func usersWithoutAnAccountAreRefused(_ command: any DomainCommand) async throws {
        try await DomainScenario().then("u-nobody", command, throws: .forbidden("user 'u-nobody' has no account"))
    }

    @Test(arguments: commands) func aDeletedAccountIsRefused(_ command: any DomainCommand) async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "litter"))
        try await s.given(stream("account-u-ann"), AccountDeleted(userId: "u-ann", reauthenticatedAt: beforeNow(seconds: 60)))
        try await s.then("u-ann", command, throws: .forbidden("the account of 'u-ann' is deleted"))
    }
}
