import EventLog
import EventLogMemory
import Events
import Foundation
import PawtrailDomain
import Testing

/// The decision from a snapshot is the decision from a full fold: the same random histories of commands run against
/// two stores, one deciding from full folds only, the other from snapshots (saved every 1 to 5 events, some of them
/// then removed, damaged or left stale) and a state cache; every command must append the same events at the same
/// versions, or fail with the same error, on both.
@Suite("Snapshots: decisions equal a full fold's")
struct SnapshotEquivalenceTests {
    @Test(arguments: 0..<24)
    func randomHistoriesDecideAlike(seed: Int) async throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        let plain = InMemoryEventStore()
        let snapshotted = InMemoryEventStore()
        let snapshots = InMemorySnapshotStore()
        let policy = SnapshotPolicy(everyEvents: UInt64(1 + seed % 5))
        let full = CommandHandler(store: plain)
        let cached = CommandHandler(store: snapshotted, snapshots: snapshots, cache: seed % 2 == 0 ? StateCache(capacity: 64) : nil, policy: policy)
        let world = CommandWorld()
        var compared = 0
        var statsFull = LoadStats()
        var statsSnapshots = LoadStats()
        for step in 0..<400 {
            let (user, command) = world.next(&rng, step: step)
            let id = UUID(uuid: deterministicUUID(seed: seed, step: step))
            let now = Timestamp(microsecondsSinceEpoch: CommandWorld.start.microsecondsSinceEpoch + Int64(step) * 60_000_000)
            let a = await Self.outcome(full, command, user, now, id, &statsFull)
            let b = await Self.outcome(cached, command, user, now, id, &statsSnapshots)
            guard a == b else {
                Issue.record("seed \(seed), step \(step), \(type(of: command).name) as \(user): full fold \(a), from snapshots \(b)")
                return
            }
            compared += 1
            // Disturb the cache of snapshots: what a crash, a damaged file or a restored copy could leave.
            if rng.next() % 9 == 0 { try await Self.disturb(snapshots, &rng) }
        }
        let logA = try await plain.readAll()
        let logB = try await snapshotted.readAll()
        #expect(logA.count == logB.count)
        for (i, pair) in zip(logA, logB).enumerated() where !Self.same(pair.0, pair.1) {
            Issue.record("the logs differ at position \(i): \(pair.0.stream)@\(pair.0.version) against \(pair.1.stream)@\(pair.1.version)")
            break
        }
        #expect(compared == 400)
        // The comparison means something only if the second store did take states up from snapshots (or its cache).
        #expect(statsSnapshots.snapshotHits + statsSnapshots.cacheHits > 10, "\(statsSnapshots)")
        #expect(statsSnapshots.eventsRead < statsFull.eventsRead, "from snapshots \(statsSnapshots), full folds \(statsFull)")
    }

    static func same(_ a: RecordedEvent, _ b: RecordedEvent) -> Bool {
        a.stream == b.stream && a.version == b.version && a.type == b.type && a.data == b.data
    }

    /// What a command did, comparable across stores: its events, or its error.
    enum Result: Equatable {
        case appended([String])
        case failed(String)
    }

    static func outcome(
        _ handler: CommandHandler, _ command: any DomainCommand, _ user: String, _ now: Timestamp, _ id: UUID, _ stats: inout LoadStats
    ) async -> Result {
        func run<C: DomainCommand>(_ c: C, _ stats: inout LoadStats) async -> Result {
            do {
                let outcome = try await handler.handle(c, as: user, now: now, commandID: id)
                stats.add(outcome.loadStats)
                return .appended(outcome.events.map { "\($0.stream)@\($0.version) \($0.event.eventType) \(DomainEventCodec.encode($0.event))" })
            } catch {
                return .failed("\(error)")
            }
        }
        return await run(command, &stats)
    }

    /// Removes, damages or makes stale some snapshots.
    static func disturb(_ snapshots: InMemorySnapshotStore, _ rng: inout SeededGenerator) async throws {
        var all: [StreamSnapshot] = []
        try await snapshots.forEach { all.append($0); return true }
        guard !all.isEmpty else { return }
        var s = all[Int(rng.next() % UInt64(all.count))]
        switch rng.next() % 4 {
        case 0:
            try await snapshots.remove(stream: s.stream, kind: s.kind)
        case 1:
            // Damage a store detects reads as no state at all; what is left to the loader is bytes that do not decode.
            s.state = []
            try await snapshots.save([s])
        case 2:
            // Another history: the same version said to be at another position.
            s.position += 1
            try await snapshots.save([s])
        default:
            // A fold of another version.
            s.schemaVersion += 1
            try await snapshots.save([s])
        }
    }
}

/// A small shop whose commands are drawn at random, valid and invalid alike: an admin, a staff member, customers,
/// the bundled catalog, carts, favourites, orders through their lifecycle, till sales, pets, bookings, vet requests.
struct CommandWorld {
    static let start = Timestamp(iso8601: "2026-12-01T08:00:00Z")!
    let customers = ["u-ann", "u-bo", "u-cy", "u-di"]
    let products = ["product_cat_001", "product_cat_002", "product_dog_001", "product_cat_003"]
    let pets = ["p-rex", "p-tom", "p-kit"]

    func next(_ rng: inout SeededGenerator, step: Int) -> (String, any DomainCommand) {
        // The first steps open the shop, so that most later commands can succeed.
        let opening: [(String, any DomainCommand)] = [
            ("u-ada", SignUp(name: "Ada", email: "ada@shop.example")), ("u-ada", BootstrapAdmin()), ("u-ada", SeedCatalog()),
            ("u-sam", SignUp(name: "Sam", email: "sam@shop.example")), ("u-ada", GrantRole(userId: "u-sam", role: .staff)),
            ("u-ann", SignUp(name: "Ann", email: "ann@mail.example")), ("u-bo", SignUp(name: "Bo", email: "bo@mail.example")),
            ("u-cy", SignUp(name: "Cy", email: "cy@mail.example")),
        ]
        if step < opening.count { return opening[step] }
        let customer = pick(customers, &rng)
        let product = pick(products, &rng)
        let pet = pick(pets, &rng)
        let later = Timestamp(microsecondsSinceEpoch: Self.start.microsecondsSinceEpoch + 86_400_000_000 * Int64(1 + rng.next() % 9))
        let slot = Timestamp(microsecondsSinceEpoch: later.microsecondsSinceEpoch - later.microsecondsSinceEpoch % 1_800_000_000)
        let order = "o-\(rng.next() % 6)"
        let booking = "b-\(rng.next() % 4)"
        let conversation = "c-\(rng.next() % 3)"
        let message = "m-\(rng.next() % 5)"
        let request = "v-\(rng.next() % 3)"
        switch rng.next() % 32 {
        case 0, 1, 2: return (customer, AddToCart(productId: product, quantity: Int64(1 + rng.next() % 3)))
        case 3: return (customer, ChangeCartQuantity(productId: product, quantity: Int64(rng.next() % 4)))
        case 4: return (customer, RemoveFromCart(productId: product))
        case 5:
            return (customer, PlaceOrder(orderId: order, deliveryAddress: "House 1", deliverySlot: later, recipientName: "R", recipientPhone: "+880 1711 100037", payment: .cash))
        case 6: return ("u-sam", ConfirmOrder(orderId: order))
        case 7: return ("u-sam", ShipOrder(orderId: order))
        case 8: return ("u-sam", DeliverOrder(orderId: order))
        case 9: return (rng.next() % 2 == 0 ? customer : "u-sam", CancelOrder(orderId: order))
        case 10: return ("u-ada", ReceiveStock(productId: product, quantity: Int64(1 + rng.next() % 8)))
        case 11: return ("u-ada", AdjustStock(productId: product, delta: Int64(rng.next() % 5) - 2, reason: "count"))
        case 12: return ("u-sam", SellInStore(lines: [SaleItem(productId: product, quantity: Int64(1 + rng.next() % 2))], payment: .cash))
        case 13: return (customer, AddFavourite(productId: product))
        case 14: return (customer, RemoveFavourite(productId: product))
        case 15: return (customer, AddPet(petId: pet, name: "Rex", species: .dog))
        case 16: return (customer, LogWeight(petId: pet, weightGrams: Int64(2000 + rng.next() % 900)))
        case 17: return (customer, RequestBooking(petId: pet, service: .bath, slot: slot, bookingId: booking))
        case 18: return ("u-sam", ConfirmBooking(bookingId: booking))
        case 19: return (customer, CancelBooking(bookingId: booking))
        case 20: return (customer, Login())
        case 21: return (customer, StartConversation(subject: .order, subjectId: order, conversationId: conversation))
        case 22: return (rng.next() % 2 == 0 ? customer : "u-sam", SendMessage(conversationId: conversation, clientMessageId: message, text: "hello"))
        case 23: return (rng.next() % 2 == 0 ? customer : "u-sam", MarkMessagesRead(conversationId: conversation, messageId: message))
        case 24: return (customer, SubmitVetRequest(petId: pet, symptoms: "sneezing", urgency: .normal, requestId: request))
        case 25: return ("u-sam", AnswerVetRequest(requestId: request, answer: "rest"))
        case 26: return (customer, RecordVaccination(petId: pet, vaccine: "rabies", givenOn: Self.start))
        case 27: return (customer, OpenHealthIssue(petId: pet, title: "limp"))
        case 28: return ("u-sam", CompleteBooking(bookingId: booking))
        case 29: return (customer, RescheduleBooking(bookingId: booking, slot: slot))
        case 30: return ("u-ada", rng.next() % 2 == 0 ? DelistProduct(productId: product) : RelistProduct(productId: product))
        default: return (customer, UpdateProfile(name: "N\(rng.next() % 3)"))
        }
    }

    private func pick(_ values: [String], _ rng: inout SeededGenerator) -> String { values[Int(rng.next() % UInt64(values.count))] }
}

/// SplitMix64: a small, seeded, reproducible generator.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A UUID made from a seed and a step, so both stores see the same command ids.
func deterministicUUID(seed: Int, step: Int) -> uuid_t {
    var g = SeededGenerator(seed: UInt64(seed) << 32 | UInt64(step))
    let a = g.next()
    let b = g.next()
    return withUnsafeBytes(of: (a, b)) { $0.loadUnaligned(as: uuid_t.self) }
}
