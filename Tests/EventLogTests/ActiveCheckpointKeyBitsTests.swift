import EventLog
@testable import EventLogTestKit
@testable import EventLogFile
import Foundation
import PawtrailIO
import Testing

/// The checkpoint keeps 48 bits of each id's key (``ActiveCheckpoint/keyBits``). Ids whose keys share those bits
/// but whose low bits order them against their positions are where a checkpoint built on another, a checkpoint built
/// by a scan, the id index a seal builds from the checkpoint and the one `log verify` builds from the events could
/// disagree on the order of their entries; they must all be the same bytes, and every such id found.
@Suite struct ActiveCheckpointKeyBitsTests {
    /// The inverse of MurmurHash3's finalizer (``Hash128/fmix(_:)``), a bijection of 64-bit values.
    static func unfmix(_ k0: UInt64) -> UInt64 {
        func inverse(_ c: UInt64) -> UInt64 {
            var x = c  // Newton's iteration doubles the correct low bits each step, from 3 for an odd c.
            for _ in 0..<6 { x &*= 2 &- c &* x }
            return x
        }
        var k = k0
        k ^= k >> 33; k &*= inverse(0xc4ce_b9fe_1a85_ec53)
        k ^= k >> 33; k &*= inverse(0xff51_afd7_ed55_8ccd)
        k ^= k >> 33
        return k
    }

    /// An event id whose index key (``EventIDIndexFile/key(_:)``) is `key`.
    static func id(withKey key: UInt64) -> UUID {
        let high: UInt64 = 0x5041_5754_5241_494C
        let low = unfmix(key) ^ Hash128.fmix(high &+ 0x9E37_79B9_7F4A_7C15)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: low >> UInt64(8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: high >> UInt64(8 * i))
        }
        let id = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        precondition(EventIDIndexFile.key(id) == key)
        return id
    }

    /// Three ids sharing their top 48 key bits, their low 16 bits falling as their positions rise.
    static let sharedPrefix: UInt64 = 0x9A3C_5E71_0B2D << 16
    static let colliding = [0xFFF0, 0x8000, 0x0001].map { id(withKey: sharedPrefix | UInt64($0)) }

    @Test func `the ids a key is built from reach the key asked for`() {
        for key: UInt64 in [0, 1, 0xFFFF_FFFF_FFFF_FFFF, 0x0123_4567_89AB_CDEF] {
            #expect(EventIDIndexFile.key(Self.id(withKey: key)) == key)
        }
    }

    @Test func `ids sharing the kept key bits load from a checkpoint, are all found, and seal into the index a scan builds`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, maxSegmentEvents: 60, durability: .noSync, checkpointInterval: 10)
        let late = Self.id(withKey: Self.sharedPrefix)
        // The retries: the three sharing the bits in one commit (a scan builds the checkpoint from their own keys),
        // and a fourth after that checkpoint (the next one is built on the first).
        let retries = [
            AppendRequest(stream: "toy-1", expected: .any, events: Self.colliding.map { event("Bought", "{}", id: $0) }),
            AppendRequest(stream: "toy-2", expected: .any, events: [event("Bought", "{}", id: late)]),
        ]
        var first: [UInt64] = []
        do {
            let store = try FileEventStore.open(path: dir.path, options: options)
            defer { store.close() }
            for k in 0..<4 { try await store.append(to: stream("pet-\(k)"), events(2)) }
            for retry in retries {
                first.append(try #require(try await store.append(retry).firstPosition))
                for k in 0..<10 { try await store.append(to: stream("pet-\(k % 4)"), events(1)) }
            }
            #expect(try store.verify().isOK)
        }
        do {
            let reopened = try FileEventStore.open(path: dir.path, options: options)
            defer { reopened.close() }
            let adopted = try ActiveCheckpointTests.adoptedEvents(reopened)
            let covered = try #require(adopted)
            #expect(covered > first[1], "every id sharing the bits is in the checkpoint taken up")
            // Each retry is recognised: a lookup finds each id among the candidates sharing its kept bits.
            for (retry, position) in zip(retries, first) {
                let again = try await reopened.append(retry)
                #expect(again.wasAlreadyCommitted && again.firstPosition == position)
            }
            // Seal the segment: its id index is built from the checkpoint's cut keys and the full keys after it.
            while try reopened.segmentNames().count < 2 { try await reopened.append(to: stream("pet-9"), events(5)) }
            #expect(try reopened.verify().problems == [])
        }
        #expect(try FileEventStore.verifyWithoutOpening(path: dir.path).isOK)
        let sealed = try FileEventStore.open(path: dir.path, options: options)
        defer { sealed.close() }
        for (retry, position) in zip(retries, first) {
            let again = try await sealed.append(retry)
            #expect(again.wasAlreadyCommitted && again.firstPosition == position, "found in the sealed segment's id index")
        }
    }

    @Test func `a checkpoint built on another is the same bytes as one built by a scan`() async throws {
        let dir = TemporaryDirectory()
        let options = FileEventStoreOptions(createIfMissing: true, durability: .noSync, checkpointInterval: 1_000_000)
        let store = try FileEventStore.open(path: dir.path, options: options)
        try await store.append(to: stream("toy-1"), [event("Bought", "{}", id: Self.colliding[1])])
        try await store.append(to: stream("pet-1"), events(3))
        try await store.append(to: stream("toy-1"), [event("Bought", "{}", id: Self.colliding[2]), event("Bought", "{}", id: Self.colliding[0])])
        try await store.append(to: stream("pet-2"), events(2))
        defer { store.close() }
        let dictionaries = try store.withState(writer: false) { $0.dictionaries }
        let fd = try FileDescriptor.open(dir.path + "/segments/00000000000000000000.seg", .readOnly)
        let end = try fd.size()
        let path = ActiveCheckpointTests.checkpointPath(dir)
        func build(upTo end: UInt64, previous: ActiveCheckpoint?) throws -> [UInt8] {
            try #require(try ActiveCheckpoint.build(
                segment: path, fd: fd, firstPosition: 0, upTo: end, previous: previous, decompressor: ZstdDecompressor(),
                dictionaries: dictionaries))
        }
        let whole = try build(upTo: end, previous: nil)
        // The first frame alone, then the rest on it.
        var scanner = FrameScanner(fd: fd, from: UInt64(LogFormat.segmentHeaderSize), to: end)
        let first = try #require(try scanner.next().0)
        try FileSystem.writeAtomically(try build(upTo: first.offset + UInt64(first.totalLength), previous: nil), to: path, sync: false)
        let previous = try #require(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()))
        #expect(try build(upTo: end, previous: previous) == whole)
        try FileSystem.writeAtomically(whole, to: path, sync: false)
        let checkpoint = try #require(ActiveCheckpoint.decode(try MappedFile(path: path), firstPosition: 0, file: try fd.fileID()))
        #expect(checkpoint.positions(forKey: EventIDIndexFile.key(Self.colliding[0])) == [0, 4, 5])
        #expect(checkpoint.positions(forKey: Self.sharedPrefix | 0x1234) == [0, 4, 5])
        #expect(checkpoint.positions(forKey: Self.sharedPrefix &+ (1 << 16)).isEmpty)
    }
}
