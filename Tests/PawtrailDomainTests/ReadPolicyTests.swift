import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Settings: the read policy")
struct ReadPolicyTests {
    @Test func anAdminRequiresReadersAndLiftsItAgain() async throws {
        let s = try await Shop.floor()
        try await s.then(
            Shop.admin, SetReadPolicy(requireViewer: true),
            appends: [(Streams.settings, ReadPolicySet(requireViewer: true, setBy: Shop.admin))])
        #expect(try await ShopSettingsState.current(in: s.store).requireViewer)
        try await s.then(Shop.admin, SetReadPolicy(requireViewer: true), appends: [])
        try await s.then(
            Shop.admin, SetReadPolicy(requireViewer: false),
            appends: [(Streams.settings, ReadPolicySet(requireViewer: false, setBy: Shop.admin))])
        #expect(try await !ShopSettingsState.current(in: s.store).requireViewer)
    }

    @Test func aStoreThatNeverSetItRequiresNoReader() async throws {
        #expect(try await !ShopSettingsState.current(in: Shop.floor().store).requireViewer)
        try await Shop.floor().then(Shop.admin, SetReadPolicy(requireViewer: false), appends: [])
    }

    @Test(arguments: Shop.notAdmin("shop.set-read-policy", "set the read policy"))
    func onlyAdminsSetIt(_ actor: String, _ error: DomainError) async throws {
        try await Shop.floor().then(actor, SetReadPolicy(requireViewer: true), throws: error)
    }

    @Test func readersAreResolvedFromTheStoresAccountsAndRoles() async throws {
        let s = try await Shop.floor()
        #expect(try await ActorLookup.actor(Shop.admin, in: s.store).isAdmin)
        #expect(try await ActorLookup.actor(Shop.staff, in: s.store).isStaff)
        #expect(try await ActorLookup.actor(Shop.ann, in: s.store).role == .customer)
        #expect(try await ActorLookup.actor(Shop.guest, in: s.store).role == .guest)
        await #expect(throws: DomainError.forbidden("user 'u-nobody' has no account")) { try await ActorLookup.actor(Shop.nobody, in: s.store) }
        await #expect(throws: DomainError.invalid(field: "as", reason: "'u ann' may hold only letters, digits and - _ . : @")) {
            try await ActorLookup.actor("u ann", in: s.store)
        }
        try await s.given(Streams.account(Shop.bob), AccountDeleted(userId: Shop.bob, reauthenticatedAt: DomainScenario.now))
        await #expect(throws: DomainError.forbidden("the account of 'u-bob' is deleted")) { try await ActorLookup.actor(Shop.bob, in: s.store) }
    }
}
