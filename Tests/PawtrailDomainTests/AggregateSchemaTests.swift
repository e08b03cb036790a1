import EventLog
import EventLogMemory
import Events
import Foundation
import PawtrailDomain
import Testing

/// Pins each aggregate's fold: a digest of the states it folds from a fixed history (every stream of a seeded random
/// run of commands), beside its schema version. A change to an `evolve`, or to a state's fields or encoding, changes
/// the digest; snapshots saved by the old fold would then be taken up by the new one as if they were its own. So
/// when this test fails, bump the aggregate's `schemaVersion` (its old snapshots are then passed over) and pin the
/// new pair printed in the failure. (The history is ``CommandWorld``'s with a fixed seed: a change to that world
/// changes every digest without any fold changing; then pin them all again, versions unchanged.)
@Suite("Snapshots: every aggregate's fold is pinned to its schema version")
struct AggregateSchemaTests {
    static let aggregates: [any Aggregate.Type] = AggregateCatalog.all

    /// kind: (schema version, digest of the folds).
    static let pinned: [String: (Int, UInt64)] = [
        "account": (2, 13882904086013709126),
        "email": (1, 2179157366222342860),
        "roles": (1, 4897049029546778868),
        "booking": (2, 4839546464933147507),
        "pet-schedule": (2, 7787340166183382049),
        "cart": (1, 11646729174554608753),
        "catalog": (1, 4689009033874922303),
        "product": (2, 3818524782594849031),
        "favourites": (1, 2566891753714536825),
        "inventory": (2, 14668996814591708416),
        "conversation": (1, 8325837016989523935),
        "subject-owner": (1, 3598090887313345951),
        "order": (2, 3604388836793067782),
        "sale": (1, 3907213787044443865),
        "pet": (1, 9756223011824158254),
        "vet-request": (1, 4319600807585519996),
        "settings": (1, 7787340166183382049),
        "salon": (1, 10322384493031028309),
        "salon-day": (1, 7787340166183382049),
        "notification": (1, 7787340166183382049),
    ]

    @Test func kindsAreUnique() {
        let kinds = Self.aggregates.map { $0.snapshotKind }
        #expect(Set(kinds).count == kinds.count)
        #expect(Set(kinds) == Set(Self.pinned.keys), "every aggregate is pinned, and only those")
    }

    @Test func eachFoldMatchesItsPinnedDigest() async throws {
        let events = try await Self.history()
        var mismatches: [String] = []
        for type in Self.aggregates {
            let digest = Self.digest(type, events)
            let (version, pinnedDigest) = Self.pinned[type.snapshotKind] ?? (-1, 0)
            if version != type.schemaVersion || digest != pinnedDigest {
                mismatches.append("\"\(type.snapshotKind)\": (\(type.schemaVersion), \(digest))")
            }
        }
        #expect(mismatches.isEmpty, "folds changed; bump their schemaVersion and pin: \(mismatches.joined(separator: ", "))")
    }

    /// Each stream's events, decoded, in order.
    static func history() async throws -> [StreamID: [any DomainEvent]] {
        let store = InMemoryEventStore()
        let handler = CommandHandler(store: store)
        var rng = SeededGenerator(seed: 20_261_201)
        let world = CommandWorld()
        for step in 0..<600 {
            let (user, command) = world.next(&rng, step: step)
            let now = Timestamp(microsecondsSinceEpoch: CommandWorld.start.microsecondsSinceEpoch + Int64(step) * 60_000_000)
            func run<C: DomainCommand>(_ c: C) async {
                _ = try? await handler.handle(c, as: user, now: now, commandID: UUID(uuid: deterministicUUID(seed: 7, step: step)))
            }
            await run(command)
        }
        var out: [StreamID: [any DomainEvent]] = [:]
        try await store.forEachPage(.all) { page in
            for e in page {
                if let event = try EventCatalog.domain.decode(type: e.type, data: e.data) { out[e.stream, default: []].append(event) }
            }
            return true
        }
        return out
    }

    /// FNV-1a over every stream's folded state (in stream order), with the stream's id between.
    static func digest(_ type: any Aggregate.Type, _ events: [StreamID: [any DomainEvent]]) -> UInt64 {
        func fold<A: Aggregate>(_ a: A.Type, _ events: [any DomainEvent]) -> [UInt8] { A.folded(events).snapshotBytes() }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for stream in events.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            for b in Array(stream.rawValue.utf8) + [0] + fold(type, events[stream]!) {
                h ^= UInt64(b)
                h &*= 0x0000_0100_0000_01B3
            }
        }
        return h
    }
}
