public import EventLog
import Foundation
import Synchronization

/// The event store on a PostgreSQL server: the same semantics as the file store (the conformance kit's cases), for
/// several processes and machines sharing one store.
///
/// An append takes the store's one append lock (the `head` row, see ``PostgresSchema``) in its own statement, reads
/// the current versions of the streams it names and the events already committed with its ids, decides with
/// ``AppendPlanner`` as every store does, then writes its events at the next positions and commits, with
/// `synchronous_commit` on. The lock is held to COMMIT, so positions are gapless and become visible in commit order.
/// A connection lost during COMMIT leaves the outcome unknown: the append is run again with the same event ids,
/// which gives the original result (already committed) or one fresh write, never two.
public final class PostgresEventStore: EventStore {
    /// Where and how to open a store.
    public struct Options: Sendable {
        /// The schema that holds the store's tables.
        public var schema: String
        /// Whether opening creates a store the schema does not hold.
        public var createIfMissing: Bool
        /// How long an append waits for the append lock before it fails as timed out (a stuck holder of the lock
        /// must not make every writer hang).
        public var lockTimeout: Duration
        /// Which client library the connections speak through.
        public var client: PostgresClient

        /// Creates options.
        public init(schema: String = "pawtrail", createIfMissing: Bool = false, lockTimeout: Duration = .seconds(10), client: PostgresClient = .automatic) {
            self.schema = schema
            self.createIfMissing = createIfMissing
            self.lockTimeout = lockTimeout
            self.client = client
        }
    }

    package let session: PostgresSession
    /// The store as errors name it: the URL without its password.
    public let location: String
    package let schema: String

    /// The connection follow mode waits on, apart from the one appends and reads use.
    let listener: PostgresSession
    /// Set once the server refuses LISTEN (a standby): follow mode polls from then on.
    let listenRefused = Mutex(false)
    /// Appends waiting for the session: the next one to get it commits all of them in one transaction.
    let waitingAppends = Mutex<[WaitingAppend]>([])
    /// The head as the last ``lastPosition()`` read it: its last event's position and commit time.
    let headRead = Mutex<LogHead?>(nil)

    private init(session: PostgresSession, listener: PostgresSession, location: String, schema: String) {
        self.session = session
        self.listener = listener
        self.location = location
        self.schema = schema
    }

    /// Connects to a server and checks (or creates) the store's tables.
    ///
    /// - Parameters:
    ///   - url: A libpq connection URI (`postgresql://user@host/db`).
    ///   - options: The schema, and whether to create the store.
    /// - Returns: The store.
    /// - Throws: ``EventStoreError``: `unavailable` when the server cannot be reached, `storeNotFound` when the
    ///   schema holds no store and `createIfMissing` is false, `incompatibleFormat` for a newer layout.
    public static func open(url: String, options: Options = Options()) throws -> PostgresEventStore {
        let location = redacted(url)
        let session = PostgresSession(url: url, schema: options.schema, lockTimeout: options.lockTimeout, label: "store", client: options.client)
        try session.performBlocking { c in
            try PostgresSchema.prepare(c, schema: options.schema, location: location, create: options.createIfMissing)
        }
        let listener = PostgresSession(url: url, schema: options.schema, lockTimeout: options.lockTimeout, label: "listener", client: options.client)
        return PostgresEventStore(session: session, listener: listener, location: location, schema: options.schema)
    }

    /// Moves a store's tables forward to this build's layout (`pawtrail store upgrade`).
    ///
    /// - Parameters:
    ///   - url: The server's connection URI.
    ///   - schema: The store's schema.
    /// - Returns: The layout version found, and the version now.
    /// - Throws: As ``open(url:options:)``.
    public static func upgrade(url: String, schema: String = "pawtrail") throws -> (from: Int, to: Int) {
        let location = redacted(url)
        return try PostgresSession(url: url, schema: schema, label: "upgrade").performBlocking { c in
            try PostgresSchema.upgrade(c, schema: schema, location: location)
        }
    }

    /// The layout version this build writes.
    public static var schemaVersion: Int { PostgresSchema.version }

    /// A connection URI without its password (`postgresql://shop:***@db/shop`), for messages.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else { return url }
        let userInfo = url[scheme.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    // MARK: - Reading the head

    public func lastPosition() async throws -> UInt64? {
        let head: LogHead? = try await run { c in
            // The head row's time is the commit time of the event before `next_position` (every write sets both).
            let r = try c.query("SELECT next_position, last_recorded_at FROM head")
            guard let next = r.int64(0, 0), next > 0, let at = r.int64(0, 1) else { return nil }
            return LogHead(position: UInt64(next - 1), recordedAt: Timestamp(microsecondsSinceEpoch: at))
        }
        headRead.withLock { $0 = head }
        return head?.position
    }

    /// The head the last ``lastPosition()`` read, without a query: a read model stored through that position at that
    /// commit time belongs to this log (a log that diverged has other commits there, made at other times), so a view
    /// need not read the event at its checkpoint.
    public func knownHead() async throws -> LogHead? {
        headRead.withLock { $0 }
    }

    public func streamVersion(of stream: StreamID) async throws -> UInt64? {
        try await run { c in
            try c.query("SELECT max(version) FROM events WHERE stream_id = $1", [.text(stream.rawValue)]).int64(0, 0).map(UInt64.init)
        }
    }

    public func position(of stream: StreamID, version: UInt64) async throws -> UInt64? {
        guard version <= UInt64(Int64.max) else { return nil }
        return try await run { c in
            try c.query("SELECT position FROM events WHERE stream_id = $1 AND version = $2", [.text(stream.rawValue), .int8(Int64(version))])
                .int64(0, 0).map(UInt64.init)
        }
    }

    public func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? {
        try await run { c in
            // Times never decrease along positions and a run's events share its time: the last event at or before the
            // time ends the last run that starts at or before it.
            try c.query(
                """
                SELECT position + run_length - 1 FROM events WHERE run_category IS NOT NULL AND recorded_at <= $1
                 ORDER BY recorded_at DESC, position DESC LIMIT 1
                """,
                [.int8(time.microsecondsSinceEpoch)]
            ).int64(0, 0).map(UInt64.init)
        }
    }

    /// Waits for appends past a position. On a primary, a connection of its own LISTENs on the store's channel,
    /// then reads the head (in that order, so that no commit falls between them) and sleeps until a notification
    /// or a quarter second passes; a notification is only a hint, and the head decides. Where LISTEN is refused (a
    /// standby), it polls the head, backing off from 2 to 100 ms. A lost connection is made anew, and the head read
    /// again before any wait, so nothing is missed across a reconnect.
    public func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(2)
        let channel = PostgresConnection.channel(schema)
        while true {
            let now = ContinuousClock.now
            let slice = max(min(deadline - now, .milliseconds(250)), .zero)
            let outcome: (last: Int64, listening: Bool)
            do {
                outcome = try await listener.run { c in
                    if !c.isListening, !self.listenRefused.withLock({ $0 }) {
                        do {
                            try c.execute("LISTEN \(PostgresConnection.identifier(channel))")
                            c.isListening = true
                        } catch PostgresFailure.statement {
                            // A hot standby refuses LISTEN: poll there.
                            self.listenRefused.withLock { $0 = true }
                        }
                    }
                    let next = try c.query("SELECT next_position FROM head").int64(0, 0) ?? 0
                    let advanced = position.map { next - 1 > Int64(clamping: $0) } ?? (next > 0)
                    guard !advanced, c.isListening, slice > .zero else { return (next, c.isListening) }
                    _ = try c.waitForNotification(timeout: slice)
                    return (try c.query("SELECT next_position FROM head").int64(0, 0) ?? 0, true)
                }
            } catch let failure as PostgresFailure {
                guard case .connectionLost = failure, ContinuousClock.now < deadline else { throw failure.storeError }
                continue
            }
            let last = outcome.last - 1
            if last >= 0, position.map({ UInt64(last) > $0 }) ?? true { return true }
            if ContinuousClock.now >= deadline { return false }
            try Task.checkCancellation()
            if !outcome.listening {
                try await Task.sleep(for: min(pause, deadline - ContinuousClock.now))
                pause = min(pause * 2, .milliseconds(100))
            }
        }
    }

    /// Runs `body` on the session, turning the server's failures into store errors.
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await session.perform(body)
    }
}
