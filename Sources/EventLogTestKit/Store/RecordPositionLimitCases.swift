// The store conformance cases, one type per concern (the list every backend runs is EventStoreConformance.cases):
//
// - RecordPositionLimitCases.swift (this file): record round trips, positions/versions/time, limits.
// - ExpectedVersionMatrixCases.swift: every expected version against a missing and an existing stream.
// - KurrentDBAppendToStreamCases.swift: the cases of KurrentDB's append_to_stream.cs and idempotency.cs.
// - IdempotencyCases.swift: retries by event id (AppendPlanner), durable across reopening.
// - MultiStreamAppendCases.swift: atomic appends over several streams, check-only conditions.
// - ConcurrencyCases.swift: concurrent writers within a process.
// - ReadCases.swift: stream, all and category reads, paging, filters.
// - FollowCases.swift: follow and waitForAppends.
//
// Helpers: StoreHarness.swift (what a backend's tests provide) and Support/Fixtures.swift.

import EventLog
import Foundation
import Synchronization
import Testing

/// A thread-safe counter for test clocks.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { v in defer { v += 1 }; return v } }
}

struct RecordRoundTripCases {
    static func everyRecordFieldRoundTrips(_ h: any StoreHarness) async throws {
        var metadata = EventMetadata()
        metadata[EventMetadata.correlationID] = "corr-9f1c"
        metadata[EventMetadata.causationID] = "cmd-77"
        metadata[EventMetadata.actor] = "user:ana"
        metadata["tenant"] = "shelter-🐾"
        metadata["empty"] = ""
        metadata["zz.last-key:1"] = String(repeating: "v", count: 300)
        let first = ProposedEvent(
            id: UUID(), type: "PetAdmitted", data: Array(0...255) + Array(0...255).reversed(), metadata: metadata)
        let second = ProposedEvent(id: UUID(), type: "Pet.Vaccinated_v2-x:y", data: Array("{\"dose\":2}".utf8))
        let third = ProposedEvent(id: UUID(), type: "NoteAdded", data: [])

        let before = Timestamp.now()
        let result = try await h.store.append(
            AppendRequest(entries: [
                .init(stream: "pet-1", event: first), .init(stream: "pet-1", event: second),
                .init(stream: "shelter-2", event: third),
            ]))
        let after = Timestamp.now()
        #expect(result.firstPosition == 0)
        #expect(result.lastPosition == 2)
        #expect(result.streams == [.init(stream: "pet-1", version: 1), .init(stream: "shelter-2", version: 0)])
        #expect(result.wasAlreadyCommitted == false)

        try h.checkpoint()
        let all = try await h.store.readAll()
        try #require(all.count == 3)
        let expected: [(UInt64, StreamID, UInt64, ProposedEvent)] = [
            (0, "pet-1", 0, first), (1, "pet-1", 1, second), (2, "shelter-2", 0, third),
        ]
        for (recorded, (position, stream, version, proposed)) in zip(all, expected) {
            #expect(recorded.position == position)
            #expect(recorded.stream == stream)
            #expect(Array(recorded.stream.rawValue.utf8) == Array(stream.rawValue.utf8))
            #expect(recorded.version == version)
            #expect(recorded.type == proposed.type)
            #expect(recorded.id == proposed.id)
            #expect(recorded.data == proposed.data)
            #expect(recorded.metadata == proposed.metadata)
            #expect(recorded.metadata.dictionary == proposed.metadata.dictionary)
            #expect(recorded.hasSameContent(as: proposed))
            #expect(recorded.recordedAt >= before && recorded.recordedAt <= after)
        }
        #expect(all[0].metadata[EventMetadata.correlationID] == "corr-9f1c")
        #expect(all[0].metadata[EventMetadata.causationID] == "cmd-77")
        #expect(all[0].metadata[EventMetadata.actor] == "user:ana")
        #expect(all[0].metadata["tenant"] == "shelter-🐾")
        #expect(all[0].metadata["empty"] == "")
        #expect(all[2].data.isEmpty)
        #expect(all[2].metadata.isEmpty)
        // One commit: one time.
        #expect(all[0].recordedAt == all[2].recordedAt)

        // Every way of reading returns the same records.
        #expect(try await h.store.readAll(.stream("pet-1")) == Array(all[0...1]))
        #expect(try await h.store.readAll(.stream("shelter-2")) == [all[2]])
        #expect(try await h.store.readAll(.category("pet")) == Array(all[0...1]))
        #expect(try await h.store.readAll(.all, direction: .backward) == all.reversed())
        #expect(try await h.store.streamVersion(of: "pet-1") == 1)
        #expect(try await h.store.streamVersion(of: "shelter-2") == 0)
        #expect(try await h.store.lastPosition() == 2)
    }

    static func emptyDataAndEmptyMetadataRoundTrip(_ h: any StoreHarness) async throws {
        let e = ProposedEvent(id: uuid(1), type: "Empty", data: [])
        try await h.store.append(to: "empty-1", [e])
        try h.checkpoint()
        let read = try await h.store.events(of: "empty-1")
        try #require(read.count == 1)
        #expect(read[0].data == [])
        #expect(read[0].metadata == EventMetadata())
        #expect(read[0].id == uuid(1))
    }

    static func eventOfExactlyTheMaximumSizeIsAccepted(_ h: any StoreHarness) async throws {
        let metadata: EventMetadata = ["actor": "user:ana", "k": "value"]
        let metaBytes = metadata.pairs.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        var data = [UInt8](repeating: 0, count: EventLimits.maxEventBytes - metaBytes)
        for i in data.indices { data[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 7) }
        let big = ProposedEvent(id: UUID(), type: "Big", data: data, metadata: metadata)
        #expect(big.payloadSize == EventLimits.maxEventBytes)

        let result = try await h.store.append(to: "big-1", expected: .noStream, [big, event()])
        #expect(result.streams == [.init(stream: "big-1", version: 1)])
        try h.checkpoint()
        let read = try await h.store.events(of: "big-1")
        try #require(read.count == 2)
        #expect(read[0].data == data, "the 1 MiB payload changed on the way")
        #expect(read[0].metadata == metadata)
        #expect(read[1].position == 1)
    }

    static func eventOneByteOverTheMaximumSizeIsRejected(_ h: any StoreHarness) async throws {
        let tooBig = ProposedEvent(type: "Big", data: [UInt8](repeating: 7, count: EventLimits.maxEventBytes + 1))
        await expectInvalidRequest { try await h.store.append(to: "big-1", [tooBig]) }
        // Metadata counts toward the size too.
        let tooBigWithMetadata = ProposedEvent(
            type: "Big", data: [UInt8](repeating: 7, count: EventLimits.maxEventBytes), metadata: ["a": ""])
        await expectInvalidRequest { try await h.store.append(to: "big-1", [event(), tooBigWithMetadata]) }
        #expect(try await h.store.lastPosition() == nil)
        #expect(try await h.store.streamVersion(of: "big-1") == nil)
    }

    /// Stream ids that are distinct byte strings and not canonically equivalent to each other.
    static let unicodeStreamIDs = [
        "pet-🐶-ß", "заказ-1", "注文-42", "e\u{301}\u{302}-combining", "ma\u{0300}ma-1", "عربي-٣",
        "family-👩\u{200D}👩\u{200D}👧", "🐶", String(repeating: "ß", count: 128),
    ]

    static func unicodeStreamIDsRoundTrip(_ h: any StoreHarness) async throws {
        var streams: [StreamID] = []
        for (i, raw) in Self.unicodeStreamIDs.enumerated() {
            let s = try StreamID(raw)
            streams.append(s)
            try await h.store.append(to: s, expected: .noStream, [event("Named", "{\"i\":\(i)}")])
            try await h.store.append(to: s, expected: .exact(0), [event("Named", "{\"i\":\(i),\"again\":true}")])
        }
        try h.checkpoint()
        for (i, s) in streams.enumerated() {
            #expect(try await h.store.streamVersion(of: s) == 1, "\(s)")
            let read = try await h.store.events(of: s)
            #expect(read.map(\.version) == [0, 1], "\(s)")
            #expect(read.allSatisfy { Array($0.stream.rawValue.utf8) == Array(s.rawValue.utf8) }, "\(s)")
            #expect(read.first?.data == Array("{\"i\":\(i)}".utf8))
            #expect(read.map(\.position) == [UInt64(2 * i), UInt64(2 * i + 1)])
        }
        #expect(try await h.store.readAll(.category("pet")).count == 2)
        #expect(try await h.store.readAll(.category("заказ")).count == 2)
        #expect(try await h.store.readAll(.category("🐶")).count == 2)
    }

    /// `StreamID` is `Hashable` through `String`, whose equality is Unicode canonical equivalence: "café-1" with a
    /// precomposed é and "café-1" with e + U+0301 are equal `StreamID`s today. Whatever `StreamID` equality is, a
    /// store must agree with it, before and after its data moves to sealed segments: equal ids are one stream
    /// (one version sequence), unequal ids are two.
    static func streamsFollowStreamIDEqualityForCanonicallyEquivalentIDs(_ h: any StoreHarness) async throws {
        let precomposed = try sid("caf\u{E9}-1")
        let decomposed = try sid("cafe\u{301}-1")
        let same = precomposed == decomposed
        // Events of ~3 KB compressed, so that with 4 KiB segments the first ones are in sealed segments when read.
        let pad = noise(6000)
        try await h.store.append(to: precomposed, expected: .noStream, [event("Named", "{\"pad\":\"\(pad)\"}")])
        try await h.store.append(to: decomposed, [event("Named", "{\"pad\":\"\(pad)\"}")])
        for _ in 0..<3 { try await h.store.append(to: "other-1", [event("Named", "{\"pad\":\"\(pad)\"}")]) }
        try h.expectRolledOver()
        try h.checkpoint()
        for id in [precomposed, decomposed] {
            let version = try await h.store.streamVersion(of: id)
            let versions = try await h.store.events(of: id).map(\.version)
            #expect(version == (same ? 1 : 0), "\(Array(id.rawValue.unicodeScalars))")
            #expect(versions == (same ? [0, 1] : [0]), "\(Array(id.rawValue.unicodeScalars))")
        }
        // The next append at the right expected version succeeds, and no stream ever holds a version twice.
        try await h.store.append(to: precomposed, expected: .exact(same ? 1 : 0), [event("Named")])
        var seen: [StreamID: Set<UInt64>] = [:]
        for e in try await h.store.readAll() {
            #expect(seen[e.stream, default: []].insert(e.version).inserted, "\(e.stream) holds version \(e.version) twice")
        }
    }

    static func tenThousandEventsInOneAppendAreAccepted(_ h: any StoreHarness) async throws {
        let batch = events(EventLimits.maxEventsPerAppend, type: "Tick")
        let result = try await h.store.append(to: "ticks-1", expected: .noStream, batch)
        #expect(result.firstPosition == 0)
        #expect(result.lastPosition == 9_999)
        #expect(result.streams == [.init(stream: "ticks-1", version: 9_999)])
        try h.checkpoint()
        let read = try await h.store.readAll(.all, pageSize: 4096)
        #expect(read.count == 10_000)
        #expect(read.allSatisfy { $0.stream == "ticks-1" })
        #expect(read.map(\.version) == Array(0..<10_000))
        #expect(read.map(\.id) == batch.map(\.id))
        #expect(Set(read.map(\.recordedAt)).count == 1, "one commit, one time")
        // Stream reads: pages at both ends only. (Reading the whole stream by stream is quadratic in the file
        // store when the events share one commit: ~20 s in debug for these 10,000; see the test report.)
        let head = try await h.store.read(ReadRequest(source: .stream("ticks-1"), limit: 50))
        #expect(head.events == Array(read.prefix(50)))
        #expect(head.next == 50)
        let tail = try await h.store.read(ReadRequest(source: .stream("ticks-1"), direction: .backward, limit: 50))
        #expect(tail.events == Array(read.suffix(50).reversed()))
        #expect(tail.next == 9_949)
        #expect(try await h.store.streamVersion(of: "ticks-1") == 9_999)
    }

    static func tenThousandAndOneEventsInOneAppendAreRejected(_ h: any StoreHarness) async throws {
        await expectInvalidRequest {
            try await h.store.append(to: "ticks-1", events(EventLimits.maxEventsPerAppend + 1, type: "Tick"))
        }
        #expect(try await h.store.lastPosition() == nil)
        #expect(try await h.store.streamVersion(of: "ticks-1") == nil)
    }
}

struct PositionCases {
    static func positionsAreGaplessFromZeroAcrossAppendsAndStreams(_ h: any StoreHarness) async throws {
        // ~150-byte (compressed) events so that 4 KiB segments roll over several times.
        let pad = noise(280)
        let streams: [StreamID] = ["order-1", "order-2", "inventory-a"]
        var expectedPosition: UInt64 = 0
        var expectedVersions: [StreamID: UInt64] = [:]
        for round in 0..<12 {
            let s = streams[round % streams.count]
            let n = round % 4 + 1
            let batch = (0..<n).map { i in event("Step", "{\"round\":\(round),\"i\":\(i),\"pad\":\"\(pad)\"}") }
            let result = try await h.store.append(to: s, batch)
            #expect(result.firstPosition == expectedPosition)
            #expect(result.lastPosition == expectedPosition + UInt64(n) - 1)
            let version = (expectedVersions[s].map { $0 + 1 } ?? 0) + UInt64(n) - 1
            #expect(result.streams == [.init(stream: s, version: version)])
            expectedVersions[s] = version
            expectedPosition += UInt64(n)
            if round == 5 { try h.checkpoint() }
        }
        try h.expectRolledOver()
        try h.checkpoint()
        let all = try await h.store.readAll(pageSize: 7)
        #expect(all.map(\.position) == Array(0..<expectedPosition))
        #expect(try await h.store.lastPosition() == expectedPosition - 1)
        for s in streams {
            let mine = all.filter { $0.stream == s }
            #expect(mine.map(\.version) == Array(0..<UInt64(mine.count)), "versions of \(s) are 0-based and gapless")
            #expect(try await h.store.streamVersion(of: s) == expectedVersions[s])
            #expect(try await h.store.events(of: s) == mine)
        }
        for (a, b) in zip(all, all.dropFirst()) {
            #expect(a.recordedAt <= b.recordedAt, "recordedAt decreased from position \(a.position) to \(b.position)")
        }
    }

    static func theTimeIndexFindsTheLastEventRecordedAtOrBeforeATime(_ h: any StoreHarness) async throws {
        #expect(try await h.store.lastPosition(atOrBefore: .now()) == nil)
        var times: [Timestamp] = []
        for n in 0..<5 {
            try await h.store.append(to: StreamID(unchecked: "pet-\(n)"), events(n + 1))
            times.append(try await h.store.readAll().last!.recordedAt)
            try await Task.sleep(for: .milliseconds(2))
        }
        try h.checkpoint()
        let all = try await h.store.readAll()
        #expect(try await h.store.lastPosition(atOrBefore: Timestamp(microsecondsSinceEpoch: times[0].microsecondsSinceEpoch - 1)) == nil)
        for (n, t) in times.enumerated() {
            let last = all.last { $0.recordedAt <= t }!.position
            #expect(try await h.store.lastPosition(atOrBefore: t) == last, "commit \(n)")
            #expect(last == UInt64((n + 1) * (n + 2) / 2 - 1))
        }
        #expect(try await h.store.lastPosition(atOrBefore: Timestamp(microsecondsSinceEpoch: .max)) == all.last!.position)
    }

    static func emptyStoreHasNoPositionAndNoStreams(_ h: any StoreHarness) async throws {
        #expect(try await h.store.lastPosition() == nil)
        #expect(try await h.store.streamVersion(of: "pet-1") == nil)
        try h.checkpoint()
        #expect(try await h.store.lastPosition() == nil)
        #expect(try await h.store.read(ReadRequest(source: .all)) == ReadBatch(events: [], next: nil))
    }

    static func versionsAreZeroBasedPerStream(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "a-1", events(2))
        try await h.store.append(to: "b-1", events(1))
        try await h.store.append(to: "a-1", events(1))
        try h.checkpoint()
        #expect(try await h.store.events(of: "a-1").map(\.version) == [0, 1, 2])
        #expect(try await h.store.events(of: "a-1").map(\.position) == [0, 1, 3])
        #expect(try await h.store.events(of: "b-1").map(\.version) == [0])
        #expect(try await h.store.events(of: "b-1").map(\.position) == [2])
    }
}

extension PositionCases {
    /// What tells a snapshot of a stream from one of another history: the position of a version, from the index.
    static func theStreamIndexGivesEachVersionsPosition(_ h: any StoreHarness) async throws {
        let pad = noise(280)
        for round in 0..<9 {
            try await h.store.append(to: round % 3 == 0 ? "b-1" : "a-1", [event("Step", "{\"round\":\(round),\"pad\":\"\(pad)\"}")])
            if round == 4 { try h.checkpoint() }
        }
        try h.checkpoint()
        for stream: StreamID in ["a-1", "b-1"] {
            let mine = try await h.store.events(of: stream)
            for e in mine {
                #expect(try await h.store.position(of: stream, version: e.version) == e.position, "\(stream)@\(e.version)")
            }
            #expect(try await h.store.position(of: stream, version: UInt64(mine.count)) == nil, "a version past the end")
        }
        #expect(try await h.store.position(of: "missing-1", version: 0) == nil)
        // Each event by its position, whole, and nothing past the end.
        let all = try await h.store.readAll()
        for e in all { #expect(try await h.store.event(at: e.position) == e, "the event at \(e.position)") }
        #expect(try await h.store.event(at: UInt64(all.count)) == nil, "a position past the end")
        #expect(try await h.store.event(at: .max) == nil)
    }
}

struct LimitCases {
    static let invalidStreamIDs: [String] = [
        "", String(repeating: "a", count: 257), String(repeating: "ß", count: 129), "order 1", " order", "order\t1",
        "order\n1", "order\u{A0}1", "order\u{2028}1", "order\u{3000}1", "order\u{0}1", "order\u{7}1", "order\u{7F}1",
        "order\u{85}1", "order\u{200B}1", "\u{FEFF}order", "$all", "$ce-order", "$",
    ]

    /// A stream id built with `StreamID(unchecked:)` bypasses the initializer's validation; the store must still
    /// refuse to write it (its limits are the store's, and a file format may rely on them).
    static func storeRejectsInvalidStreamIDsMadeUnchecked(_ h: any StoreHarness) async throws {
        for raw in ["", "$all", "order 1", String(repeating: "a", count: 1000)] {
            await expectInvalidRequest("stream id \(raw.count > 40 ? "of \(raw.utf8.count) bytes" : raw.debugDescription)") {
                try await h.store.append(to: StreamID(unchecked: raw), [event()])
            }
        }
        #expect(try await h.store.lastPosition() == nil)
    }

    static let invalidEventTypes: [String] = [
        "", String(repeating: "A", count: 129), "1Pet", "_Pet", "Pet Added", "Pet/Added", "Événement", "Pet\u{0}",
        "-Pet", "Pet🐶",
    ]

    static func eventTypeRules(_ h: any StoreHarness) async throws {
        for type in ["A", "PetAdded", "Pet.Added_v2-x:y", "p", String(repeating: "A", count: 128)] {
            try await h.store.append(to: "types-1", [event(type)])
        }
        for type in ["", String(repeating: "A", count: 129), "9Lives", "Pet Added", "Événement"] {
            await expectInvalidRequest("type \(type.debugDescription)") {
                try await h.store.append(to: "types-1", [event(type)])
            }
        }
        try h.checkpoint()
        #expect(try await h.store.streamVersion(of: "types-1") == 4)
        #expect(try await h.store.events(of: "types-1").last?.type == String(repeating: "A", count: 128))
    }

    static func metadataLimits(_ h: any StoreHarness) async throws {
        var max = EventMetadata()
        for i in 0..<EventLimits.maxMetadataPairs { max["k\(i)"] = "v\(i)" }
        try await h.store.append(to: "meta-1", [event(metadata: max)])
        var longKey = EventMetadata()
        longKey[String(repeating: "k", count: EventLimits.maxMetadataKeyBytes)] = "ok"
        try await h.store.append(to: "meta-1", [event(metadata: longKey)])

        var tooMany = max
        tooMany["one-more"] = "x"
        #expect(tooMany.count == EventLimits.maxMetadataPairs + 1)
        let rejected: [EventMetadata] = [
            tooMany, ["": "empty key"], [String(repeating: "k", count: EventLimits.maxMetadataKeyBytes + 1): "x"],
            ["has space": "x"], ["tab\tkey": "x"], ["nul\u{0}": "x"], ["no\u{00A0}break": "x"], ["caf\u{00E9} \u{2028}": "x"],
        ]
        for metadata in rejected {
            await expectInvalidRequest("metadata \(metadata.dictionary.keys.sorted().prefix(3))") {
                try await h.store.append(to: "meta-1", [event(), event(metadata: metadata)])
            }
        }
        try h.checkpoint()
        let read = try await h.store.events(of: "meta-1")
        #expect(read.count == 2)
        #expect(read.first?.metadata == max)
        #expect(read.last?.metadata == longKey)
    }

    static func duplicateEventIDWithinOneAppendIsRejected(_ h: any StoreHarness) async throws {
        let id = UUID()
        await expectInvalidRequest {
            try await h.store.append(to: "pet-1", [event(id: id), event(), event(id: id)])
        }
        // Also across the streams of one multi-stream append.
        await expectInvalidRequest {
            try await h.store.append(
                AppendRequest(entries: [.init(stream: "a-1", event: event(id: id)), .init(stream: "b-1", event: event(id: id))]))
        }
        // And in appends too large to be checked by a scan: the repeat is the last of 40 events.
        var many = (0..<39).map { _ in event() }
        many.append(event(id: many[17].id))
        await expectInvalidRequest { try await h.store.append(to: "pet-1", many) }
        #expect(try await h.store.lastPosition() == nil)
    }

    static func twoExpectationsForOneStreamAreRejected(_ h: any StoreHarness) async throws {
        await expectInvalidRequest {
            try await h.store.append(
                AppendRequest(
                    entries: [.init(stream: "a-1", event: event())],
                    expectations: [.init(stream: "a-1", expected: .any), .init(stream: "a-1", expected: .noStream)]))
        }
        await expectInvalidRequest {
            try await h.store.append(
                AppendRequest(
                    entries: [.init(stream: "a-1", event: event())],
                    expectations: [
                        .init(stream: "b-1", expected: .any, checkOnly: true),
                        .init(stream: "b-1", expected: .noStream, checkOnly: true),
                    ]))
        }
        // Among more expectations than a scan is used for.
        var checks = (0..<20).map { AppendRequest.Expectation(stream: StreamID(unchecked: "c-\($0)"), expected: .any, checkOnly: true) }
        checks.append(.init(stream: "c-3", expected: .noStream, checkOnly: true))
        await expectInvalidRequest {
            try await h.store.append(AppendRequest(entries: [.init(stream: "a-1", event: event())], expectations: checks))
        }
        #expect(try await h.store.lastPosition() == nil)
    }

    static func appendOverTheTotalSizeLimitIsRejected(_ h: any StoreHarness) async throws {
        // 65 events of 1 MiB sharing one buffer: 65 MiB > 64 MiB per append.
        let data = [UInt8](repeating: 1, count: EventLimits.maxEventBytes)
        let batch = (0...(EventLimits.maxAppendBytes / EventLimits.maxEventBytes)).map { _ in
            ProposedEvent(type: "Chunk", data: data)
        }
        await expectInvalidRequest { try await h.store.append(to: "big-1", batch) }
        #expect(try await h.store.lastPosition() == nil)
    }

    static func appendNamingTooManyStreamsIsRejected(_ h: any StoreHarness) async throws {
        let checks = (0..<EventLimits.maxStreamsPerAppend).map { i in
            AppendRequest.Expectation(stream: StreamID(unchecked: "check-\(i)"), expected: .any, checkOnly: true)
        }
        await expectInvalidRequest {
            try await h.store.append(AppendRequest(entries: [.init(stream: "a-1", event: event())], expectations: checks))
        }
        #expect(try await h.store.lastPosition() == nil)
    }

    static func emptyAppendIsANoOpThatReportsTheCurrentVersion(_ h: any StoreHarness) async throws {
        let missing = try await h.store.append(to: "pet-1", expected: .noStream, [])
        #expect(missing == AppendResult(firstPosition: nil, lastPosition: nil, streams: [.init(stream: "pet-1", version: nil)]))
        try await h.store.append(to: "pet-1", events(3))
        try h.checkpoint()
        for expected in [ExpectedVersion.any, .streamExists, .exact(2)] {
            let r = try await h.store.append(to: "pet-1", expected: expected, [])
            #expect(r == AppendResult(firstPosition: nil, lastPosition: nil, streams: [.init(stream: "pet-1", version: 2)]))
        }
        // The expectation is still checked.
        await expectError(.wrongExpectedVersion(stream: "pet-1", expected: .noStream, actual: 2)) {
            try await h.store.append(to: "pet-1", expected: .noStream, [])
        }
        await expectError(.wrongExpectedVersion(stream: "pet-1", expected: .exact(5), actual: 2)) {
            try await h.store.append(to: "pet-1", expected: .exact(5), [])
        }
        await expectError(.wrongExpectedVersion(stream: "pet-2", expected: .streamExists, actual: nil)) {
            try await h.store.append(to: "pet-2", expected: .streamExists, [])
        }
        // An append with neither events nor expectations.
        let nothing = try await h.store.append(AppendRequest(entries: []))
        #expect(nothing == AppendResult(firstPosition: nil, lastPosition: nil, streams: []))
        try h.checkpoint()
        #expect(try await h.store.lastPosition() == 2)
        #expect(try await h.store.readAll().count == 3)
    }

    /// An empty append to a missing stream, under each expected version: `any` and `no-stream` report no version,
    /// `stream-exists` and every exact version fail reporting the stream missing; none creates the stream, and a
    /// check-only condition in an empty append is checked as well (and not reported).
    static func emptyAppendToAMissingStreamUnderEachExpectedVersion(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "other-1", events(2))
        for expected in [ExpectedVersion.any, .noStream] {
            let r = try await h.store.append(to: "pet-1", expected: expected, [])
            #expect(r == AppendResult(firstPosition: nil, lastPosition: nil, streams: [.init(stream: "pet-1", version: nil)]))
        }
        for expected in [ExpectedVersion.streamExists, .exact(0), .exact(1), .exact(UInt64.max)] {
            await expectError(.wrongExpectedVersion(stream: "pet-1", expected: expected, actual: nil)) {
                try await h.store.append(to: "pet-1", expected: expected, [])
            }
        }
        let checked = try await h.store.append(
            AppendRequest(entries: [], expectations: [.init(stream: "pet-1", expected: .noStream, checkOnly: true)]))
        #expect(checked == AppendResult(firstPosition: nil, lastPosition: nil, streams: []))
        await expectError(.wrongExpectedVersion(stream: "other-1", expected: .noStream, actual: 1)) {
            try await h.store.append(
                AppendRequest(entries: [], expectations: [.init(stream: "other-1", expected: .noStream, checkOnly: true)]))
        }
        try h.checkpoint()
        #expect(try await h.store.streamVersion(of: "pet-1") == nil)
        #expect(try await h.store.lastPosition() == 1)
        #expect(try await h.store.read(ReadRequest(source: .stream("pet-1"))) == ReadBatch(events: [], next: nil))
    }
}
