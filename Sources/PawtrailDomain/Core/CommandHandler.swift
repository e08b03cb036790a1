public import EventLog
import Events
public import Foundation

/// Runs commands against a store: resolves the actor, loads and decides, appends the decision atomically under
/// the versions it read, and on a concurrency conflict decides again from fresh state, a bounded number of times.
///
/// The states a command loaded are kept past it: in the process's ``StateCache`` when there is one (`exec`), with
/// its own events folded onto the streams it wrote; and in the ``SnapshotStore`` when ``policy`` says they are due.
/// Saving a snapshot is an optimisation: a failure to save costs the next command time, never its correctness.
public struct CommandHandler: Sendable {
    /// The store.
    public let store: any EventStore
    /// Where stream states are saved for later commands, `nil` for none.
    public let snapshots: (any SnapshotStore)?
    /// States kept between the commands of this process, `nil` for none.
    public let cache: StateCache?
    /// When a state is saved as a snapshot.
    public var policy: SnapshotPolicy
    /// How many times a command is decided before a conflict is reported.
    public var maxAttempts: Int
    /// With a cache, how many snapshots wait before they are saved together (one transaction for many commands).
    public var queuedSnapshotLimit = 512
    /// Whether appends return before they are durable (``AppendRequest/defersFlush``): a caller running many
    /// commands flushes the store once for several of them, and reports none of them before that.
    public var defersFlush = false

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - snapshots: Where stream states are saved, `nil` for none.
    ///   - cache: States kept between commands, `nil` for none.
    ///   - policy: When a state is saved.
    ///   - maxAttempts: How many times a command is decided before a conflict is reported.
    public init(
        store: any EventStore, snapshots: (any SnapshotStore)? = nil, cache: StateCache? = nil, policy: SnapshotPolicy = .standard,
        maxAttempts: Int = 12
    ) {
        self.store = store
        self.snapshots = snapshots
        self.cache = cache
        self.policy = policy
        self.maxAttempts = maxAttempts
    }

    /// Handles one command.
    ///
    /// - Parameters:
    ///   - command: The command.
    ///   - userID: Who issues it; the role comes from the store.
    ///   - now: The command's clock.
    ///   - commandID: The command's id (causation id of its events, and the seed of their ids); a random one when
    ///     `nil`. A command re-sent with the id of one already applied is not decided again: its first outcome comes
    ///     back, marked ``CommandOutcome/replayed``.
    ///   - correlationID: The user action's id; the command id by default.
    ///   - actedFor: The customer a staff member acts for (a command whose ``DomainCommand/staffMayActFor``), `nil`
    ///     when the actor acts for themselves. Recorded as `actedFor` in every event's metadata.
    /// - Returns: What was appended.
    /// - Throws: ``DomainError`` when rejected or after `maxAttempts` conflicts, or `invalid` on `commandId` when
    ///   the id was used by another command or user; `invalid` on `for`, or `forbidden`, when acting for a customer
    ///   is not allowed; store errors.
    public func handle<C: DomainCommand>(
        _ command: C, as userID: String, now: Timestamp = .now(), commandID: UUID? = nil,
        correlationID: String? = nil, actedFor: String? = nil
    ) async throws -> CommandOutcome {
        try Validate.id(userID, field: "as")
        if let actedFor {
            try Validate.id(actedFor, field: "for")
            guard C.staffMayActFor else {
                throw DomainError.invalid(field: "for", reason: "\(C.name) is not done for a customer; leave 'for' out")
            }
            guard actedFor != userID else { throw DomainError.invalid(field: "for", reason: "'\(userID)' acts for themselves; leave 'for' out") }
        }
        let digest = CommandReplay.digest(command, actedFor: actedFor)
        // A random id cannot name an earlier command: only a given one is looked up.
        if let commandID,
            let earlier = try await CommandReplay.earlierOutcome(of: command, digest: digest, commandID: commandID, as: userID, in: store)
        {
            return earlier
        }
        let commandID = commandID ?? .random()
        var attempt = 0
        var stats = LoadStats()
        while true {
            attempt += 1
            var loader = StreamLoader(store: store, snapshots: snapshots, cache: cache)
            let decided: (Actor, Decision, DecisionContext)
            do {
                let actor = try await resolveActor(userID, for: C.self, loader: &loader)
                if let actedFor { try await Self.checkActingFor(actedFor, by: actor, loader: &loader) }
                let context = DecisionContext(
                    actor: actor, now: now, commandID: commandID,
                    correlationID: correlationID ?? commandID.uuidString.lowercased(), commandName: C.name, actedFor: actedFor)
                decided = (actor, try await command.run(context, loading: &loader), context)
            } catch let error as DomainError {
                stats.add(loader.stats)
                await keep(loader, written: [:])
                throw error
            }
            stats.add(loader.stats)
            let (actor, decision, context) = decided
            guard !decision.writes.isEmpty else {
                await keep(loader, written: [:])
                return CommandOutcome(command: C.name, actor: actor, events: [], attempts: attempt, loadStats: stats)
            }
            var request = Self.request(decision, context: context, loader: loader, digest: digest)
            request.defersFlush = defersFlush
            do {
                let result = try await store.append(request)
                await keep(loader, written: Self.written(decision, request: request, result: result))
                return Self.outcome(decision, name: C.name, result: result, actor: actor, attempts: attempt, stats: stats)
            } catch let error as EventStoreError where error.code == .wrongExpectedVersion {
                guard attempt < maxAttempts else {
                    let stream = error.conflict.map { $0.stream.rawValue } ?? "?"
                    throw DomainError.conflict(
                        "\(C.name) gave up after \(attempt) attempts: stream '\(stream)' kept changing; try again")
                }
                // Back off a little, with jitter, so racing processes stop colliding in lock step.
                try await Task.sleep(for: .microseconds(Int.random(in: 0...(500 << min(attempt, 6)))))
            }
        }
    }

    /// Saves the snapshots waiting in the cache (call once a run of commands is done).
    public func saveQueuedSnapshots() async {
        guard let cache, let snapshots else { return }
        // A snapshot names the event it was taken at: only events that are durable.
        guard (try? await store.flush()) != nil else { return }
        let queued = cache.takeQueued()
        if !queued.isEmpty { try? await snapshots.save(queued) }
    }

    /// What an append wrote to each stream: the events in order, and the last one's version, position and id.
    private static func written(_ decision: Decision, request: AppendRequest, result: AppendResult)
        -> [StreamID: (events: [any DomainEvent], version: UInt64, position: UInt64, id: UUID)]
    {
        guard !result.wasAlreadyCommitted, var position = result.firstPosition else { return [:] }
        var finalVersion: [StreamID: UInt64] = [:]
        for s in result.streams { if let v = s.version { finalVersion[s.stream] = v } }
        var out: [StreamID: (events: [any DomainEvent], version: UInt64, position: UInt64, id: UUID)] = [:]
        var entry = 0
        for w in decision.writes {
            for event in w.events {
                let id = request.entries[entry].event.id
                if let v = finalVersion[w.stream] {
                    var e = out[w.stream] ?? ([], v, position, id)
                    e.events.append(event)
                    e.position = position
                    e.id = id
                    out[w.stream] = e
                }
                entry += 1
                position += 1
            }
        }
        return out
    }

    /// Keeps what a command loaded: each state in the cache, carried past the command's own events on the streams it
    /// wrote, and as a snapshot when the policy says it is due. A stream the command wrote whose state it did not
    /// load as some aggregate is left to the next command that loads it.
    private func keep(
        _ loader: StreamLoader, written: [StreamID: (events: [any DomainEvent], version: UInt64, position: UInt64, id: UUID)]
    ) async {
        guard cache != nil || snapshots != nil else { return }
        var due: [(stream: StreamID, state: LoadedState)] = []
        for (stream, states) in loader.loaded {
            for (_, loadedState) in states {
                var kept = loadedState
                if let w = written[stream] {
                    // Carried forward only when the append came right after the state loaded: under an expectation of
                    // `any`, other writers' events may lie between, and the state would miss them.
                    let next = loadedState.version.map { $0 + 1 } ?? 0
                    guard w.version == next + UInt64(w.events.count) - 1 else { continue }
                    kept.state = loadedState.state.evolved(by: w.events)
                    kept.version = w.version
                    kept.position = w.position
                    kept.eventID = w.id
                }
                cache?.keep(kept, of: stream)
                if let version = kept.version, policy.isDue(version: version, snapshotVersion: kept.snapshotVersion) {
                    due.append((stream, kept))
                }
            }
        }
        guard !due.isEmpty, let snapshots else { return }
        if let cache {
            if cache.queue(due) >= queuedSnapshotLimit { await saveQueuedSnapshots() }
        } else {
            // A snapshot names the event it was taken at: only events that are durable.
            if defersFlush { guard (try? await store.flush()) != nil else { return } }
            try? await snapshots.save(due.compactMap { $0.state.snapshot(of: $0.stream) })
        }
    }

    /// Checks that a staff member may act for a customer: the actor is staff, and the customer holds a live account.
    /// The account is read as a condition of the append, so a deletion meanwhile makes the command decide again.
    private static func checkActingFor(_ customer: String, by actor: Actor, loader: inout StreamLoader) async throws {
        guard actor.isStaff else { throw DomainError.forbidden("only staff act for a customer; \(actor) is not staff") }
        guard !Actor.isGuestID(customer) else { throw DomainError.invalid(field: "for", reason: "'\(customer)' is a guest; staff act for account holders") }
        let account = try await loader.load(AccountState.self, Streams.account(customer))
        guard account.exists else { throw DomainError.notFound("customer '\(customer)' has no account") }
        guard !account.deleted else { throw DomainError.invalidState("the account of '\(customer)' is deleted; no one acts for it") }
        // Staff act for customers: not for a colleague or an admin, whose own commands are theirs to run.
        let role = try await loader.load(RolesState.self, Streams.roles).role(of: customer)
        guard role == .customer else {
            throw DomainError.forbidden("staff act for customers; '\(customer)' is \(role.rawValue)")
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
        return try await ActorLookup.accountHolder(
            userID, needsAccount: C.actorNeedsAccount, deletedMay: C.windsDownDeletedAccount, loader: &loader)
    }

    private static func request(_ decision: Decision, context: DecisionContext, loader: StreamLoader, digest: String) -> AppendRequest {
        var entries: [AppendRequest.Entry] = []
        var expectations: [AppendRequest.Expectation] = []
        var written: Set<StreamID> = []
        var metadata = EventMetadata()
        metadata[EventMetadata.correlationID] = context.correlationID
        metadata[EventMetadata.causationID] = context.commandID.uuidString.lowercased()
        metadata[EventMetadata.actor] = context.actor.userID
        if let actedFor = context.actedFor { metadata["actedFor"] = actedFor }
        metadata["role"] = context.actor.role.rawValue
        metadata["command"] = context.commandName
        metadata["occurredAt"] = context.now.iso8601
        // The first event also names the command's fields by a digest: a re-send must be the same command.
        var firstMetadata = metadata
        firstMetadata[CommandReplay.digestKey] = digest
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
                            id: DecisionContext.eventID(commandID: context.commandID, index: entries.count),
                            type: event.eventType, data: DomainEventCodec.encode(event),
                            metadata: entries.isEmpty ? firstMetadata : metadata)))
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

    private static func outcome(_ decision: Decision, name: String, result: AppendResult, actor: Actor, attempts: Int, stats: LoadStats) -> CommandOutcome {
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
        return CommandOutcome(command: name, actor: actor, events: appended, attempts: attempts, loadStats: stats)
    }
}
