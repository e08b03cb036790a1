import EventLog
import Foundation

/// The store's tables in one schema, and the version they are at.
///
/// - `head`: one row, whose row lock is the append lock, held to COMMIT; it holds the next position and the last
///   commit time. A transaction is visible before it releases its locks, so the next appender always sees the last
///   commit: positions are gapless and become visible in commit order, to every reader.
/// - `events`: one row an event. Stream ids and types compare by their bytes (collation "C"), as `StreamID` does;
///   data and metadata are stored byte for byte. The first row of each run (consecutive events of one write with
///   one category and one time: ``PostgresEventRuns``) holds the run's category and length, which two partial
///   indexes serve to reads by category and by time.
/// - `snapshots`: the stream states decisions start from (a cache: see ``PostgresSnapshotStore``).
/// - `projection_states`, `projection_rows`, `projection_present`: the read models' states, keyed rows with their
///   versions by position, and the rows present at each checkpoint (see `PostgresProjectionStateStore`), shared by
///   every machine that uses the store.
/// - `personal_keys`: the per-account keys that seal personal data (see ``PostgresPersonalDataKeys``).
/// - `personal_index`, `personal_index_checkpoint`: the personal index (see `PostgresPersonalIndex`).
/// - `schema_version`: the version of this layout; a newer one is refused, an older one upgraded by `store upgrade`.
enum PostgresSchema {
    /// The layout this build writes and reads.
    static let version = 6

    /// The statements that create the layout in an empty schema.
    static func creation(_ schema: String) -> String {
        let s = PostgresConnection.identifier(schema)
        return """
            CREATE SCHEMA IF NOT EXISTS \(s);
            CREATE TABLE \(s).schema_version (version integer NOT NULL);
            INSERT INTO \(s).schema_version VALUES (\(version));
            CREATE TABLE \(s).head (
              id boolean PRIMARY KEY DEFAULT true CHECK (id),
              next_position bigint NOT NULL,
              last_recorded_at bigint NOT NULL
            ) WITH (fillfactor = 10);
            INSERT INTO \(s).head VALUES (true, 0, 0);
            CREATE TABLE \(s).events (
              position bigint PRIMARY KEY,
              stream_id text COLLATE "C" NOT NULL,
              version bigint NOT NULL,
              event_id uuid NOT NULL UNIQUE,
              type text COLLATE "C" NOT NULL,
              recorded_at bigint NOT NULL,
              metadata bytea NOT NULL,
              metadata_pairs integer NOT NULL,
              data bytea NOT NULL,
              run_category text COLLATE "C",
              run_length integer CHECK (run_length > 0),
              CHECK ((run_category IS NULL) = (run_length IS NULL)),
              UNIQUE (stream_id, version)
            );
            \(runIndexes(s));
            CREATE TABLE \(s).snapshots (
              stream_id text COLLATE "C" NOT NULL,
              kind text COLLATE "C" NOT NULL,
              schema_version integer NOT NULL,
              version bigint NOT NULL,
              position bigint NOT NULL,
              event_id uuid NOT NULL,
              state bytea NOT NULL,
              subject text COLLATE "C",
              PRIMARY KEY (stream_id, kind)
            );
            CREATE INDEX snapshots_subject ON \(s).snapshots (subject) WHERE subject IS NOT NULL;
            \(personalIndex(s));
            CREATE TABLE \(s).projection_states (
              name text COLLATE "C" NOT NULL,
              version integer NOT NULL,
              generation bigint NOT NULL,
              schema_version integer NOT NULL,
              position bigint,
              events_applied bigint NOT NULL,
              rebuilt_at bigint NOT NULL,
              rebuild_microseconds bigint NOT NULL,
              saved_at bigint NOT NULL,
              event_id uuid,
              event_recorded_at bigint,
              PRIMARY KEY (name, version)
            );
            CREATE TABLE \(s).projection_rows (
              name text COLLATE "C" NOT NULL,
              version integer NOT NULL,
              generation bigint NOT NULL,
              key bytea NOT NULL,
              position bigint NOT NULL,
              value bytea,
              keep boolean NOT NULL,
              PRIMARY KEY (name, version, generation, key, position)
            );
            \(presentRows(s));
            \(personalKeys(s));
            """
    }

    /// The rows of each read model's current state as of its checkpoint: a row's newest version, where it has a
    /// value. Reads of the present range over these, not over every version a key ever had.
    private static func presentRows(_ s: String) -> String {
        """
        CREATE TABLE \(s).projection_present (
          name text COLLATE "C" NOT NULL,
          version integer NOT NULL,
          generation bigint NOT NULL,
          key bytea NOT NULL,
          value bytea NOT NULL,
          PRIMARY KEY (name, version, generation, key)
        )
        """
    }

    /// The table of personal-data keys: a key, or none once destroyed (the row then keeps the subject from a new key).
    private static func personalKeys(_ s: String) -> String {
        "CREATE TABLE IF NOT EXISTS \(s).personal_keys (subject text COLLATE \"C\" PRIMARY KEY, key bytea CHECK (key IS NULL OR length(key) = 32))"
    }

    /// The personal index (see `PostgresPersonalIndex`): entries by subject with the positions they held between, and
    /// its checkpoint.
    private static func personalIndex(_ s: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(s).personal_index (
          subject text COLLATE "C" NOT NULL, since bigint NOT NULL, until bigint, sort_key text COLLATE "C" NOT NULL,
          terms text NOT NULL, entry_values text NOT NULL, PRIMARY KEY (subject, since));
        CREATE INDEX IF NOT EXISTS personal_index_order ON \(s).personal_index (sort_key, subject);
        CREATE INDEX IF NOT EXISTS personal_index_present ON \(s).personal_index (sort_key, subject) INCLUDE (terms) WHERE until IS NULL;
        CREATE TABLE IF NOT EXISTS \(s).personal_index_values (
          position bigint PRIMARY KEY, subject text COLLATE "C" NOT NULL, entry_values text NOT NULL);
        CREATE INDEX IF NOT EXISTS personal_index_values_subject ON \(s).personal_index_values (subject);
        CREATE TABLE IF NOT EXISTS \(s).personal_index_checkpoint (
          id boolean PRIMARY KEY DEFAULT true CHECK (id), version integer NOT NULL, position bigint NOT NULL)
        """
    }

    /// 4 -> 5: snapshots are tagged with the account whose personal data they hold, so that erasing it removes them
    /// by one deletion; the snapshots of layout 4 are a cache without tags, and go. The personal index.
    private static func taggedSnapshots(_ s: String) -> String {
        """
        DELETE FROM \(s).snapshots;
        ALTER TABLE \(s).snapshots ADD COLUMN IF NOT EXISTS subject text COLLATE "C";
        CREATE INDEX IF NOT EXISTS snapshots_subject ON \(s).snapshots (subject) WHERE subject IS NOT NULL;
        \(personalIndex(s))
        """
    }

    /// The indexes of runs: their first rows by category and by time.
    private static func runIndexes(_ s: String) -> String {
        """
        CREATE INDEX events_run_category ON \(s).events (run_category, position) INCLUDE (run_length) WHERE run_category IS NOT NULL;
        CREATE INDEX events_run_recorded_at ON \(s).events (recorded_at, position) INCLUDE (run_length) WHERE run_category IS NOT NULL
        """
    }

    /// 3 -> 4: the runs take the place of the category column and the indexes of every event. Runs are found by the
    /// category of each stream id up to its first `-` and the recorded time, across the writes of the old layout.
    /// The read models' present rows are taken from their versions.
    private static func runs(_ s: String) -> String {
        """
        ALTER TABLE \(s).events ADD COLUMN run_category text COLLATE "C", ADD COLUMN run_length integer CHECK (run_length > 0),
          ADD CHECK ((run_category IS NULL) = (run_length IS NULL));
        WITH marked AS (
          SELECT position, category, lag(category) OVER w IS DISTINCT FROM category OR lag(recorded_at) OVER w IS DISTINCT FROM recorded_at AS starts
            FROM \(s).events WINDOW w AS (ORDER BY position)),
        runs AS (
          SELECT position, category, coalesce(lead(position) OVER (ORDER BY position), (SELECT max(position) + 1 FROM \(s).events)) - position AS length
            FROM marked WHERE starts)
        UPDATE \(s).events e SET run_category = r.category, run_length = r.length FROM runs r WHERE e.position = r.position;
        DROP INDEX \(s).events_category_position;
        DROP INDEX \(s).events_recorded_at;
        ALTER TABLE \(s).events DROP COLUMN category;
        \(runIndexes(s));
        \(presentRows(s));
        INSERT INTO \(s).projection_present (name, version, generation, key, value)
        SELECT name, version, generation, key, value FROM (
          SELECT DISTINCT ON (r.name, r.version, r.generation, r.key) r.name, r.version, r.generation, r.key, r.value
            FROM \(s).projection_rows r JOIN \(s).projection_states p ON p.name = r.name AND p.version = r.version AND p.generation = r.generation
           WHERE r.position <= p.position
           ORDER BY r.name DESC, r.version DESC, r.generation DESC, r.key DESC, r.position DESC) newest
         WHERE value IS NOT NULL
        """
    }

    /// 5 -> 6: no read model's rows lie past its checkpoint, so that a catch-up need not look for them. Writers of
    /// layout 5 deleted them at the start of each catch-up instead.
    private static func rowsWithinCheckpoints(_ s: String) -> String {
        """
        DELETE FROM \(s).projection_rows r USING \(s).projection_states p
         WHERE r.name = p.name AND r.version = p.version AND r.generation = p.generation AND r.position > coalesce(p.position, -1)
        """
    }

    /// The statements that move a store from each version to the next. 1 -> 2: a read model's checkpoint records when
    /// the event at its position was recorded, beside its id. 2 -> 3: the personal-data keys. 3 -> 4: runs. 4 -> 5:
    /// tagged snapshots and the personal index. 5 -> 6: rows within their checkpoints.
    static let upgrades: [Int: @Sendable (String) -> String] = [
        1: { "ALTER TABLE \(PostgresConnection.identifier($0)).projection_states ADD COLUMN event_recorded_at bigint" },
        2: { personalKeys(PostgresConnection.identifier($0)) },
        3: { runs(PostgresConnection.identifier($0)) },
        4: { taggedSnapshots(PostgresConnection.identifier($0)) },
        5: { rowsWithinCheckpoints(PostgresConnection.identifier($0)) },
    ]

    /// Moves a store's layout forward to this build's, one version at a time, each step in one transaction.
    ///
    /// - Parameters:
    ///   - connection: A connection.
    ///   - schema: The schema.
    ///   - location: How to name the store in errors.
    /// - Returns: The version found and the version now.
    /// - Throws: ``EventStoreError/Code/storeNotFound``, ``EventStoreError/Code/incompatibleFormat`` for a newer
    ///   layout, or what the server says.
    static func upgrade(_ connection: PostgresConnection, schema: String, location: String) throws -> (from: Int, to: Int) {
        guard let found = try installedVersion(connection, schema: schema) else { throw EventStoreError.storeNotFound(location: location) }
        guard found <= version else { throw EventStoreError.incompatibleFormat(location: location, found: found, supported: version) }
        var at = found
        while at < version {
            guard let step = upgrades[at] else {
                throw EventStoreError.storeFailure("this build cannot move \(location) from schema version \(at) to \(at + 1)")
            }
            try connection.execute("BEGIN; " + step(schema) + "; UPDATE \(PostgresConnection.identifier(schema)).schema_version SET version = \(at + 1); COMMIT")
            at += 1
        }
        return (found, at)
    }

    /// The layout's version in a schema, `nil` when the schema holds no store.
    ///
    /// - Parameters:
    ///   - connection: A connection.
    ///   - schema: The schema.
    /// - Throws: ``PostgresFailure``.
    static func installedVersion(_ connection: PostgresConnection, schema: String) throws(PostgresFailure) -> Int? {
        let exists = try connection.query(
            "SELECT to_regclass($1) IS NOT NULL", [.text(PostgresConnection.identifier(schema) + ".schema_version")])
        guard exists.count == 1, exists.bool(0, 0) == true else { return nil }
        let r = try connection.query("SELECT max(version) FROM \(PostgresConnection.identifier(schema)).schema_version")
        return r.int32(0, 0).map(Int.init)
    }

    /// ``installedVersion(_:schema:)`` in one round trip where a store is there (what every process opening one
    /// meets): the version table is read straight away, and a schema or table that is not there means no store.
    /// Outside a transaction only (the error would abort it).
    static func installedVersionAtOnce(_ connection: PostgresConnection, schema: String) throws(PostgresFailure) -> Int? {
        do {
            let r = try connection.query("SELECT max(version) FROM \(PostgresConnection.identifier(schema)).schema_version")
            return r.int32(0, 0).map(Int.init)
        } catch .statement(let state, _) where state == "42P01" || state == "3F000" {
            // undefined_table, invalid_schema_name
            return nil
        }
    }

    /// Makes sure a schema holds a store of this build's layout.
    ///
    /// - Parameters:
    ///   - connection: A connection.
    ///   - schema: The schema.
    ///   - location: How to name the store in errors (the URL without its password).
    ///   - create: Whether to create the store when the schema holds none.
    /// - Throws: ``EventStoreError/Code/storeNotFound`` (none, and `create` is false),
    ///   ``EventStoreError/Code/incompatibleFormat`` (a newer layout), or what the server says.
    static func prepare(_ connection: PostgresConnection, schema: String, location: String, create: Bool) throws {
        if let found = try installedVersionAtOnce(connection, schema: schema) {
            guard found <= version else { throw EventStoreError.incompatibleFormat(location: location, found: found, supported: version) }
            guard found == version else {
                throw EventStoreError.storeFailure(
                    "\(location) holds a store of schema version \(found); this build uses version \(version): run 'pawtrail store upgrade' first")
            }
            return
        }
        guard create else { throw EventStoreError.storeNotFound(location: location) }
        // Two processes creating one store take turns: the second finds the first's tables.
        try connection.execute("BEGIN")
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", [.text("pawtrail.create." + schema)])
            if try installedVersion(connection, schema: schema) == nil { try connection.execute(creation(schema)) }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
