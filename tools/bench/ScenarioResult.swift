/// The outcome of one scenario for both stores.
struct ScenarioResult: Codable, Sendable {
    /// A short key (`append-1`, `append-100`, `append-1000`, `writers-8`, `read-all`).
    var key: String
    /// What was measured, for the table.
    var title: String
    /// Events per commit (appends) or page size (reads).
    var eventsPerCommit: Int
    /// Our file store.
    var ours: Measurement
    /// The SQLite peer.
    var sqlite: Measurement
    /// The consistency check's verdict: `ok (...)`, `FAILED: ...` or `not checked: ...`.
    var consistency: String
}
