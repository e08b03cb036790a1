import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// The checkpoint encoded from a process's index of the active segment is, byte for byte, the one a scan of the
/// segment's frames builds up to the same end: from an empty index, from one that took up a checkpoint and indexed
/// more after it (streams old and new, ids before and after), and from one that read other processes' frames.
@Suite struct ActiveCheckpointIndexTests {
    static let options = FileEventStoreOptions(
        createIfMissing: true, maxSegmentEvents: 100_000, durability: .noSync, compactSealedSegments: false, checkpointInterval: 0)

    /// The index's checkpoint and the scan's, up to the index's end.
    static func both(_ store: FileEventStore, _ dir: TemporaryDirectory) throws -> (index: [UInt8]?, scan: [UInt8]?) {
        let (segment, view) = try store.withState(writer: false) { s in (s.active!, ActiveCheckpoint.IndexView(s.active!)) }
        let index = ActiveCheckpoint.encode(index: view, file: try segment.fd.fileID())
        let scan = try ActiveCheckpoint.build(
            segment: segment.path, fd: segment.fd, firstPosition: segment.firstPosition, upTo: view.coveredEnd, previous: nil,
            decompressor: ZstdDecompressor(), dictionaries: DictionarySet(directory: dir.path + "/dictionaries", commitLevel: 1, blockLevel: 6))
        return (index, scan)
    }

    /// Where two encodings first differ, `nil` when they are the same (kept short: a failure names the place, not the
    /// bytes).
    static func difference(_ a: [UInt8]?, _ b: [UInt8]?) -> String? {
        guard let a, let b else { return a == nil && b == nil ? nil : "one is missing" }
        let common = min(a.count, b.count)
        guard let at = (0..<common).first(where: { a[$0] != b[$0] }) ?? (a.count == b.count ? nil : common) else { return nil }
        return "first difference at byte \(at) of \(a.count) and \(b.count)"
    }

    /// Appends of 1 to 4 events to streams drawn from ids whose byte order differs from `String`'s.
    static func fill(_ store: FileEventStore, rounds: Int, seed: UInt64, from n: inout Int) async throws {
        var rng = SplitMix64(seed: seed)
        let ids = ActiveCheckpointStreamsTests.ids + (0..<40).map { "order-\($0)" }
        for _ in 0..<rounds {
            let s = ids[Int(rng.next() % UInt64(ids.count))]
            let count = 1 + Int(rng.next() % 4)
            try await store.append(to: stream(s), (0..<count).map { _ in
                n += 1
                return event("Fed", "{\"n\":\(n)}", id: UUID.random())
            })
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func `the index's checkpoint is the scan's, before and after one is taken up`(seed: UInt64) async throws {
        let dir = TemporaryDirectory()
        var n = 0
        do {
            let store = try FileEventStore.open(path: dir.path, options: Self.options)
            defer { store.close() }
            try await Self.fill(store, rounds: 150, seed: seed, from: &n)
            let (index, scan) = try Self.both(store, dir)
            #expect(index != nil)
            #expect(Self.difference(index, scan) == nil, "from an empty index")
            try FileSystem.writeAtomically(index!, to: ActiveCheckpointTests.checkpointPath(dir), sync: false)
        }
        // A second process takes the checkpoint up and appends more; a third appends between its appends.
        let store = try FileEventStore.open(path: dir.path, options: Self.options)
        defer { store.close() }
        #expect(try ActiveCheckpointTests.adoptedEvents(store) == UInt64(n))
        try await Self.fill(store, rounds: 80, seed: seed + 10, from: &n)
        let other = try FileEventStore.open(path: dir.path, options: Self.options)
        try await Self.fill(other, rounds: 30, seed: seed + 20, from: &n)
        other.close()
        try await Self.fill(store, rounds: 40, seed: seed + 30, from: &n)
        let (index, scan) = try Self.both(store, dir)
        #expect(Self.difference(index, scan) == nil, "from a checkpoint taken up, with frames of this process and another after it")
        #expect(try store.verify().isOK)
    }
}

/// splitmix64, for reproducible histories.
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
