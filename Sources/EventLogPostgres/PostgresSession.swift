import Dispatch
import EventLog
import Foundation
import Synchronization

/// A connection used from one thread at a time: each use runs on the session's own queue, off Swift's cooperative
/// pool (libpq's calls block), and a connection found broken is replaced at the next use.
package final class PostgresSession: @unchecked Sendable {
    private let url: String
    private let schema: String
    private let lockTimeout: Duration
    private let client: PostgresClient
    private let queue: DispatchQueue
    /// Touched on `queue` only.
    private var connection: PostgresConnection?
    /// The session-level advisory locks this session holds, by key: they are re-entrant within a session, so its
    /// users keep their own holds apart here.
    package let heldAdvisoryLocks = HeldLocks()

    /// Creates a session; it connects at its first use.
    ///
    /// - Parameters:
    ///   - url: The server's connection URI.
    ///   - schema: The store's schema.
    ///   - lockTimeout: How long a statement waits for a lock.
    ///   - label: Names the queue.
    ///   - client: Which client library the connection speaks through.
    package init(url: String, schema: String, lockTimeout: Duration = .seconds(10), label: String, client: PostgresClient = .automatic) {
        self.url = url
        self.schema = schema
        self.lockTimeout = lockTimeout
        self.client = client
        self.queue = DispatchQueue(label: "pawtrail.postgres.\(label)")
    }

    /// A new session to the same server and schema, with a connection of its own (for a transaction that must not
    /// share this one's connection).
    package func sibling(label: String) -> PostgresSession {
        PostgresSession(url: url, schema: schema, lockTimeout: lockTimeout, label: label, client: client)
    }

    /// Runs `body` with the connection, connecting first if there is none or the last one broke.
    ///
    /// - Parameter body: The work; it may throw anything.
    /// - Returns: What `body` returns.
    /// - Throws: ``EventStoreError/Code/unavailable`` when no connection can be had; what `body` throws.
    package func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async {
                continuation.resume(with: Result { try body(self.connected()) })
            }
        }
    }

    /// Queues `body` on the session's queue with the connection, or why there is none, and returns at once.
    package func submit(_ body: @escaping @Sendable (Result<PostgresConnection, any Error>) -> Void) {
        queue.async { body(Result { try self.connected() }) }
    }

    /// The session's connection, connecting again if it broke (on the session's queue only: inside ``submit(_:)``).
    package func reconnected() throws -> PostgresConnection {
        dispatchPrecondition(condition: .onQueue(queue))
        return try connected()
    }

    /// Runs `body` on the session's queue now, from a thread that may block (a migration, a schema change).
    package func runBlocking<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try queue.sync { try body(connected()) }
    }

    private func connected() throws -> PostgresConnection {
        if let c = connection, c.isUsable { return c }
        connection = nil
        let c = try PostgresConnection(url: url, schema: schema, lockTimeout: lockTimeout, client: client)
        connection = c
        return c
    }

    /// ``run(_:)``, with the server's failures as store errors: what every operation but an append (which retries a
    /// lost connection itself) reports.
    package func perform<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        do {
            return try await run(body)
        } catch let failure as PostgresFailure {
            throw failure.storeError
        }
    }

    /// ``runBlocking(_:)``, with the server's failures as store errors.
    package func performBlocking<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        do {
            return try runBlocking(body)
        } catch let failure as PostgresFailure {
            throw failure.storeError
        }
    }
}

/// Lock keys held, shared with the locks that release them.
package final class HeldLocks: Sendable {
    package let keys = Mutex<Set<String>>([])
}
