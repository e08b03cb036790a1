import EventLog
import Events
import Foundation
import PawtrailDomain
import Testing

/// Staff acting for a customer (`--for`): the decision acts as the customer, the metadata names both.
@Suite("Staff acting for a customer")
struct ActingForTests {
    typealias W = PetWorld
    static let slot = t("2026-12-05T10:00:00Z")

    func handle<C: DomainCommand>(_ s: DomainScenario, _ user: String, _ command: C, for customer: String?, id: UUID = UUID())
        async throws -> CommandOutcome
    {
        try await s.handler.handle(command, as: user, now: DomainScenario.now, commandID: id, actedFor: customer)
    }

    @Test func staffBookForACustomerWhoPhonesIn() async throws {
        let s = try await W.scenario()
        let id = W.commandID(71)
        let outcome = try await handle(s, W.staff, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), for: W.owner, id: id)
        let bookingId = W.generated("b", id)
        expectAppended(
            outcome.events.map { ($0.stream, $0.event) },
            BookingTests.request(bookingId, .bath, Self.slot))
        // The log records both: who did it, and for whom.
        let recorded = try #require(try await s.store.event(withID: DecisionContext.eventID(commandID: id, index: 0)))
        #expect(recorded.metadata[EventMetadata.actor] == W.staff && recorded.metadata["actedFor"] == W.owner && recorded.metadata["role"] == "staff")
        // The same id for another customer is another command.
        await #expect(throws: DomainError.self) {
            try await handle(s, W.staff, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), for: W.otherCustomer, id: id)
        }
        #expect(try await handle(s, W.staff, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), for: W.owner, id: id).replayed)
    }

    @Test func theDecisionActsAsTheCustomer() async throws {
        let s = try await W.scenario()
        // Rex is Ann's: booking him for Bob is refused as Bob would be.
        await #expect(throws: DomainError.forbidden("pet 'rex' belongs to another owner; customer 'u-bob' may not act on it")) {
            try await handle(s, W.staff, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), for: W.otherCustomer)
        }
        let vet = try await handle(s, W.staff, SubmitVetRequest(petId: "rex", symptoms: "Limping", urgency: .urgent), for: W.owner)
        #expect((vet.events.first?.event as? VetRequestSubmitted)?.ownerId == W.owner)
        let shot = try await handle(s, W.staff, RecordVaccination(petId: "rex", vaccine: "Rabies", givenOn: DomainScenario.now), for: W.owner)
        #expect(shot.events.first?.event is VaccinationRecorded)
    }

    @Test func staffTakeAPhoneOrderIntoTheCustomersCart() async throws {
        let s = try await Shop.floor()
        try await s.product("litter", price: 62_000, stock: 5)
        let add = try await handle(s, Shop.staff, AddToCart(productId: "litter", quantity: 2), for: Shop.ann)
        #expect(add.events.map(\.stream) == [Streams.cart(Shop.ann)])
        let placed = try await handle(s, Shop.staff, OrderTests.place("o-phone"), for: Shop.ann)
        let order = try #require(placed.events.compactMap { $0.event as? OrderPlaced }.first)
        #expect(order.customerId == Shop.ann && order.total == Money(124_000, "BDT"))
        #expect(try await s.state(CartState.self, Streams.cart(Shop.ann)).lines.isEmpty)
        #expect(try await s.state(CartState.self, Streams.cart(Shop.staff)).lines.isEmpty, "the staff member's own cart is not touched")
    }

    @Test func onlyStaffActForLiveCustomersAndOnlyWhereAllowed() async throws {
        let s = try await W.scenario()
        let book = RequestBooking(petId: "rex", service: .bath, slot: Self.slot)
        await #expect(throws: DomainError.forbidden("only staff act for a customer; customer 'u-bob' is not staff")) {
            try await handle(s, W.otherCustomer, book, for: W.owner)
        }
        await #expect(throws: DomainError.notFound("customer 'u-nobody' has no account")) { try await handle(s, W.staff, book, for: W.noAccount) }
        await #expect(throws: DomainError.invalid(field: "for", reason: "'guest-1' is a guest; staff act for account holders")) {
            try await handle(s, W.staff, book, for: W.guest)
        }
        await #expect(throws: DomainError.invalid(field: "for", reason: "'u-sam' acts for themselves; leave 'for' out")) {
            try await handle(s, W.staff, book, for: W.staff)
        }
        await #expect(throws: DomainError.forbidden("staff act for customers; 'u-ada' is admin")) { try await handle(s, W.staff, book, for: W.admin) }
        await #expect(throws: DomainError.invalid(field: "for", reason: "pet.add is not done for a customer; leave 'for' out")) {
            try await handle(s, W.staff, AddPet(name: "Tom", species: .cat), for: W.owner)
        }
        await #expect(throws: DomainError.invalid(field: "for", reason: "'u ann' may hold only letters, digits and - _ . : @")) {
            try await handle(s, W.staff, book, for: "u ann")
        }
        try await s.given(Streams.account(W.otherCustomer), AccountDeleted(userId: W.otherCustomer, reauthenticatedAt: DomainScenario.now))
        await #expect(throws: DomainError.invalidState("the account of 'u-bob' is deleted; no one acts for it")) {
            try await handle(s, W.staff, book, for: W.otherCustomer)
        }
    }

    @Test func whatACustomerMayDoForThemselvesIsUnchanged() async throws {
        let s = try await W.scenario()
        let outcome = try await handle(s, W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.slot), for: nil)
        #expect(outcome.events.count == 3)
        let recorded = try #require(try await s.store.readAll().last)
        #expect(recorded.metadata["actedFor"] == nil)
    }
}
