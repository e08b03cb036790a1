import CLibPQ
import CLibPQLoader
import EventLog
import Foundation

/// Why a statement failed: the connection is gone (the outcome of a COMMIT in flight is then unknown), or the
/// server refused it with a SQLSTATE.
package enum PostgresFailure: Error, CustomStringConvertible {
    case connectionLost(String)
    case statement(sqlstate: String, message: String)

    package var description: String {
        switch self {
        case .connectionLost(let m): "the connection to PostgreSQL was lost: \(m)"
        case .statement(let state, let m): "PostgreSQL refused a statement: \(m) (SQLSTATE \(state))"
        }
    }

    /// The store error a caller sees, for a failure outside a COMMIT.
    package var storeError: EventStoreError {
        switch self {
        case .connectionLost: return .unavailable(description)
        case .statement(let state, let message):
            // lock_not_available (lock_timeout) and query_canceled (statement_timeout): the server did not answer in time.
            if state == "55P03" || state == "57014" { return .timedOut("PostgreSQL gave up waiting: \(message) (SQLSTATE \(state))") }
            // read_only_sql_transaction: a hot standby, or a server that is read-only.
            if state == "25006" {
                return .unavailable("the PostgreSQL server is read-only (a standby?): write to the primary, or add target_session_attrs=read-write to the URL (\(message))")
            }
            return .storeFailure(description)
        }
    }
}

/// Which client library a store's connections speak through.
public enum PostgresClient: Sendable {
    /// The wire client where it can serve the URL (a Unix socket, or TCP without TLS; see ``PostgresAddress``),
    /// else libpq.
    case automatic
    /// libpq always.
    case libpq
}

/// One connection to a PostgreSQL server, owned once and closed in `deinit`: through the wire client
/// (``PostgresWire``) where it can serve the URL, else through libpq (a `PGconn`), which is then loaded. Not for
/// use from two threads at once: ``PostgresSession`` runs every use on its own queue.
package final class PostgresConnection {
    /// libpq's connection, when libpq serves this one.
    let connection: OpaquePointer!
    /// The wire client, when it serves this one.
    let wire: PostgresWire?

    /// Connects, and sets what every session of the store needs.
    ///
    /// - Parameters:
    ///   - url: A libpq connection URI or string.
    ///   - schema: The schema the store's tables live in.
    ///   - lockTimeout: How long a statement waits for a lock.
    ///   - client: Which client library to speak through.
    /// - Throws: ``EventStoreError/Code/unavailable`` when the server cannot be reached; its message never holds
    ///   the URL (it may hold a password).
    init(url: String, schema: String, lockTimeout: Duration = .seconds(10), client: PostgresClient = .automatic) throws(EventStoreError) {
        var wire: PostgresWire?
        if case .automatic = client, let address = PostgresAddress.native(url) {
            do {
                wire = try PostgresWire(address)
            } catch let failure as PostgresFailure {
                if case .statement(_, let message) = failure { throw .unavailable("cannot connect to PostgreSQL: \(message)") }
                throw .unavailable("cannot connect to PostgreSQL: \(failure)")
            } catch {
                // An authentication the wire client does not speak (or a password only libpq can find): libpq's.
                wire = nil
            }
        }
        self.wire = wire
        if wire != nil {
            connection = nil
        } else {
            connection = try Self.connectThroughLibPQ(url)
        }
        try prepareSession(schema: schema, lockTimeout: lockTimeout)
    }

    private static func connectThroughLibPQ(_ url: String) throws(EventStoreError) -> OpaquePointer {
        guard CLibPQLoader_available() == 1 else {
            let why = CLibPQLoader_error().map { String(cString: $0) } ?? "unknown"
            throw .unavailable("cannot use PostgreSQL: libpq could not be loaded (\(why)); apt-get install libpq5")
        }
        // connect_timeout first: a value in the URL, expanded after it, wins.
        let keywords = ["connect_timeout", "dbname", "application_name"]
        let values = ["5", url, "pawtrail"]
        let made: OpaquePointer? = keywords.withCStrings { k in values.withCStrings { v in ptpq_connectdbParams(k, v, 1) } }
        guard let made else { throw .unavailable("cannot connect to PostgreSQL: out of memory") }
        guard ptpq_status(made) == CONNECTION_OK else {
            let why = Self.trimmed(ptpq_errorMessage(made))
            ptpq_finish(made)
            throw .unavailable("cannot connect to PostgreSQL: \(why)")
        }
        return made
    }

    private func prepareSession(schema: String, lockTimeout: Duration) throws(EventStoreError) {
        // Appends hold one lock to COMMIT: waiting for it, a statement, or a session idle inside a transaction that
        // holds it, must end in an error within seconds, never a hang. Durable means flushed at COMMIT: a session
        // set to `off` is turned `on`, and the stronger settings a server or URL may ask for (remote_write, on with a
        // synchronous standby, remote_apply) are kept.
        // A statement may wait for the lock as long as the lock timeout allows, and then still run: the statement
        // timeout is never the shorter.
        let lockMilliseconds = lockTimeout.components.seconds * 1000 + lockTimeout.components.attoseconds / 1_000_000_000_000_000
        let statementMilliseconds = max(60_000, lockMilliseconds + 30_000)
        do {
            try execute(
                """
                SET lock_timeout = '\(lockMilliseconds)ms'; SET statement_timeout = '\(statementMilliseconds)ms'; SET idle_in_transaction_session_timeout = '30s';
                SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off';
                SET client_min_messages = warning; SET search_path = \(Self.identifier(schema));
                """)
        } catch {
            throw error.storeError
        }
    }

    deinit {
        if let connection { ptpq_finish(connection) }
    }

    /// Whether the connection is still up.
    package var isUsable: Bool { wire?.isUsable ?? (ptpq_status(connection) == CONNECTION_OK) }

    /// The process id of the connection's server backend.
    package var backendPID: Int32 { wire?.backendPID ?? ptpq_backendPID(connection) }

    /// Whether libpq serves this connection (rather than the wire client).
    package var usesLibPQ: Bool { wire == nil }

    /// Runs statements without parameters (several may be given, separated by semicolons).
    ///
    /// - Parameter sql: The statements.
    /// - Throws: ``PostgresFailure``.
    package func execute(_ sql: String) throws(PostgresFailure) {
        _ = try simpleQuery(sql)
    }

    /// Runs statements without parameters and returns the last one's rows (in text format).
    ///
    /// - Parameter sql: The statements.
    /// - Returns: The last statement's rows.
    /// - Throws: ``PostgresFailure``.
    package func simpleQuery(_ sql: String) throws(PostgresFailure) -> PostgresResult {
        if let wire { return try wire.simpleQuery(sql) }
        return try check(ptpq_exec(connection, sql))
    }

    /// Runs one statement with parameters in binary format, and takes its rows in binary format.
    ///
    /// - Parameters:
    ///   - sql: The statement, naming its parameters `$1`, `$2`, ...
    ///   - parameters: Their values.
    /// - Returns: The rows.
    /// - Throws: ``PostgresFailure``.
    package func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresFailure) -> PostgresResult {
        if let wire {
            return try wire.query(sql, types: parameters.map(\.oid), values: parameters.map { if case .null = $0 { nil } else { $0.bytes } })
        }
        let encoded = parameters.map(\.bytes)
        let types = parameters.map(\.oid)
        let lengths = encoded.map { Int32($0.count) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result: OpaquePointer? = withPointers(to: encoded) { pointers in
            // A NULL parameter is a null pointer.
            var values = pointers
            for (i, p) in parameters.enumerated() { if case .null = p { values[i] = nil } }
            return ptpq_execParams(connection, sql, Int32(parameters.count), types, values, lengths, formats, 1)
        }
        return try check(result)
    }

    func check(_ result: OpaquePointer?) throws(PostgresFailure) -> PostgresResult {
        guard let result else { throw .connectionLost(Self.trimmed(ptpq_errorMessage(connection))) }
        let owned = PostgresResult(result)
        switch ptpq_resultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return owned
        default:
            if ptpq_status(connection) != CONNECTION_OK { throw .connectionLost(Self.trimmed(ptpq_errorMessage(connection))) }
            let state = ptpq_resultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "?????"
            let message = ptpq_resultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? "unknown error"
            throw .statement(sqlstate: state, message: message)
        }
    }

    /// Whether this connection has run LISTEN on the store's channel.
    package var isListening = false

    /// Waits up to `timeout` for a notification on a channel this connection listens to, and drains what came.
    ///
    /// - Parameter timeout: The longest wait.
    /// - Returns: Whether a notification arrived.
    /// - Throws: ``PostgresFailure/connectionLost(_:)``.
    package func waitForNotification(timeout: Duration) throws(PostgresFailure) -> Bool {
        if let wire { return try wire.waitForNotification(timeout: timeout) }
        if drainNotifications() { return true }
        var fds = pollfd(fd: ptpq_socket(connection), events: Int16(POLLIN), revents: 0)
        let ms = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&fds, 1, max(ms, 0))
        guard ready > 0 else { return false }
        guard ptpq_consumeInput(connection) == 1 else { throw .connectionLost(Self.trimmed(ptpq_errorMessage(connection))) }
        return drainNotifications()
    }

    private func drainNotifications() -> Bool {
        var any = false
        while let n = ptpq_notifies(connection) {
            any = true
            ptpq_freemem(n)
        }
        return any
    }

    /// The notification channel of a store's schema.
    package static func channel(_ schema: String) -> String { "pawtrail_appends_" + schema }

    /// A quoted SQL string literal.
    package static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A quoted SQL identifier.
    package static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
    }

    private func withPointers<R>(to buffers: [[UInt8]], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafePointer<CChar>?] = []
        pointers.reserveCapacity(buffers.count)
        func next(_ i: Int) -> R {
            guard i < buffers.count else { return body(pointers) }
            return buffers[i].withUnsafeBytes { raw in
                // A zero-length value still needs a pointer, or libpq takes it for NULL.
                pointers.append(raw.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) } ?? UnsafePointer(bitPattern: 1))
                return next(i + 1)
            }
        }
        return next(0)
    }
}

extension Array where Element == String {
    /// Calls `body` with a NULL-terminated array of C strings.
    fileprivate func withCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let duplicated = map { strdup($0) }
        defer { duplicated.forEach { free($0) } }
        let pointers = duplicated.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
