public import EventLog
import Events
public import Foundation

/// Runs commands against a store: resolves the actor, loads and decides, appends the decision atomically under
/// the versions it read, and on a concurrency conflict decides again from fresh state, a bounded number of times.
public struct CommandHandler: Sendable {
    /// The store.
    public let store: any EventStore
    /// How many times a command is decided before a conflict is reported.
    public var maxAttempts: Int

    /// Creates a handler.
    public init(store: any EventStore, maxAttempts: Int = 12) {
        self.store = store
        self.maxAttempts = maxAttempts
    }

    /// Handles one command.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - userID: Who issues it; the role comes from the store.
    ///   - now: The command's clock.
    ///   - commandID: The command's id (causation id of its events).
    ///   - correlationID: The user action's id; the command id by default.
    /// - Returns: What was appended.
    /// - Throws: ``DomainError`` when rejected or after `maxAttempts` conflicts; store errors.
    public func handle<C: DomainCommand>(
        _ command: C, as userID: String, now: Timestamp = .now(), commandID: UUID = UUID(),
        correlationID: String? = nil
    ) async throws -> CommandOutcome {
        try Validate.id(userID, field: "as")
        var attempt = 0
        while true {
            attempt += 1
            var loader = StreamLoader(store: store)
            let actor = try await resolveActor(userID, for: C.self, loader: &loader)
            let context = DecisionContext(
                actor: actor, now: now, commandID: commandID,
                correlationID: correlationID ?? commandID.uuidString.lowercased(), commandName: C.name)
            let decision = try await command.run(context, loading: &loader)
            guard !decision.writes.isEmpty else {
                return CommandOutcome(command: C.name, actor: actor, events: [], attempts: attempt)
            }
            let request = Self.request(decision, context: context, loader: loader)
            do {
                let result = try await store.append(request)
                return Self.outcome(decision, name: C.name, result: result, actor: actor, attempts: attempt)
            } catch EventStoreError.wrongExpectedVersion(let stream, _, _) {
                guard attempt < maxAttempts else {
                    throw DomainError.conflict(
                        "\(C.name) gave up after \(attempt) attempts: stream '\(stream)' kept changing; try again")
                }
                // Back off a little, with jitter, so racing processes stop colliding in lock step.
                try await Task.sleep(for: .microseconds(Int.random(in: 0...(500 << min(attempt, 6)))))
            }
        }
    }

    private func resolveActor<C: DomainCommand>(
        _ userID: String, for command: C.Type, loader: inout StreamLoader
    ) async throws -> Actor {
        if Actor.isGuestID(userID) {
            guard C.allowsGuests else {
                throw DomainError.forbidden("guests cannot \(C.name); sign up or log in first")
            }
            return Actor(userID: userID, role: .guest)
        }
        let roles = try await loader.load(RolesState.self, Streams.roles)
        let actor = Actor(userID: userID, role: roles.role(of: userID))
        if C.actorNeedsAccount {
            let account = try await loader.load(AccountState.self, Streams.account(userID))
            guard account.exists else { throw DomainError.forbidden("user '\(userID)' has no account") }
            guard !account.deleted else { throw DomainError.forbidden("the account of '\(userID)' is deleted") }
        }
        return actor
    }

    private static func request(_ decision: Decision, context: DecisionContext, loader: StreamLoader) -> AppendRequest {
        var entries: [AppendRequest.Entry] = []
        var expectations: [AppendRequest.Expectation] = []
        var written: Set<StreamID> = []
        var metadata = EventMetadata()
        metadata[EventMetadata.correlationID] = context.correlationID
        metadata[EventMetadata.causationID] = context.commandID.uuidString.lowercased()
        metadata[EventMetadata.actor] = context.actor.userID
        metadata["role"] = context.actor.role.rawValue
        metadata["command"] = context.commandName
        metadata["occurredAt"] = context.now.iso8601
        var explicit: [StreamID: ExpectedVersion] = [:]
        for write in decision.writes {
            if let e = write.expected {
                // Two writes to one stream must not disagree about what they expect of it.
                assert(explicit.updateValue(e, forKey: write.stream).map { $0 == e } ?? true, "conflicting expectations for \(write.stream)")
            }
            if written.insert(write.stream).inserted {
                // A decision states what it expects of every stream it writes: the version it loaded, or an explicit
                // expectation (`.noStream` for a new entity, `.any` where no rule depends on the stream). Writing a
                // stream it neither loaded nor named would go unguarded, which is a bug in the command.
                let loaded = loader.expectation(for: write.stream)
                assert(write.expected != nil || loaded != nil, "\(context.commandName) writes \(write.stream) unguarded")
                let expected = write.expected ?? loaded ?? .any
                expectations.append(AppendRequest.Expectation(stream: write.stream, expected: expected))
            }
            for event in write.events {
                entries.append(
                    AppendRequest.Entry(
                        stream: write.stream,
                        event: ProposedEvent(
                            type: event.eventType, data: DomainEventCodec.encode(event), metadata: metadata)))
            }
        }
        // Every stream the decision read but does not write is still a condition: if it changed, the decision
        // may be wrong.
        for stream in loader.order where !written.contains(stream) {
            if let expected = loader.expectation(for: stream) {
                expectations.append(AppendRequest.Expectation(stream: stream, expected: expected, checkOnly: true))
            }
        }
        return AppendRequest(entries: entries, expectations: expectations)
    }

    private static func outcome(_ decision: Decision, name: String, result: AppendResult, actor: Actor, attempts: Int) -> CommandOutcome {
        var remaining: [StreamID: Int] = [:]
        for w in decision.writes { remaining[w.stream, default: 0] += w.events.count }
        var finalVersion: [StreamID: UInt64] = [:]
        for s in result.streams { if let v = s.version { finalVersion[s.stream] = v } }
        var appended: [CommandOutcome.Appended] = []
        var position = result.firstPosition ?? 0
        for w in decision.writes {
            for event in w.events {
                remaining[w.stream]! -= 1
                let version = (finalVersion[w.stream] ?? 0) - UInt64(remaining[w.stream]!)
                appended.append(.init(position: position, stream: w.stream, version: version, event: event))
                position += 1
            }
        }
        return CommandOutcome(command: name, actor: actor, events: appended, attempts: attempts)
    }
}
