import EventLog
@testable import EventLogTestKit
import Foundation
import Testing

/// The value types of the store protocol.
@Suite("Model values")
struct ModelTests {
    @Test
    func expectedVersionSpellings() {
        #expect(ExpectedVersion(parsing: "any") == .any)
        #expect(ExpectedVersion(parsing: "no-stream") == .noStream)
        #expect(ExpectedVersion(parsing: "stream-exists") == .streamExists)
        #expect(ExpectedVersion(parsing: "0") == .exact(0))
        #expect(ExpectedVersion(parsing: "18446744073709551615") == .exact(.max))
        for bad in ["", "-1", "+1", "Any", "nostream", "1.0", " 1", "1 ", "١", "18446744073709551616"] {
            #expect(ExpectedVersion(parsing: bad) == nil, "\(bad.debugDescription)")
        }
        for e in [ExpectedVersion.any, .noStream, .streamExists, .exact(0), .exact(42)] {
            #expect(ExpectedVersion(parsing: e.description) == e)
        }
    }

    @Test
    func expectedVersionSatisfaction() {
        #expect(ExpectedVersion.any.isSatisfied(by: nil))
        #expect(ExpectedVersion.any.isSatisfied(by: 3))
        #expect(ExpectedVersion.noStream.isSatisfied(by: nil))
        #expect(!ExpectedVersion.noStream.isSatisfied(by: 0))
        #expect(!ExpectedVersion.streamExists.isSatisfied(by: nil))
        #expect(ExpectedVersion.streamExists.isSatisfied(by: 0))
        #expect(ExpectedVersion.exact(0).isSatisfied(by: 0))
        #expect(!ExpectedVersion.exact(0).isSatisfied(by: nil))
        #expect(!ExpectedVersion.exact(1).isSatisfied(by: 0))
    }

    @Test
    func metadataIsSortedUniqueAndComparesByPairs() {
        var m: EventMetadata = ["b": "2", "a": "1"]
        #expect(m.pairs.map(\.key) == ["a", "b"])
        m["c"] = "3"
        m["a"] = "one"
        m["b"] = nil
        m["missing"] = nil
        #expect(m.pairs.map(\.key) == ["a", "c"])
        #expect(m["a"] == "one")
        #expect(m["b"] == nil)
        #expect(m.count == 2)
        #expect(m == EventMetadata(["c": "3", "a": "one"]))
        #expect(m != EventMetadata(["c": "3", "a": "1"]))
        #expect(m.dictionary == ["a": "one", "c": "3"])
        #expect(Set([m, EventMetadata(["a": "one", "c": "3"])]).count == 1)
        #expect(EventMetadata().isEmpty)
        var wellKnown = EventMetadata()
        wellKnown[EventMetadata.correlationID] = "c"
        wellKnown[EventMetadata.causationID] = "k"
        wellKnown[EventMetadata.actor] = "a"
        #expect(wellKnown.pairs.map(\.key) == ["actor", "causationId", "correlationId"])
    }

    @Test
    func recordedEventSameContent() {
        let p = ProposedEvent(id: uuid(1), type: "T", data: [1], metadata: ["k": "v"])
        let r = RecordedEvent(
            position: 9, stream: "s-1", version: 3, type: "T", id: uuid(1), recordedAt: .init(microsecondsSinceEpoch: 5),
            metadata: ["k": "v"], data: [1])
        #expect(r.hasSameContent(as: p))
        var q = p
        q.data = [2]
        #expect(!r.hasSameContent(as: q))
        q = p
        q.id = uuid(2)
        #expect(!r.hasSameContent(as: q))
        #expect(p.payloadSize == 1 + 1 + 1)
    }

    @Test
    func errorDescriptionsNameTheProblem() {
        #expect(
            EventStoreError.wrongExpectedVersion(stream: "pet-1", expected: .noStream, actual: nil).description
                == "wrong expected version for stream 'pet-1': expected no-stream, but the stream does not exist")
        #expect(EventStoreError.invalidRequest("limit").description == "limit")
        #expect(
            EventStoreError.idempotencyConflict(eventID: uuid(255), reason: "r").description
                == "event id 00000000-0000-0000-0000-0000000000ff conflicts with an earlier append: r")
        #expect(EventStoreError.corrupted(location: "f", offset: 7, reason: "bad").description == "corrupt data in f at offset 7: bad")
    }

    @Test
    func streamIDCategory() throws {
        #expect(try sid("order-42").category == "order")
        #expect(try sid("order").category == "order")
        #expect(try sid("order-42-line-3").category == "order")
        #expect(try sid("-x").category == "")
        #expect(try sid("pet-🐶").category == "pet")
        #expect(try sid("🐶-1").category == "🐶")
        #expect(try sid("a-b") < sid("b-a"))
    }

    /// An append with only a check-only condition writes nothing and reports no stream.
    @Test(arguments: Backend.allCases)
    func checkOnlyConditionAloneIsChecked(backend: Backend) async throws {
        let h = try Harness(backend)
        let ok = try await h.store.append(
            AppendRequest(entries: [], expectations: [.init(stream: "pet-1", expected: .noStream, checkOnly: true)]))
        #expect(ok == AppendResult(firstPosition: nil, lastPosition: nil, streams: []))
        await expectError(.wrongExpectedVersion(stream: "pet-1", expected: .streamExists, actual: nil)) {
            try await h.store.append(
                AppendRequest(entries: [], expectations: [.init(stream: "pet-1", expected: .streamExists, checkOnly: true)]))
        }
        #expect(try await h.store.lastPosition() == nil)
    }
}
