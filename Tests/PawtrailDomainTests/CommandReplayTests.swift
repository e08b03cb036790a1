import EventLog
import Events
import Foundation
import PawtrailDomain
import Testing

/// A command re-sent with the id of one already applied (a client that lost the answer) is not decided again.
@Suite("Re-sent commands")
struct CommandReplayTests {
    static let id = UUID(uuidString: "6f1c2a4e-0d3b-4c55-9e61-2b7f0a9c8d11")!

    @Test func aReSentCartAddReturnsTheFirstOutcomeAndAddsNothing() async throws {
        let s = try await CartTests.customer()
        let first = try await s.handler.handle(AddToCart(productId: "litter", quantity: 2), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        let again = try await s.handler.handle(AddToCart(productId: "litter", quantity: 2), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        #expect(!first.replayed && again.replayed)
        #expect(again.attempts == 0)
        #expect(again.events.map(\.position) == first.events.map(\.position))
        #expect(again.events.map(\.stream) == first.events.map(\.stream))
        #expect(again.events.map { $0.event as? CartItemAdded } == [CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 2)])
        #expect(try await s.state(CartState.self, Streams.cart("u-ann")).quantity(of: "litter") == 2)
        // A new command id adds again.
        _ = try await s.handler.handle(AddToCart(productId: "litter", quantity: 2), as: "u-ann", now: DomainScenario.now, commandID: UUID())
        #expect(try await s.state(CartState.self, Streams.cart("u-ann")).quantity(of: "litter") == 4)
    }

    @Test func aCommandOfSeveralEventsComesBackWhole() async throws {
        let s = try await CartTests.customer()
        try await s.given(Streams.cart("u-ann"), CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 1), CartItemAdded(ownerId: "u-ann", productId: "food", quantity: 1))
        // Another command's events right after must not be taken for this one's.
        let first = try await s.handler.handle(ClearCart(), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        _ = try await s.handler.handle(AddToCart(productId: "food"), as: "u-ann", now: DomainScenario.now)
        let again = try await s.handler.handle(ClearCart(), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        #expect(again.replayed)
        #expect(again.events.map(\.position) == first.events.map(\.position))
        #expect(try await s.state(CartState.self, Streams.cart("u-ann")).quantity(of: "food") == 1)
    }

    @Test func theIdOfAnotherCommandOrUserIsRefused() async throws {
        let s = try await CartTests.customer()
        try await s.given(Streams.account("u-bob"), AccountSignedUp(userId: "u-bob", name: "Bob", email: "bob@example.com", language: .enUS))
        _ = try await s.handler.handle(AddToCart(productId: "litter"), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        let reason = "command id \(Self.id.uuidString.lowercased()) was used by cart.add already; a command id names one command"
        await #expect(throws: DomainError.invalid(field: "commandId", reason: reason)) {
            try await s.handler.handle(ClearCart(), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        }
        let fields = "command id \(Self.id.uuidString.lowercased()) was used by cart.add with other fields already; a command id names one command"
        await #expect(throws: DomainError.invalid(field: "commandId", reason: fields)) {
            try await s.handler.handle(AddToCart(productId: "litter", quantity: 3), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        }
        await #expect(throws: DomainError.invalid(field: "commandId", reason: "command id \(Self.id.uuidString.lowercased()) was used by another user already")) {
            try await s.handler.handle(AddToCart(productId: "litter"), as: "u-bob", now: DomainScenario.now, commandID: Self.id)
        }
        #expect(try await s.state(CartState.self, Streams.cart("u-bob")).lines.isEmpty)
        #expect(try await s.state(CartState.self, Streams.cart("u-ann")).quantity(of: "litter") == 1)
    }

    @Test func aCommandThatChangedNothingIsDecidedAgain() async throws {
        let s = try await CartTests.customer()
        let nothing = try await s.handler.handle(ClearCart(), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        #expect(nothing.events.isEmpty && !nothing.replayed)
        _ = try await s.handler.handle(AddToCart(productId: "litter"), as: "u-ann", now: DomainScenario.now)
        let cleared = try await s.handler.handle(ClearCart(), as: "u-ann", now: DomainScenario.now, commandID: Self.id)
        #expect(cleared.events.count == 1 && !cleared.replayed)
    }

    @Test func eventIDsDeriveFromTheCommandIDAndDiffer() {
        let ids = (0..<1000).map { DecisionContext.eventID(commandID: Self.id, index: $0) }
        #expect(Set(ids).count == 1000)
        #expect(!ids.contains(Self.id))
        #expect(DecisionContext.eventID(commandID: Self.id, index: 3) == ids[3])
        #expect(ids.allSatisfy { $0.uuidString.dropFirst(14).first == "8" })
        #expect(DecisionContext.eventID(commandID: UUID(), index: 0) != ids[0])
        // Pinned: the log holds ids made this way, and a re-send must find them.
        #expect(ids[0] == UUID(uuidString: "716dd01a-d664-8b8b-bfa1-0128031694a5"))
        #expect(ids[3] == UUID(uuidString: "4e28aa49-0672-86c9-9862-e86a4a578fcc"))
    }
}
