import EventLog
@testable import EventLogTestKit
import Foundation
import Testing

/// The planner called directly, with lookups the test controls.
@Suite struct AppendPlannerTests {
    private struct LookupFailed: Error, Equatable {}

    /// Expectations are checked in their order before any other stream is looked up: the first one that fails is
    /// what is reported, even when a later lookup would fail (looking every written stream up first would let a
    /// lookup error take its place).
    @Test func `the first failing expectation is reported before a later lookup fails`() throws {
        let request = AppendRequest(
            entries: [.init(stream: stream("late-1"), event: .json("E", "{}")), .init(stream: stream("first-1"), event: .json("E", "{}"))],
            expectations: [.init(stream: stream("first-1"), expected: .exact(1)), .init(stream: stream("late-1"), expected: .any)])
        var looked: [String] = []
        #expect(throws: EventStoreError.wrongExpectedVersion(stream: stream("first-1"), expected: .exact(1), actual: 3)) {
            _ = try AppendPlanner.plan(
                request,
                currentVersion: { s in
                    looked.append(s.rawValue)
                    if s == stream("late-1") { throw LookupFailed() }
                    return 3
                },
                committedEvent: { _ in nil })
        }
        #expect(looked == ["first-1"])
    }

    @Test func `each stream is looked up once, for its expectation and its writes alike`() throws {
        let request = AppendRequest(
            entries: [.init(stream: stream("a-1"), event: .json("E", "{}")), .init(stream: stream("a-1"), event: .json("E", "{}")),
                      .init(stream: stream("b-1"), event: .json("E", "{}"))],
            expectations: [.init(stream: stream("a-1"), expected: .exact(4)), .init(stream: stream("c-1"), expected: .noStream, checkOnly: true)])
        var looked: [String] = []
        let outcome = try AppendPlanner.plan(
            request,
            currentVersion: { s in
                looked.append(s.rawValue)
                return s == stream("a-1") ? 4 : nil
            },
            committedEvent: { _ in nil })
        #expect(looked == ["a-1", "c-1", "b-1"])
        guard case .write(let events, let streams) = outcome else {
            Issue.record("expected a write, got \(outcome)")
            return
        }
        #expect(events.map(\.version) == [5, 6, 0])
        #expect(streams == [.init(stream: stream("a-1"), version: 6), .init(stream: stream("b-1"), version: 0)])
    }

    /// Streams are told apart by a scan up to a handful and by a dictionary past it: an append whose streams
    /// cross that line, written interleaved and named again after the switch, plans as if by hand.
    @Test(arguments: [1, 7, 8, 9, 10, 30])
    func `versions follow each stream across any number of streams in one append`(streamCount: Int) throws {
        // Three rounds over the streams, so every stream is named again after the last one was added.
        var entries: [AppendRequest.Entry] = []
        for _ in 0..<3 {
            for s in 0..<streamCount { entries.append(.init(stream: stream("s-\(s)"), event: .json("E", "{}"))) }
        }
        // Even streams exist at version s, odd ones do not; every third has an exact expectation, named last first.
        var expectations: [AppendRequest.Expectation] = []
        for s in (0..<streamCount).reversed() where s % 3 == 0 {
            let expected: ExpectedVersion = s % 2 == 0 ? .exact(UInt64(s)) : .noStream
            expectations.append(.init(stream: stream("s-\(s)"), expected: expected))
        }
        let outcome = try AppendPlanner.plan(
            AppendRequest(entries: entries, expectations: expectations),
            currentVersion: { s in
                let n = Int(s.rawValue.dropFirst(2))!
                return n % 2 == 0 ? UInt64(n) : nil
            },
            committedEvent: { _ in nil })
        guard case .write(let events, let streams) = outcome else {
            Issue.record("expected a write, got \(outcome)")
            return
        }
        func first(_ s: Int) -> UInt64 { s % 2 == 0 ? UInt64(s) + 1 : 0 }
        var expected: [UInt64] = []
        for round in 0..<3 {
            for s in 0..<streamCount { expected.append(first(s) + UInt64(round)) }
        }
        #expect(events.map(\.version) == expected)
        let versions: [AppendResult.StreamVersion] = (0..<streamCount).map { s in
            AppendResult.StreamVersion(stream: stream("s-\(s)"), version: first(s) + 2)
        }
        #expect(streams == versions)
    }
}

/// A request the planner checked is not checked again, until anything in it changes.
@Suite struct ValidatedRequestTests {
    @Test func aCheckedRequestStaysCheckedUntilItChanges() throws {
        var request = try AppendPlanner.validated(AppendRequest(stream: stream("pet-1"), events: [event("Fed", "{}")]))
        #expect(request.isValidated)
        request.defersFlush = true
        #expect(request.isValidated, "deferring the flush changes nothing the check looked at")
        request.entries[0].event.type = "not a type"
        #expect(!request.isValidated)
        #expect(throws: EventStoreError.self) { try AppendPlanner.validate(request) }
        var other = try AppendPlanner.validated(AppendRequest(stream: stream("pet-1"), events: [event("Fed", "{}")]))
        other.expectations.append(.init(stream: stream("pet-1"), expected: .noStream))
        #expect(!other.isValidated)
        #expect(throws: EventStoreError.self) { try AppendPlanner.validate(other) }
        #expect(!AppendRequest(stream: stream("pet-1"), events: []).isValidated, "a new request is not checked")
    }
}
