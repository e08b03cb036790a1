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
        "account": (2, 153818472651071874),
        "email": (1, 14045110614156902466),
        "roles": (1, 7304531576599006382),
        "booking": (2, 12639233701186944193),
        "pet-schedule": (2, 3912707086770067295),
        "cart": (1, 8272075150432837359),
        "catalog": (1, 251510146632504405),
        "product": (2, 16669221628067513683),
        "favourites": (1, 8680499429232002947),
        "inventory": (2, 7542441878198982550),
        "conversation": (1, 17515667035231719509),
        "subject-owner": (1, 844394866983197745),
        "order": (2, 4804571016465452282),
        "sale": (1, 11783329231947237703),
        "pet": (1, 16891612323573728842),
        "vet-request": (1, 9777624984424674490),
        "settings": (2, 5512427611516348742),
        "salon": (1, 912143017343329707),
        "salon-day": (1, 3912707086770067295),
        "notification": (1, 3912707086770067295),
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
