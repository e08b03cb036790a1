import EventLog
import EventLogPostgres
public import Projections

/// The PostgreSQL store's personal index: tables in the store's schema, shared by every machine (`personal_index`, an
/// entry a row with the positions it held between, and `personal_index_checkpoint`).
///
/// An erasure deletes the subject's rows; their dead versions stay until autovacuum reclaims them, and as for the
/// personal-data keys, PostgreSQL does not overwrite freed space or its write-ahead log at once (docs/design.md,
/// "Personal data").
/// On a standby the tables cannot be written: the runtime then answers from an index made in memory.
public final class PostgresPersonalIndex: PersonalIndex, @unchecked Sendable {
    private let store: PostgresProjectionStateStore

    init(store: PostgresProjectionStateStore) {
        self.store = store
    }

    public func checkpoint() async throws -> (version: Int, position: UInt64)? {
        try store.blocking { c in
            let r = try c.query("SELECT version::bigint, position FROM personal_index_checkpoint")
            guard r.count == 1, let version = r.int64(0, 0), let position = r.int64(0, 1) else { return nil }
            return (Int(version), UInt64(position))
        }
    }

    public func apply(_ changes: [PersonalIndexChange], from: UInt64?, through: UInt64, version: Int) async throws -> Bool {
        let batch = Batch(changes)
        let stored = try store.blocking { c -> Bool in
            try c.execute("BEGIN")
            do {
                _ = try c.query("SELECT pg_advisory_xact_lock(hashtext('pawtrail personal_index'))")
                let r = try c.query("SELECT version::bigint, position FROM personal_index_checkpoint")
                let now: (Int64, Int64)? = r.count == 1 ? (r.int64(0, 0) ?? -1, r.int64(0, 1) ?? -1) : nil
                guard now.map({ UInt64($0.1) }) == from, from == nil || now?.0 == Int64(version) else {
                    try c.execute("ROLLBACK")
                    return false
                }
                if !batch.erased.isEmpty {
                    _ = try c.query("DELETE FROM personal_index WHERE subject = ANY($1)", [.textArray(batch.erased)])
                    _ = try c.query("DELETE FROM personal_index_values WHERE subject = ANY($1)", [.textArray(batch.erased)])
                }
                if !batch.remembered.isEmpty {
                    let r = batch.remembered
                    _ = try c.query(
                        """
                        INSERT INTO personal_index_values (position, subject, entry_values)
                        SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])
                        ON CONFLICT (position) DO UPDATE SET subject = excluded.subject, entry_values = excluded.entry_values
                        """, [.int8Array(r.map { Int64($0.position) }), .textArray(r.map(\.subject)), .textArray(r.map { $0.values.joined(separator: "\u{1F}") })])
                }
                if !batch.closing.isEmpty {
                    _ = try c.query(
                        """
                        UPDATE personal_index p SET until = x.at FROM unnest($1::text[], $2::bigint[]) AS x(subject, at)
                         WHERE p.subject = x.subject AND p.until IS NULL
                        """, [.textArray(batch.closing.map(\.subject)), .int8Array(batch.closing.map { Int64($0.at) })])
                }
                if !batch.rows.isEmpty {
                    let rows = batch.rows
                    _ = try c.query(
                        """
                        INSERT INTO personal_index (subject, since, until, sort_key, terms, entry_values)
                        SELECT s, f, NULLIF(u, -1), k, t, v FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[])
                          AS x(s, f, u, k, t, v)
                        ON CONFLICT (subject, since) DO UPDATE
                          SET until = excluded.until, sort_key = excluded.sort_key, terms = excluded.terms, entry_values = excluded.entry_values
                        """,
                        [
                            .textArray(rows.map(\.subject)), .int8Array(rows.map { Int64($0.since) }), .int8Array(rows.map { $0.until.map(Int64.init) ?? -1 }),
                            .textArray(rows.map(\.entry.sortKey)), .textArray(rows.map { " " + $0.entry.terms.joined(separator: " ") }),
                            .textArray(rows.map { $0.entry.values.joined(separator: "\u{1F}") }),
                        ])
                }
                _ = try c.query(
                    """
                    INSERT INTO personal_index_checkpoint (id, version, position) VALUES (true, $1::bigint::integer, $2)
                    ON CONFLICT (id) DO UPDATE SET version = excluded.version, position = excluded.position
                    """, [.int8(Int64(version)), .int8(Int64(through))])
                try c.execute("COMMIT")
                return true
            } catch {
                try? c.execute("ROLLBACK")
                throw error
            }
        }
        // The deleted rows' versions are left to autovacuum: a VACUUM here would scan the table's indexes whole, a cost
        // that grows with the shop (docs/design.md, "Personal data", on what PostgreSQL keeps of deleted rows).
        return stored
    }

    public func reset() async throws {
        try store.blocking { c in
            try c.execute("BEGIN; DELETE FROM personal_index; DELETE FROM personal_index_values; DELETE FROM personal_index_checkpoint; COMMIT")
        }
        try store.blocking { c in
            // One statement each: several in one query string would run as one transaction, where VACUUM cannot.
            try c.execute("VACUUM personal_index")
            try c.execute("VACUUM personal_index_values")
        }
    }

    public func values(at positions: [UInt64]) async throws -> [UInt64: [String]] {
        guard !positions.isEmpty else { return [:] }
        return try store.blocking { c in
            let r = try c.query(
                "SELECT position, entry_values FROM personal_index_values WHERE position = ANY($1)", [.int8Array(positions.map { Int64($0) })])
            var out: [UInt64: [String]] = [:]
            for i in 0..<r.count {
                guard let p = r.int64(i, 0) else { continue }
                out[UInt64(p)] = r.string(i, 1).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
            }
            return out
        }
    }

    public func rememberedPositions() async throws -> [UInt64] {
        try store.blocking { c in
            let r = try c.query("SELECT position FROM personal_index_values ORDER BY position")
            return (0..<r.count).compactMap { r.int64($0, 0).map(UInt64.init) }
        }
    }

    public func entry(of subject: String) async throws -> PersonalIndexEntry? {
        try store.blocking { c in
            let r = try c.query("SELECT sort_key, terms, entry_values FROM personal_index WHERE subject = $1 AND until IS NULL", [.text(subject)])
            guard r.count == 1 else { return nil }
            return PersonalIndexEntry(
                values: r.string(0, 2).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init),
                sortKey: r.string(0, 0), terms: r.string(0, 1).split(separator: " ").map(String.init))
        }
    }

    public func subjects(asOf position: UInt64, matching words: [String], offset: Int, limit: Int) async throws -> (subjects: [String], total: Int) {
        try store.blocking { c in
            // Each word must start a term: the terms are stored after a space each, and a word holds no space.
            // As of the stored position or later, the entries that hold are the present ones, which their own index
            // covers: a count or a search reads them, not every past entry.
            let stored = try c.query("SELECT position FROM personal_index_checkpoint")
            let present = stored.count == 1 && (stored.int64(0, 0).map { UInt64($0) <= position } ?? false)
            let live = (present ? "until IS NULL AND $1::bigint IS NOT NULL" : "since <= $1 AND (until IS NULL OR until > $1)")
                + " AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) w WHERE strpos(terms, w) = 0)"
            let parameters: [PostgresValue] = [.int8(Int64(position)), .textArray(words.map { " " + $0 })]
            let count = try c.query("SELECT count(*) FROM personal_index WHERE " + live, parameters)
            let total = Int(count.int64(0, 0) ?? 0)
            let page = try c.query(
                "SELECT subject FROM personal_index WHERE \(live) ORDER BY sort_key, subject LIMIT \(limit == .max ? "ALL" : String(limit)) OFFSET \(offset)",
                parameters)
            return ((0..<page.count).map { page.string($0, 0) }, total)
        }
    }

    /// Changes as three statements: the subjects erased, the open entries closed, and the rows made (each closed by
    /// the next one of its subject in the same batch).
    private struct Batch {
        var erased: [String] = []
        var closing: [(subject: String, at: UInt64)] = []
        var rows: [(subject: String, since: UInt64, until: UInt64?, entry: PersonalIndexEntry)] = []
        var remembered: [(position: UInt64, subject: String, values: [String])] = []

        init(_ changes: [PersonalIndexChange]) {
            var last: [String: Int] = [:]
            var closes: [String: UInt64] = [:]
            var gone: Set<String> = []
            var dropped: Set<Int> = []
            for change in changes {
                switch change {
                case .put(let subject, let entry, let at):
                    if let i = last[subject] {
                        rows[i].until = at
                    } else if !gone.contains(subject), closes[subject] == nil {
                        closes[subject] = at
                    }
                    rows.append((subject, at, nil, entry))
                    last[subject] = rows.count - 1
                case .erase(let subject):
                    for (i, r) in rows.enumerated() where r.subject == subject { dropped.insert(i) }
                    remembered.removeAll { $0.subject == subject }
                    gone.insert(subject)
                    closes[subject] = nil
                    last[subject] = nil
                case .remember(let position, let subject, let values):
                    remembered.append((position, subject, values))
                }
            }
            rows = rows.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
            erased = gone.sorted()
            closing = closes.map { ($0.key, $0.value) }
        }
    }
}
