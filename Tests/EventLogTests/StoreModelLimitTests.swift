import EventLog
@testable import EventLogTestKit
import EventLogMemory
import Foundation
import Testing

/// What the store protocol's value types and the reference store promise without a backend to run on: stream ids
/// and event types at their limits, and the in-memory store's clock.
@Suite struct StoreModelLimitTests {
    /// The reference store takes its time from an injectable clock; a clock that steps back must not make
    /// recordedAt decrease along the log.
    @Test
    func recordedAtNeverDecreasesEvenWhenTheClockStepsBack() async throws {
        let times: [Int64] = [5_000, 9_000, 3_000, 9_500, 1]
        let tick = Counter()
        let store = InMemoryEventStore(clock: { Timestamp(microsecondsSinceEpoch: times[min(tick.next(), times.count - 1)]) })
        for _ in times { try await store.append(to: "pet-1", events(2)) }
        let read = try await store.readAll()
        #expect(read.map(\.recordedAt.microsecondsSinceEpoch) == [5_000, 5_000, 9_000, 9_000, 9_000, 9_000, 9_500, 9_500, 9_500, 9_500])
    }

    @Test(arguments: LimitCases.invalidStreamIDs)
    func invalidStreamIDIsRejected(raw: String) async throws {
        await expectInvalidRequest("stream id \(raw.debugDescription)") { try StreamID(raw) }
    }

    @Test
    func validStreamIDsAtTheEdges() throws {
        _ = try StreamID(String(repeating: "a", count: 256))
        _ = try StreamID(String(repeating: "ß", count: 128))  // 256 bytes
        _ = try sid("a$b")
        _ = try sid("-")
        _ = try sid("family-👩\u{200D}👧")  // zero-width joiner inside an emoji sequence is allowed
        #expect(try sid("order-42").category == "order")
        #expect(try sid("order").category == "order")
        #expect(try sid("order-42-line-3").category == "order")
        #expect(try sid("-x").category == "")
    }

    @Test(arguments: LimitCases.invalidEventTypes)
    func invalidEventTypeIsRejected(type: String) async throws {
        let h = try Harness(.memory)
        await expectInvalidRequest("type \(type.debugDescription)") {
            try await h.store.append(to: "pet-1", [event(type)])
        }
        #expect(try await h.store.lastPosition() == nil)
    }
}
