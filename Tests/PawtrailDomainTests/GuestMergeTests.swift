import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Guest merge on sign-up and log-in")
struct GuestMergeTests {
    /// Ann's account holds 2 litter and the toy as a favourite; guest 7 holds 3 litter, 1 food, and the toy and the
    /// bowl as favourites.
    static func annAndGuest() async throws -> DomainScenario {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 2))
        try await s.given(stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "toy"))
        try await Self.guestHas(s)
        return s
    }

    static func guestHas(_ s: DomainScenario) async throws {
        try await s.given(
            stream("cart-guest-7"), CartItemAdded(ownerId: "guest-7", productId: "litter", quantity: 3),
            CartItemAdded(ownerId: "guest-7", productId: "food", quantity: 1))
        try await s.given(
            stream("favourites-guest-7"), FavouriteAdded(ownerId: "guest-7", productId: "toy"),
            FavouriteAdded(ownerId: "guest-7", productId: "bowl"))
    }

    static func load<A: Aggregate>(_ s: DomainScenario, _ type: A.Type, _ id: String) async throws -> A {
        var loader = StreamLoader(store: s.store)
        return try await loader.load(type, stream(id))
    }

    @Test func loginSumsTheCartAndUnionsTheFavourites() async throws {
        let s = try await Self.annAndGuest()
        let (session, appended) = try await s.logIn("u-ann", guestId: "guest-7")
        expectAppended(
            appended,
            [
                (stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: session)),
                (stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 3)),
                (stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "food", quantity: 1)),
                (stream("cart-guest-7"), CartCleared(ownerId: "guest-7", reason: .merged, reference: "u-ann")),
                (stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "bowl")),
                (stream("favourites-guest-7"), FavouritesMerged(ownerId: "guest-7", mergedInto: "u-ann", productIds: ["toy", "bowl"])),
            ])
        let cart = try await Self.load(s, CartState.self, "cart-u-ann")
        #expect(cart.lines.map(\.productId) == ["litter", "food"] && cart.quantity(of: "litter") == 5 && cart.quantity(of: "food") == 1)
        #expect(try await Self.load(s, CartState.self, "cart-guest-7").lines.isEmpty)
        #expect(try await Self.load(s, FavouritesState.self, "favourites-u-ann").productIds == ["toy", "bowl"])
        #expect(try await Self.load(s, FavouritesState.self, "favourites-guest-7").productIds.isEmpty)

        // The guest is empty now: merging it again moves nothing.
        let (again, second) = try await s.logIn("u-ann", guestId: "guest-7")
        expectAppended(second, [(stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: again))])
    }

    @Test func signUpMergesTheGuestIntoTheNewAccount() async throws {
        let s = DomainScenario()
        try await Self.guestHas(s)
        let (session, appended) = try await s.signUp(
            "u-bob", SignUp(name: "Bob", email: "bob@example.com", language: .bnBD, guestId: "guest-7"))
        expectAppended(
            appended,
            [
                (stream("account-u-bob"), AccountSignedUp(userId: "u-bob", name: "Bob", email: "bob@example.com", language: .bnBD)),
                (stream("account-u-bob"), LoggedIn(userId: "u-bob", sessionId: session)),
                (Streams.email("bob@example.com"), EmailClaimed(email: "bob@example.com", userId: "u-bob")),
                (stream("cart-u-bob"), CartItemAdded(ownerId: "u-bob", productId: "litter", quantity: 3)),
                (stream("cart-u-bob"), CartItemAdded(ownerId: "u-bob", productId: "food", quantity: 1)),
                (stream("cart-guest-7"), CartCleared(ownerId: "guest-7", reason: .merged, reference: "u-bob")),
                (stream("favourites-u-bob"), FavouriteAdded(ownerId: "u-bob", productId: "toy")),
                (stream("favourites-u-bob"), FavouriteAdded(ownerId: "u-bob", productId: "bowl")),
                (stream("favourites-guest-7"), FavouritesMerged(ownerId: "guest-7", mergedInto: "u-bob", productIds: ["toy", "bowl"])),
            ])
    }

    @Test func aRejectedSignUpMergesNothing() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await Self.guestHas(s)
        try await s.then(
            "u-bob", SignUp(name: "Bob", email: "u-ann@example.com", guestId: "guest-7"),
            throws: .alreadyExists("the email u-ann@example.com is already used by another account"))
        #expect(try await Self.load(s, CartState.self, "cart-guest-7").lines.count == 2)
    }

    @Test func anEmptyGuestAppendsNothingForTheGuest() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        let (session, appended) = try await s.logIn("u-ann", guestId: "guest-9")
        expectAppended(appended, [(stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: session))])
        let (bobSession, bobAppended) = try await s.signUp("u-bob", SignUp(name: "Bob", email: "bob@example.com", guestId: "guest-9"))
        expectAppended(
            bobAppended,
            [
                (stream("account-u-bob"), AccountSignedUp(userId: "u-bob", name: "Bob", email: "bob@example.com", language: .enUS)),
                (stream("account-u-bob"), LoggedIn(userId: "u-bob", sessionId: bobSession)),
                (Streams.email("bob@example.com"), EmailClaimed(email: "bob@example.com", userId: "u-bob")),
            ])
    }

    @Test func sumsAreCappedAt99() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(
            stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 90),
            CartItemAdded(ownerId: "u-ann", productId: "food", quantity: 99))
        try await s.given(
            stream("cart-guest-7"), CartItemAdded(ownerId: "guest-7", productId: "litter", quantity: 20),
            CartItemAdded(ownerId: "guest-7", productId: "food", quantity: 5))
        let (session, appended) = try await s.logIn("u-ann", guestId: "guest-7")
        expectAppended(
            appended,
            [
                (stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: session)),
                (stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 9)),
                (stream("cart-guest-7"), CartCleared(ownerId: "guest-7", reason: .merged, reference: "u-ann")),
            ])
        let cart = try await Self.load(s, CartState.self, "cart-u-ann")
        #expect(cart.lines.map(\.productId) == ["litter", "food"] && cart.quantity(of: "litter") == 99 && cart.quantity(of: "food") == 99)
    }

    @Test func linesBeyondAFullCartAreLeftOut() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        let full = (0..<CartState.maxLines).map {
            ProposedEvent(type: CartItemAdded.eventType, data: DomainEventCodec.encode(CartItemAdded(ownerId: "u-ann", productId: "p\($0)", quantity: 1)))
        }
        _ = try await s.store.append(AppendRequest(stream: stream("cart-u-ann"), events: full))
        try await s.given(
            stream("cart-guest-7"), CartItemAdded(ownerId: "guest-7", productId: "new", quantity: 1),
            CartItemAdded(ownerId: "guest-7", productId: "p0", quantity: 2))
        let (session, appended) = try await s.logIn("u-ann", guestId: "guest-7")
        expectAppended(
            appended,
            [
                (stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: session)),
                (stream("cart-u-ann"), CartItemAdded(ownerId: "u-ann", productId: "p0", quantity: 2)),
                (stream("cart-guest-7"), CartCleared(ownerId: "guest-7", reason: .merged, reference: "u-ann")),
            ])
    }

    @Test func duplicateFavouritesAreRemoved() async throws {
        let s = try await DomainScenario.signedUp("u-ann")
        try await s.given(
            stream("favourites-u-ann"), FavouriteAdded(ownerId: "u-ann", productId: "toy"), FavouriteAdded(ownerId: "u-ann", productId: "bowl"))
        try await s.given(
            stream("favourites-guest-7"), FavouriteAdded(ownerId: "guest-7", productId: "bowl"),
            FavouriteAdded(ownerId: "guest-7", productId: "toy"))
        let (session, appended) = try await s.logIn("u-ann", guestId: "guest-7")
        expectAppended(
            appended,
            [
                (stream("account-u-ann"), LoggedIn(userId: "u-ann", sessionId: session)),
                (stream("favourites-guest-7"), FavouritesMerged(ownerId: "guest-7", mergedInto: "u-ann", productIds: ["bowl", "toy"])),
            ])
        #expect(try await Self.load(s, FavouritesState.self, "favourites-u-ann").productIds == ["toy", "bowl"])
    }

    @Test func theGuestIdMustNameAGuest() async throws {
        let s = try await DomainScenario.signedUp("u-ann", "u-bob")
        let notAGuest = DomainError.invalid(field: "guestId", reason: "'u-bob' is not a guest id; guest ids start with 'guest-'")
        try await s.then("u-ann", Login(guestId: "u-bob"), throws: notAGuest)
        try await s.then("u-cat", SignUp(name: "Cat", email: "cat@example.com", guestId: "u-bob"), throws: notAGuest)
        try await s.then("u-ann", Login(guestId: ""), throws: .invalid(field: "guestId", reason: "an id must have 1 to 64 characters"))
        try await s.then(
            "u-cat", SignUp(name: "Cat", email: "cat@example.com", guestId: "guest 7"),
            throws: .invalid(field: "guestId", reason: "'guest 7' may hold only letters, digits and - _ . : @"))
    }

    @Test func aGuestCannotLogInOrSignUpAsItself() async throws {
        let s = DomainScenario()
        try await Self.guestHas(s)
        try await s.then("guest-7", Login(guestId: "guest-7"), throws: .forbidden("guests cannot account.login; sign up or log in first"))
        try await s.then(
            "guest-7", SignUp(name: "G", email: "g@example.com", guestId: "guest-7"),
            throws: .forbidden("guests cannot account.signup; sign up or log in first"))
    }
}
