import EventLog
import EventLogMemory
import Events
import Foundation
import PawtrailDomain
import Testing

/// `snapshots build` saves, for every stream commands fold, the snapshots commands would have saved: the same
/// (stream, kind) pairs, each equal to a fresh fold of its stream.
@Suite("Snapshots: built in one pass over the log")
struct SnapshotBuilderTests {
    @Test(arguments: 0..<4)
    func aBuildCoversEveryStreamCommandsFoldAndEachSnapshotIsItsFold(seed: Int) async throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 77)
        let store = InMemoryEventStore()
        let used = InMemorySnapshotStore()
        // Every fold of a command saves a snapshot: the pairs saved are every (stream, kind) a command folds.
        let handler = CommandHandler(store: store, snapshots: used, policy: SnapshotPolicy(everyEvents: 1))
        let world = CommandWorld()
        var ignored = LoadStats()
        for step in 0..<300 {
            let (user, command) = world.next(&rng, step: step)
            let now = Timestamp(microsecondsSinceEpoch: CommandWorld.start.microsecondsSinceEpoch + Int64(step) * 60_000_000)
            _ = await SnapshotEquivalenceTests.outcome(
                handler, command, user, now, UUID(uuid: deterministicUUID(seed: seed, step: step)), &ignored)
        }
        await handler.saveQueuedSnapshots()
        var folded: Set<String> = []
        try await used.forEach { s in
            folded.insert("\(s.stream) \(s.kind)")
            return true
        }
        let built = InMemorySnapshotStore()
        let report = try await SnapshotBuilder(store: store, snapshots: built, minimumEvents: 1).run()
        #expect(report.eventsRead == Int(try await store.lastPosition()! + 1))
        var pairs: Set<String> = []
        try await built.forEach { s in
            pairs.insert("\(s.stream) \(s.kind)")
            return true
        }
        #expect(folded.subtracting(pairs).isEmpty, "streams commands fold that the build left out: \(folded.subtracting(pairs).sorted().prefix(5))")
        let verified = try await SnapshotVerifier(store: store, snapshots: built).run()
        #expect(verified.isClean && verified.counts[.matches] == report.snapshotsSaved, "\(verified.counts)")
        #expect(report.snapshotsSaved > 50)
    }

    @Test func streamsShorterThanTheMinimumAreLeftOut() async throws {
        let store = InMemoryEventStore()
        let handler = CommandHandler(store: store)
        var rng = SeededGenerator(seed: 5)
        let world = CommandWorld()
        var ignored = LoadStats()
        for step in 0..<200 {
            let (user, command) = world.next(&rng, step: step)
            let now = Timestamp(microsecondsSinceEpoch: CommandWorld.start.microsecondsSinceEpoch + Int64(step) * 60_000_000)
            _ = await SnapshotEquivalenceTests.outcome(handler, command, user, now, UUID(), &ignored)
        }
        let built = InMemorySnapshotStore()
        _ = try await SnapshotBuilder(store: store, snapshots: built, minimumEvents: 6).run()
        try await built.forEach { s in
            #expect(s.version + 1 >= 6, "\(s.stream) has \(s.version + 1) events")
            return true
        }
    }
}
