import EventLog
import Foundation
import Testing

/// The planner called directly, with lookups the test controls.
@Suite struct AppendPlannerTests {
    private struct LookupFailed: Error, Equatable {}

    /// Expectations are checked in their order before any other stream is looked up: the first one that fails is
    /// what is reported, even when a later lookup would fail (found in review: looking every written stream up
    /// first let a lookup error take its place).
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
}
