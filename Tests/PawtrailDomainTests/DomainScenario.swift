import EventLog
import EventLogMemory
import Events
import Foundation
import PawtrailDomain
import Testing

/// Given/When/Then for commands, in the spirit of TCA's TestStore: given events already in the log, when an
/// actor issues a command, then exactly these events are appended (stream by stream, in order), or exactly this
/// error is thrown. Runs the real handler over the in-memory store.
struct DomainScenario {
    /// The command clock of every scenario: 2026-12-01T09:00:00Z.
    static let now = Timestamp(iso8601: "2026-12-01T09:00:00Z")!

    let store = InMemoryEventStore()
    var handler: CommandHandler { CommandHandler(store: store) }

    /// Appends events as they already happened.
    @discardableResult
    func given(_ stream: StreamID, _ events: any DomainEvent...) async throws -> DomainScenario {
        try await given(stream, events: events)
    }

    /// Appends events as they already happened.
    @discardableResult
    func given(_ stream: StreamID, events: [any DomainEvent]) async throws -> DomainScenario {
        let request = AppendRequest(
            stream: stream,
            events: events.map { ProposedEvent(type: $0.eventType, data: DomainEventCodec.encode($0)) })
        _ = try await store.append(request)
        return self
    }

    /// Runs a command by the actor at the scenario's clock and returns what it appended.
    func when<C: DomainCommand>(_ userID: String, _ command: C, now: Timestamp = DomainScenario.now) async throws
        -> [(StreamID, any DomainEvent)]
    {
        let outcome = try await handler.handle(command, as: userID, now: now)
        return outcome.events.map { ($0.stream, $0.event) }
    }

    /// Expects the command to append exactly these events, in order.
    func then<C: DomainCommand>(
        _ userID: String, _ command: C, now: Timestamp = DomainScenario.now, appends expected: [(StreamID, any DomainEvent)],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let actual = try await when(userID, command, now: now)
        #expect(
            actual.count == expected.count && zip(actual, expected).allSatisfy { $0.0 == $1.0 && Self.same($0.1, $1.1) },
            "appended \(Self.describe(actual)), expected \(Self.describe(expected))", sourceLocation: sourceLocation)
    }

    /// Expects the command to be rejected with exactly this error, appending nothing.
    func then<C: DomainCommand>(
        _ userID: String, _ command: C, now: Timestamp = DomainScenario.now, throws expected: DomainError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await store.lastPosition()
        do {
            let actual = try await when(userID, command, now: now)
            Issue.record("expected \(expected.kind): \(expected), but it appended \(Self.describe(actual))", sourceLocation: sourceLocation)
        } catch let error as DomainError {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
        #expect(try await store.lastPosition() == before, "a rejected command appended events", sourceLocation: sourceLocation)
    }

    /// Whether two events are the same type with the same fields.
    static func same(_ a: any DomainEvent, _ b: any DomainEvent) -> Bool {
        func open<E: DomainEvent>(_ a: E) -> Bool { (b as? E) == a }
        return open(a)
    }

    static func describe(_ events: [(StreamID, any DomainEvent)]) -> String {
        "[" + events.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "]"
    }
}

/// A stream id from its text, for tests.
func stream(_ id: String) -> StreamID { StreamID(unchecked: id) }
