public import EventLog

/// Personal-data keys in the store's `personal_keys` table, shared by every machine that uses the store.
///
/// Destroying a key sets it to NULL (the row stays, so the subject never gets a new key) and vacuums the table, so
/// the old row version's space is reclaimed. PostgreSQL does not overwrite freed space or its write-ahead log at
/// once: the key's bytes can stay there until the server reuses them, and in base backups and WAL archives taken
/// before; a business that needs the bytes gone at once keeps the server's storage encrypted and its backups
/// short-lived.
public final class PostgresPersonalDataKeys: PersonalDataKeys {
    private let session: PostgresSession

    /// The keys of a store.
    ///
    /// - Parameter store: The store, whose schema holds the table.
    public init(store: PostgresEventStore) {
        session = store.session
    }

    public func key(for subject: String) async throws -> [UInt8]? {
        try await session.perform { c in
            let rows = try c.query("SELECT key FROM personal_keys WHERE subject = $1", [.text(subject)])
            return rows.count == 0 || rows.isNull(0, 0) ? nil : rows.array(0, 0)
        }
    }

    public func createKey(for subject: String, make: @Sendable () -> [UInt8]) async throws -> [UInt8]? {
        if let key = try await key(for: subject) { return key }
        let fresh = make()
        return try await session.perform { c in
            // Of two machines creating a subject's key at once, the first insert wins and both use its key.
            _ = try c.query("INSERT INTO personal_keys (subject, key) VALUES ($1, $2) ON CONFLICT (subject) DO NOTHING", [.text(subject), .bytea(fresh)])
            let rows = try c.query("SELECT key FROM personal_keys WHERE subject = $1", [.text(subject)])
            return rows.count == 0 || rows.isNull(0, 0) ? nil : rows.array(0, 0)
        }
    }

    public func destroyKey(for subject: String) async throws {
        try await session.perform { c in
            _ = try c.query(
                "INSERT INTO personal_keys (subject, key) VALUES ($1, NULL) ON CONFLICT (subject) DO UPDATE SET key = NULL", [.text(subject)])
            try c.execute("VACUUM personal_keys")
        }
    }
}
