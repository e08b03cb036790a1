import EventLog
import Foundation
import Testing

/// Retries by event id: an append whose every event is already committed, identically and where its
/// expectations would have put it, returns the original result and writes nothing. Anything else that reuses a
/// committed id is an idempotencyConflict that writes nothing.
struct IdempotencyCases {
    static func idempotencyIsDurableAcrossReopening(_ h: any StoreHarness) async throws {
        let batch = events(3, type: "Durable")
        let original = try await h.store.append(to: "pet-1", expected: .noStream, batch)
        try await h.store.append(to: "pet-2", events(2))
        try h.reopen()
        let retry = try await h.store.append(to: "pet-1", expected: .noStream, batch)
        #expect(retry.wasAlreadyCommitted)
        #expect(retry.firstPosition == original.firstPosition)
        #expect(retry.lastPosition == original.lastPosition)
        #expect(retry.streams == original.streams)
        #expect(try await h.store.lastPosition() == 4)
        // A conflicting reuse is recognised after reopening too.
        var changed = batch
        changed[1].data = Array("{\"changed\":true}".utf8)
        await expectIdempotencyConflict { try await h.store.append(to: "pet-1", expected: .noStream, changed) }
        await expectIdempotencyConflict { try await h.store.append(to: "pet-2", [batch[0]]) }
        #expect(try await h.store.lastPosition() == 4)
    }

    static func identicalRetryReturnsTheOriginalResultAndWritesNothing(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "pet-1", events(2))
        let request = AppendRequest(
            entries: [
                .init(stream: "pet-1", event: event("PetWeighed", "{\"kg\":4.2}", metadata: ["actor": "vet:1"])),
                .init(stream: "visit-9", event: event("VisitOpened")),
                .init(stream: "pet-1", event: event("PetWeighed", "{\"kg\":4.3}")),
            ],
            expectations: [
                .init(stream: "pet-1", expected: .exact(1)), .init(stream: "visit-9", expected: .noStream),
                .init(stream: "shelter-1", expected: .noStream, checkOnly: true),
            ])
        let original = try await h.store.append(request)
        #expect(original.wasAlreadyCommitted == false)
        #expect(original.firstPosition == 2)
        #expect(original.lastPosition == 4)
        #expect(original.streams == [.init(stream: "pet-1", version: 3), .init(stream: "visit-9", version: 0)])
        let before = try await StoreSnapshot(h.store, streams: ["pet-1", "visit-9", "shelter-1"])

        for _ in 0..<2 {
            let retry = try await h.store.append(request)
            var expected = original
            expected.wasAlreadyCommitted = true
            #expect(retry == expected)
            #expect(try await StoreSnapshot(h.store, streams: ["pet-1", "visit-9", "shelter-1"]) == before)
        }
    }

    /// Ids committed long ago (in sealed, compacted segments of the file store) are found as well as recent ones.
    static func retriesAreRecognisedForOldCommits(_ h: any StoreHarness) async throws {
        var requests: [(AppendRequest, AppendResult)] = []
        for i in 0..<24 {
            let s = try StreamID("pet-\(i % 3)")
            let request = AppendRequest(
                stream: s, expected: .any,
                events: [event("Padded", "{\"i\":\(i),\"pad\":\"\(noise(600))\"}"), event("Small", "{\"i\":\(i)}")])
            requests.append((request, try await h.store.append(request)))
        }
        try h.expectRolledOver()
        try h.checkpoint()
        let last = try await h.store.lastPosition()
        #expect(last == 47)
        for (request, original) in requests {
            let retry = try await h.store.append(request)
            #expect(retry.wasAlreadyCommitted)
            #expect(retry.firstPosition == original.firstPosition)
            #expect(retry.lastPosition == original.lastPosition)
            #expect(retry.streams == original.streams)
        }
        // Reusing the first id ever written on another stream conflicts.
        let first = requests[0].0.entries[0].event
        await expectIdempotencyConflict { try await h.store.append(to: "pet-9", [first]) }
        #expect(try await h.store.lastPosition() == last)
    }

    static func retryWithExactExpectedVersionSucceedsAfterTheStreamMovedOn(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "pet-1", events(2))
        let mine = [event("Renamed", "{\"name\":\"Rex\"}")]
        let original = try await h.store.append(to: "pet-1", expected: .exact(1), mine)
        #expect(original.streams == [.init(stream: "pet-1", version: 2)])
        try await h.store.append(to: "pet-1", expected: .exact(2), events(3))
        try h.checkpoint()
        // The stream is at 5 now: a fresh append at exact(1) would fail, the retry does not.
        let retry = try await h.store.append(to: "pet-1", expected: .exact(1), mine)
        #expect(retry.wasAlreadyCommitted)
        #expect(retry.streams == [.init(stream: "pet-1", version: 2)])
        #expect(retry.firstPosition == original.firstPosition)
        #expect(try await h.store.streamVersion(of: "pet-1") == 5)
        // Same with noStream and streamExists.
        let created = [event("Created")]
        try await h.store.append(to: "pet-2", expected: .noStream, created)
        try await h.store.append(to: "pet-2", events(1))
        #expect(try await h.store.append(to: "pet-2", expected: .noStream, created).wasAlreadyCommitted)
        let later = [event("Later")]
        try await h.store.append(to: "pet-2", expected: .streamExists, later)
        try await h.store.append(to: "pet-2", events(1))
        #expect(try await h.store.append(to: "pet-2", expected: .streamExists, later).wasAlreadyCommitted)
        #expect(try await h.store.append(to: "pet-2", expected: .any, later).wasAlreadyCommitted)
    }

    static func retryWithAnExpectationThatWouldNotHavePutTheEventsThereConflicts(_ h: any StoreHarness) async throws {
        let mine = [event("Created")]
        try await h.store.append(to: "pet-1", expected: .noStream, mine)  // version 0
        await expectIdempotencyConflict { try await h.store.append(to: "pet-1", expected: .exact(5), mine) }
        await expectIdempotencyConflict { try await h.store.append(to: "pet-1", expected: .streamExists, mine) }
        #expect(try await h.store.lastPosition() == 0)
    }

    static func reusedIDWithOtherContentConflicts(_ h: any StoreHarness) async throws {
        let original = ProposedEvent(
            id: uuid(42), type: "PetAdded", data: Array("{\"name\":\"Rex\"}".utf8),
            metadata: [EventMetadata.correlationID: "c-1"])
        try await h.store.append(to: "pet-1", [original])
        try h.checkpoint()
        var otherData = original
        otherData.data = Array("{\"name\":\"Max\"}".utf8)
        var otherType = original
        otherType.type = "PetRenamed"
        var otherMetadata = original
        otherMetadata.metadata[EventMetadata.correlationID] = "c-2"
        var noMetadata = original
        noMetadata.metadata = EventMetadata()
        var extraMetadata = original
        extraMetadata.metadata["actor"] = "user:1"
        for changed in [otherData, otherType, otherMetadata, noMetadata, extraMetadata] {
            let named = await expectIdempotencyConflict { try await h.store.append(to: "pet-1", [changed]) }
            #expect(named == uuid(42))
        }
        #expect(try await h.store.lastPosition() == 0)
        #expect(try await h.store.events(of: "pet-1").first?.hasSameContent(as: original) == true)
    }

    static func idCommittedToAnotherStreamConflicts(_ h: any StoreHarness) async throws {
        let e = event(id: uuid(7))
        try await h.store.append(to: "pet-1", [e])
        try h.checkpoint()
        let named = await expectIdempotencyConflict { try await h.store.append(to: "pet-2", [e]) }
        #expect(named == uuid(7))
        #expect(try await h.store.streamVersion(of: "pet-2") == nil)
        #expect(try await h.store.lastPosition() == 0)
    }

    static func partialOverlapConflicts(_ h: any StoreHarness) async throws {
        let committed = events(2)
        try await h.store.append(to: "pet-1", committed)
        await expectIdempotencyConflict { try await h.store.append(to: "pet-1", committed + [event()]) }
        await expectIdempotencyConflict { try await h.store.append(to: "pet-1", [event()] + committed) }
        await expectIdempotencyConflict { try await h.store.append(to: "pet-1", [event(), committed[1]]) }
        #expect(try await h.store.lastPosition() == 1)
        #expect(try await h.store.events(of: "pet-1").map(\.id) == committed.map(\.id))
    }

    static func retryInAnotherOrderConflicts(_ h: any StoreHarness) async throws {
        let committed = events(3)
        try await h.store.append(to: "pet-1", committed)
        await expectIdempotencyConflict { try await h.store.append(to: "pet-1", committed.reversed()) }
        #expect(try await h.store.lastPosition() == 2)
    }

    /// Greg Young's case: events 1, 3, 7 are written; a "retry" of 2, 7, 14 shares only 7: that is a conflict,
    /// and neither 2 nor 14 may be written. The true retry 1, 3, 7 is already committed.
    static func gregYoungsPartialRetry(_ h: any StoreHarness) async throws {
        func e(_ n: Int) -> ProposedEvent { event("Numbered", "{\"n\":\(n)}", id: uuid(n)) }
        let original = try await h.store.append(to: "numbers-1", expected: .noStream, [e(1), e(3), e(7)])
        try h.checkpoint()
        let named = await expectIdempotencyConflict {
            try await h.store.append(to: "numbers-1", expected: .noStream, [e(2), e(7), e(14)])
        }
        #expect(named == uuid(7))
        await expectIdempotencyConflict { try await h.store.append(to: "numbers-1", expected: .any, [e(2), e(7), e(14)]) }
        try h.checkpoint()
        #expect(try await h.store.readAll().map(\.id) == [uuid(1), uuid(3), uuid(7)])
        #expect(try await h.store.lastPosition() == 2)
        let retry = try await h.store.append(to: "numbers-1", expected: .noStream, [e(1), e(3), e(7)])
        #expect(retry.wasAlreadyCommitted)
        #expect(retry.streams == original.streams)
        #expect(retry.firstPosition == 0)
        #expect(retry.lastPosition == 2)
        // 2 and 14 were never written, so they are free for a fresh append.
        #expect(try await h.store.append(to: "numbers-1", expected: .exact(2), [e(2), e(14)]).firstPosition == 3)
    }

    /// A retry returns the original result even when a check-only condition it carried no longer holds.
    static func retryIgnoresCheckOnlyConditionsThatNoLongerHold(_ h: any StoreHarness) async throws {
        let request = AppendRequest(
            entries: [.init(stream: "order-1", event: event("OrderPlaced"))],
            expectations: [
                .init(stream: "order-1", expected: .noStream),
                .init(stream: "customer-1", expected: .noStream, checkOnly: true),
            ])
        let original = try await h.store.append(request)
        try await h.store.append(to: "customer-1", events(1))
        let retry = try await h.store.append(request)
        #expect(retry.wasAlreadyCommitted)
        #expect(retry.streams == original.streams)
        #expect(retry.firstPosition == original.firstPosition)
    }

    /// Identical appends racing each other: exactly one writes, every other one sees it as already committed
    /// (a store that batches appends into group commits must let later appends of a batch see earlier ones).
    static func concurrentIdenticalAppendsWriteOnce(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "warmup-1", [event()])
        let request = AppendRequest(stream: "pet-1", expected: .any, events: events(3, type: "Raced"))
        let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
            for _ in 0..<12 { group.addTask { try await store.append(request) } }
            var out: [AppendResult] = []
            for try await r in group { out.append(r) }
            return out
        }
        #expect(results.filter { !$0.wasAlreadyCommitted }.count == 1)
        #expect(Set(results.map(\.firstPosition)) == [1])
        #expect(Set(results.map(\.lastPosition)) == [3])
        #expect(Set(results.map(\.streams)) == [[.init(stream: "pet-1", version: 2)]])
        #expect(try await store.lastPosition() == 3)
        #expect(try await store.events(of: "pet-1").map(\.id) == request.entries.map(\.event.id))
    }
}

extension IdempotencyCases {
    /// What a re-sent command is told apart by: every committed event found by its id, in the active part of the
    /// log and in what a checkpoint or a reopen moved out of it; an id never committed (or refused) finds nothing.
    static func eachCommittedEventIsFoundByItsID(_ h: any StoreHarness) async throws {
        let pad = noise(200)
        for round in 0..<12 {
            try await h.store.append(to: StreamID(unchecked: "pet-\(round % 4)"), [event("Step", "{\"round\":\(round),\"pad\":\"\(pad)\"}"), event()])
            if round == 5 { try h.checkpoint() }
        }
        let refused = event()
        await #expect(throws: EventStoreError.self) { try await h.store.append(to: "pet-0", expected: .noStream, [refused]) }
        for pass in 0..<2 {
            for e in try await h.store.readAll() {
                #expect(try await h.store.event(withID: e.id) == e, "event \(e.position), pass \(pass)")
            }
            #expect(try await h.store.event(withID: UUID()) == nil, "an id never committed")
            #expect(try await h.store.event(withID: refused.id) == nil, "the id of a refused append")
            try h.reopen()
        }
    }
}
