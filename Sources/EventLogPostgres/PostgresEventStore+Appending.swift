public import EventLog
import Foundation

/// Appends under the store's one lock, decided by ``AppendPlanner`` like every store's, with a group commit: appends
/// made while the session is busy wait for it, and the next one to get it commits them all in one transaction (one
/// lock, one insert, one flush at COMMIT), as the file store's committer does.
extension PostgresEventStore {
    /// An append waiting for the session.
    struct WaitingAppend: Sendable {
        var request: AppendRequest
        var continuation: CheckedContinuation<AppendResult, any Error>
    }

    /// The most appends one group commits.
    static let groupLimit = 512

    public func append(_ request: AppendRequest) async throws -> AppendResult {
        let request = try AppendPlanner.validated(request)
        return try await withCheckedThrowingContinuation { continuation in
            waitingAppends.withLock { $0.append(WaitingAppend(request: request, continuation: continuation)) }
            // Each append queues one turn of the session; a turn that finds none waiting (an earlier turn took them
            // into its group) does nothing.
            session.submit { [self] connection in commitWaiting(connection) }
        }
    }

    private func commitWaiting(_ connection: Result<PostgresConnection, any Error>) {
        let group = waitingAppends.withLock { waiting in
            let taken = Array(waiting.prefix(Self.groupLimit))
            waiting.removeFirst(taken.count)
            return taken
        }
        guard !group.isEmpty else { return }
        let results: [Result<AppendResult, any Error>]
        switch connection {
        case .failure(let error): results = group.map { _ in .failure(error) }
        case .success(let c):
            let connect = { [session] in try session.reconnected() }
            if group.count == 1 {
                results = [Result { try Self.appendAlone(group[0].request, schema: schema, first: c, connect: connect) }]
            } else {
                results = PostgresAppendGroup(requests: group.map(\.request), schema: schema).commit(c, connect: connect)
            }
        }
        for (waiting, result) in zip(group, results) { waiting.continuation.resume(with: result) }
    }

    /// One append in a transaction of its own, with the retry a lost connection calls for: committed or not, nobody
    /// can say, so it runs again with the same ids. The events are found committed (the original result) or written
    /// once now.
    static func appendAlone(
        _ request: AppendRequest, schema: String, first: PostgresConnection? = nil, connect: () throws -> PostgresConnection
    ) throws -> AppendResult {
        do {
            return try append(request, schema: schema, first ?? connect())
        } catch PostgresFailure.connectionLost(let message) {
            do {
                return try append(request, schema: schema, connect())
            } catch let failure as PostgresFailure {
                throw EventStoreError.outcomeUnknown(
                    "the connection to PostgreSQL was lost while an append committed (\(message)), and retrying it failed: \(failure)")
            }
        } catch let failure as PostgresFailure {
            throw failure.storeError
        }
    }

    /// One append. It is first tried on the guess that none of its ids was committed before (nearly always so):
    /// the insert's unique index on event ids checks that guess, which saves looking every id up. When the guess
    /// fails (the index refuses an id), or the decision on it is a refusal, the append runs again with the
    /// committed events looked up, and that decision stands: an identical retry is then found already committed.
    private static func append(_ request: AppendRequest, schema: String, _ c: PostgresConnection) throws -> AppendResult {
        guard !request.entries.isEmpty else { return try transaction(request, schema: schema, lookUpIDs: true, c) }
        do {
            return try transaction(request, schema: schema, lookUpIDs: false, c)
        } catch let e as EventStoreError where e.code == .wrongExpectedVersion || e.code == .idempotencyConflict {
            return try transaction(request, schema: schema, lookUpIDs: true, c)
        } catch PostgresFailure.statement(let state, _) where state == "23505" {
            return try transaction(request, schema: schema, lookUpIDs: true, c)
        }
    }

    /// One append in one transaction.
    private static func transaction(_ request: AppendRequest, schema: String, lookUpIDs: Bool, _ c: PostgresConnection) throws -> AppendResult {
        do {
            let (head, versions) = try PostgresAppendGroup.lockHead(versionsOf: [request], c)
            var committed: [UUID: RecordedEvent] = [:]
            if lookUpIDs, !request.entries.isEmpty {
                let found = try c.query(
                    "SELECT \(columns) FROM events WHERE event_id = ANY($1)", [.uuidArray(request.entries.map(\.event.id))])
                for i in 0..<found.count {
                    let e = try event(found, i)
                    committed[e.id] = e
                }
            }
            let outcome = try AppendPlanner.plan(
                request, currentVersion: { versions[$0.rawValue] }, committedEvent: { committed[$0] })
            switch outcome {
            case .alreadyCommitted(let result):
                try c.execute("ROLLBACK")
                return result
            case .write(let planned, let streams):
                guard !planned.isEmpty else {
                    try c.execute("ROLLBACK")
                    return AppendResult(firstPosition: nil, lastPosition: nil, streams: streams)
                }
                try PostgresAppendGroup.write(planned, head: head, schema: schema, c)
                return AppendResult(firstPosition: UInt64(head.next), lastPosition: UInt64(head.next) + UInt64(planned.count) - 1, streams: streams)
            }
        } catch {
            if c.isUsable { try? c.execute("ROLLBACK") }
            throw error
        }
    }
}
