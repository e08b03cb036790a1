public import EventLog
import Foundation

/// The cases every ``SnapshotStore`` must pass, in the spirit of swift-log's `LogHandler` requirements: each backend's
/// tests run every case against a fresh, empty store made by a factory of theirs.
///
/// ```swift
/// @Test(arguments: SnapshotStoreConformance.cases)
/// func conformance(_ c: SnapshotStoreConformance.Case) async throws {
///     try await c.run(makeEmptyStore())
/// }
/// ```
public enum SnapshotStoreConformance {
    /// One case: a name for the test report and the check, which throws ``ConformanceFailure``.
    public struct Case: Sendable, CustomStringConvertible {
        public let name: String
        public let run: @Sendable (any SnapshotStore) async throws -> Void

        public var description: String { name }
    }

    /// Every case.
    public static let cases: [Case] = [
        Case(name: "a stream without a snapshot reads as nil", run: missingIsNil),
        Case(name: "a saved snapshot reads back whole", run: roundTrip),
        Case(name: "a save replaces the snapshot of its stream and kind only", run: replaces),
        Case(name: "kinds of fold are kept apart", run: kindsApart),
        Case(name: "one save stores every snapshot given", run: batch),
        Case(name: "forEach visits every snapshot once", run: visitsAll),
        Case(name: "remove forgets one snapshot, removeAll every one", run: removes),
        Case(name: "removeAll(taggedWith:) forgets the snapshots tagged with an account, and only those", run: tagged),
        Case(name: "concurrent saves of different streams all land", run: concurrent),
        Case(name: "an empty state and a large one round-trip", run: sizes),
    ]

    static func snapshot(_ stream: String, kind: String = "cart", version: UInt64 = 3, state: [UInt8] = [1, 2, 3]) -> StreamSnapshot {
        StreamSnapshot(
            stream: StreamID(unchecked: stream), kind: kind, schemaVersion: 2, version: version, position: 1000 + version,
            eventID: UUID(), state: state)
    }

    static func tagged(_ store: any SnapshotStore) async throws {
        var ann1 = snapshot("conversation-c-1", kind: "conversation")
        ann1.subject = "u-ann"
        var ann2 = snapshot("conversation-c-2", kind: "conversation")
        ann2.subject = "u-ann"
        var bob = snapshot("conversation-c-3", kind: "conversation")
        bob.subject = "u-bob"
        let untagged = snapshot("cart-u-ann")
        try await store.save([ann1, ann2, bob, untagged])
        let read = try await store.snapshot(of: ann1.stream, kind: ann1.kind)
        try require(read?.subject == "u-ann", "the tag did not read back: \(String(describing: read))")
        try await store.removeAll(taggedWith: "u-ann")
        for s in [ann1, ann2] {
            let gone = try await store.snapshot(of: s.stream, kind: s.kind)
            try require(gone == nil, "\(s.stream) is still there")
        }
        let kept = try await store.snapshot(of: bob.stream, kind: bob.kind)
        try require(kept == bob, "another account's snapshot went")
        let plain = try await store.snapshot(of: untagged.stream, kind: untagged.kind)
        try require(plain == untagged, "an untagged snapshot went")
        // A retag: saving a state again with another tag moves it.
        var moved = bob
        moved.subject = nil
        try await store.save([moved])
        try await store.removeAll(taggedWith: "u-bob")
        let still = try await store.snapshot(of: bob.stream, kind: bob.kind)
        try require(still == moved, "a snapshot saved untagged was removed by its old tag")
    }

    static func missingIsNil(_ store: any SnapshotStore) async throws {
        let read = try await store.snapshot(of: StreamID(unchecked: "cart-u-1"), kind: "cart")
        try require(read == nil, "an empty store returned a snapshot")
    }

    static func roundTrip(_ store: any SnapshotStore) async throws {
        let s = snapshot("cart-u-1")
        try await store.save([s])
        let read = try await store.snapshot(of: s.stream, kind: s.kind)
        try require(read == s, "read back \(String(describing: read)), saved \(s)")
    }

    static func replaces(_ store: any SnapshotStore) async throws {
        let a = snapshot("cart-u-1", version: 3)
        let other = snapshot("cart-u-2", version: 5)
        try await store.save([a, other])
        let b = snapshot("cart-u-1", version: 9, state: [9, 9])
        try await store.save([b])
        let readA = try await store.snapshot(of: a.stream, kind: a.kind)
        try require(readA == b, "the second save did not replace the first")
        let readOther = try await store.snapshot(of: other.stream, kind: other.kind)
        try require(readOther == other, "a save changed another stream's snapshot")
    }

    static func kindsApart(_ store: any SnapshotStore) async throws {
        let order = snapshot("order-o-1", kind: "order", version: 1)
        let owner = snapshot("order-o-1", kind: "subject-owner", version: 0, state: [7])
        try await store.save([order, owner])
        let readOrder = try await store.snapshot(of: order.stream, kind: "order")
        try require(readOrder == order, "the order fold's snapshot was lost")
        let readOwner = try await store.snapshot(of: order.stream, kind: "subject-owner")
        try require(readOwner == owner, "the other fold's snapshot was lost")
        let readCart = try await store.snapshot(of: order.stream, kind: "cart")
        try require(readCart == nil, "a kind never saved returned a snapshot")
    }

    static func batch(_ store: any SnapshotStore) async throws {
        let many = (0..<200).map { snapshot("cart-u-\($0)", version: UInt64($0)) }
        try await store.save(many)
        for s in many {
            let read = try await store.snapshot(of: s.stream, kind: s.kind)
            try require(read == s, "snapshot of \(s.stream) missing after a batch save")
        }
    }

    static func visitsAll(_ store: any SnapshotStore) async throws {
        let many = (0..<50).map { snapshot("pet-p-\($0)", kind: "pet", version: UInt64($0)) }
        try await store.save(many)
        var seen: [StreamSnapshot] = []
        try await store.forEach { seen.append($0); return true }
        try require(Set(seen) == Set(many) && seen.count == many.count, "forEach visited \(seen.count) snapshots, \(many.count) were saved")
        var visited = 0
        try await store.forEach { _ in visited += 1; return visited < 10 }
        try require(visited == 10, "forEach went on after its body asked it to stop")
    }

    static func removes(_ store: any SnapshotStore) async throws {
        let a = snapshot("cart-u-1")
        let b = snapshot("cart-u-2")
        try await store.save([a, b])
        try await store.remove(stream: a.stream, kind: a.kind)
        let readA = try await store.snapshot(of: a.stream, kind: a.kind)
        try require(readA == nil, "a removed snapshot still reads")
        let readB = try await store.snapshot(of: b.stream, kind: b.kind)
        try require(readB == b, "remove took another stream's snapshot")
        try await store.removeAll()
        let readAfter = try await store.snapshot(of: b.stream, kind: b.kind)
        try require(readAfter == nil, "removeAll left a snapshot")
    }

    static func concurrent(_ store: any SnapshotStore) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<16 {
                group.addTask { try await store.save([snapshot("cart-u-\(i)", version: UInt64(i))]) }
            }
            try await group.waitForAll()
        }
        for i in 0..<16 {
            let read = try await store.snapshot(of: StreamID(unchecked: "cart-u-\(i)"), kind: "cart")
            try require(read?.version == UInt64(i), "a concurrent save was lost")
        }
    }

    static func sizes(_ store: any SnapshotStore) async throws {
        let empty = snapshot("cart-u-empty", state: [])
        let large = snapshot("cart-u-large", state: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await store.save([empty, large])
        let readEmpty = try await store.snapshot(of: empty.stream, kind: empty.kind)
        try require(readEmpty == empty, "an empty state did not round-trip")
        let readLarge = try await store.snapshot(of: large.stream, kind: large.kind)
        try require(readLarge == large, "a 300 KB state did not round-trip")
    }
}
