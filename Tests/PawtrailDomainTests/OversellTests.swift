import EventLog
import EventLogMemory
import Events
import PawtrailDomain
import Testing

/// Many customers race `order.place` for one scarce product through the real handler, in separate tasks on one
/// store: stock is never promised twice.
@Suite("Checkout: no overselling under concurrency")
struct OversellTests {
    static let stock: Int64 = 15
    static let buyers = 10

    /// - Parameter gated: whether the first appends are held until every buyer has decided (all decide from the
    ///   same full stock, so all but one conflict at least once), or the tasks simply run as scheduled.
    @Test(arguments: [false, true]) func racingBuyersNeverOversell(_ gated: Bool) async throws {
        let store = BarrierStore(parties: gated ? Self.buyers : 0)
        var rng = SplitMix64(seed: gated ? 0xC0FFEE : 0x5EED)
        var wants: [String: Int64] = [:]
        var given: [(StreamID, any DomainEvent)] = [
            (Streams.product("scarce"), Shop.listing("scarce", price: 62_000)),
            (Streams.inventory("scarce"), StockReceived(productId: "scarce", quantity: Self.stock)),
        ]
        for n in 0..<Self.buyers {
            let customer = "u-buyer\(n)"
            let quantity = Int64(rng.next() % 5) + 1
            wants[customer] = quantity
            given.append((Streams.account(customer), AccountSignedUp(userId: customer, name: customer, email: "\(customer)@example.com", language: .enUS)))
            given.append((Streams.cart(customer), CartItemAdded(ownerId: customer, productId: "scarce", quantity: quantity)))
        }
        for (stream, event) in given {
            _ = try await store.inner.append(AppendRequest(stream: stream, events: [ProposedEvent(type: event.eventType, data: DomainEventCodec.encode(event))]))
        }
        #expect(wants.values.reduce(0, +) > Self.stock, "demand exceeds stock")

        let handler = CommandHandler(store: store)
        let results = await withTaskGroup(of: (String, Result<CommandOutcome, any Error>).self) { group in
            for customer in wants.keys {
                group.addTask {
                    do {
                        return (customer, .success(try await handler.handle(OrderTests.place("o-\(customer)"), as: customer, now: DomainScenario.now)))
                    } catch {
                        return (customer, .failure(error))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        var loader = StreamLoader(store: store.inner)
        let inventory = try await loader.load(InventoryState.self, Streams.inventory("scarce"))
        var sold: Int64 = 0
        var failures: [DomainError] = []
        for (customer, result) in results {
            let cart = try await loader.load(CartState.self, Streams.cart(customer))
            switch result {
            case .success(let outcome):
                #expect(outcome.events.count == 3)
                sold += wants[customer]!
                #expect(inventory.reserved(for: "o-\(customer)") == wants[customer]!)
                #expect(cart.lines.isEmpty, "a placed order clears its cart")
            case .failure(let error):
                let domainError = try #require(error as? DomainError, "\(customer) failed with \(error)")
                switch domainError {
                case .stockShort(let lines):
                    #expect(lines.count == 1 && lines[0].productID == "scarce" && lines[0].requested == wants[customer]!)
                    // Stock only shrinks during the race, so no buyer was refused while their quantity was left.
                    #expect(inventory.available < wants[customer]!)
                case .conflict:
                    break
                default:
                    Issue.record("\(customer) failed with \(domainError)")
                }
                failures.append(domainError)
                #expect(cart.lines.count == 1, "a failed checkout leaves the cart alone")
            }
        }
        #expect(inventory.reserved == sold)
        #expect(sold <= Self.stock)
        #expect(inventory.onHand == Self.stock)
        #expect(inventory.available >= 0)
        #expect(!failures.isEmpty)
        if gated {
            // Every buyer decided from the full stock; only the first append could match the version they read.
            let firstTry = results.compactMap { try? $0.1.get() }.filter { $0.attempts == 1 }
            #expect(firstTry.count == 1)
        }
    }
}

/// A small seeded generator (SplitMix64), so the race's quantities are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
