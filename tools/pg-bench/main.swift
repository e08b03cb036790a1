// pawtrail-pg-bench: the PostgreSQL store against a plain identity-keyed event table (the gappy baseline most
// stores on PostgreSQL use) in one run, on one server, through the library. See tools/pg-bench.sh. `--only CASE` runs
// one row (0 to 5, in table order); `--baseline-first` runs the baseline before ours, to see what the order costs.
import EventLog
import EventLogPostgres
import Foundation

struct Row {
    var name: String
    var ours: Result
    var baseline: Result
}

struct Result {
    var events: Int
    var seconds: Double
    var latencies: [Double]

    var eventsPerSecond: Double { Double(events) / seconds }
    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }

    func percentile(_ q: Double) -> Double {
        let s = latencies.sorted()
        return s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count - 1) * q + 0.5))] * 1000
    }
}

func events(_ n: Int, _ k: Int) -> [ProposedEvent] {
    (0..<n).map { i in
        ProposedEvent(
            id: UUID(), type: "PetWeightLogged",
            data: Array(#"{"petId":"pet-\#(k)","weightGrams":\#(4000 + i),"measuredAt":"2026-06-01T00:00:03Z","by":"clinic-\#(k % 50)"}"#.utf8),
            metadata: ["actor": "user-\(k % 300)"])
    }
}

/// `appends` appends of `size` events each, from `writers` tasks at once, each with its own connection, or all on
/// one store (one connection: its group commit takes the appends waiting into one transaction).
func ours(url: String, schema: String, size: Int, appends: Int, writers: Int, shared: Bool) async throws -> Result {
    let one = try PostgresEventStore.open(url: url, options: .init(schema: schema, createIfMissing: true))
    let stores = try (0..<writers).map { _ in shared ? one : try PostgresEventStore.open(url: url, options: .init(schema: schema)) }
    let start = ContinuousClock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for (w, store) in stores.enumerated() {
            group.addTask {
                var out: [Double] = []
                for a in 0..<(appends / writers) {
                    let batch = events(size, w * 1_000_000 + a)
                    let t = ContinuousClock.now
                    _ = try await store.append(AppendRequest(stream: StreamID(unchecked: "pet-\(w)-\(a % 500)"), events: batch))
                    out.append((ContinuousClock.now - t).seconds)
                }
                return out
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    return Result(events: latencies.count * size, seconds: (ContinuousClock.now - start).seconds, latencies: latencies)
}

/// The same appends into an identity-keyed table with UNIQUE (stream, version), one transaction each: versions
/// come from the client (as an optimistic store would), positions from a sequence.
func baseline(url: String, size: Int, appends: Int, writers: Int) async throws -> Result {
    let sessions = (0..<writers).map { _ in PostgresSession(url: url, schema: "bench_gappy", label: "gappy") }
    try sessions[0].runBlocking { c in
        try c.execute(
            """
            DROP SCHEMA IF EXISTS bench_gappy CASCADE; CREATE SCHEMA bench_gappy;
            CREATE TABLE bench_gappy.events (position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream_id text NOT NULL,
              version bigint NOT NULL, event_id uuid NOT NULL UNIQUE, type text NOT NULL, metadata bytea NOT NULL, data bytea NOT NULL,
              recorded_at timestamptz NOT NULL DEFAULT now(), UNIQUE (stream_id, version));
            """)
    }
    let start = ContinuousClock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for (w, session) in sessions.enumerated() {
            group.addTask {
                var out: [Double] = []
                var versions: [Int: Int64] = [:]
                for a in 0..<(appends / writers) {
                    let batch = events(size, w * 1_000_000 + a)
                    let v0 = versions[a % 500, default: 0]
                    versions[a % 500] = v0 + Int64(size)
                    let stream = "pet-\(w)-\(a % 500)"
                    let t = ContinuousClock.now
                    _ = try await session.run { c in
                        try c.query(
                            "INSERT INTO events (stream_id, version, event_id, type, metadata, data) SELECT $1, $2 + o - 1, i, t, m, d FROM unnest($3::uuid[], $4::text[], $5::bytea[], $6::bytea[]) WITH ORDINALITY AS x(i, t, m, d, o)",
                            [.text(stream), .int8(v0), .uuidArray(batch.map(\.id)), .textArray(batch.map(\.type)), .byteaArray(batch.map(\.metadata.encoded)), .byteaArray(batch.map(\.data))])
                    }
                    out.append((ContinuousClock.now - t).seconds)
                }
                return out
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }
    }
    return Result(events: latencies.count * size, seconds: (ContinuousClock.now - start).seconds, latencies: latencies)
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: pawtrail-pg-bench URL [--scale X] [--ours-only] [--only CASE] [--baseline-first]\n".utf8))
    exit(64)
}
let url = arguments[1]
let scale = arguments.firstIndex(of: "--scale").flatMap { Double(arguments[$0 + 1]) } ?? 1
// Only the store's own appends (1 event, 1,000 events, the group commit): for comparing server settings, such as
// synchronous replication (tools/replication-bench.sh).
let oursOnly = arguments.contains("--ours-only")
let cases: [(name: String, size: Int, appends: Int, writers: Int, shared: Bool)] = [
    ("1 event an append", 1, Int(2000 * scale), 1, false),
    ("10 events an append", 10, Int(1000 * scale), 1, false),
    ("100 events an append", 100, Int(300 * scale), 1, false),
    ("1,000 events an append", 1000, Int(60 * scale), 1, false),
    ("1 event an append, 8 writers (connections)", 1, Int(2400 * scale), 8, false),
    ("1 event an append, 8 tasks on one store (group commit)", 1, Int(4000 * scale), 8, true),
]
if oursOnly {
    print("| appends | events/s | p50 / p99 ms |")
    print("|---|---|---|")
    for (n, c) in cases.enumerated() where [0, 3, 5].contains(n) {
        let schema = "bench_ours_\(n)"
        try PostgresSession(url: url, schema: "public", label: "drop").runBlocking { s in try s.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
        let o = try await ours(url: url, schema: schema, size: c.size, appends: c.appends, writers: c.writers, shared: c.shared)
        print(String(format: "| %@ | %.0f | %.2f / %.2f |", c.name, o.eventsPerSecond, o.p50, o.p99))
    }
    exit(0)
}
var rows: [Row] = []
let only = arguments.firstIndex(of: "--only").flatMap { Int(arguments[$0 + 1]) }
let baselineFirst = arguments.contains("--baseline-first")
for (n, c) in cases.enumerated() where only == nil || only == n {
    let schema = "bench_ours_\(n)"
    try PostgresSession(url: url, schema: "public", label: "drop").runBlocking { s in try s.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE") }
    var b0: Result?
    if baselineFirst { b0 = try await baseline(url: url, size: c.size, appends: c.appends, writers: c.writers) }
    let o = try await ours(url: url, schema: schema, size: c.size, appends: c.appends, writers: c.writers, shared: c.shared)
    let b: Result
    if let b0 { b = b0 } else { b = try await baseline(url: url, size: c.size, appends: c.appends, writers: c.writers) }
    rows.append(Row(name: c.name, ours: o, baseline: b))
    FileHandle.standardError.write(Data("\(c.name): ours \(Int(o.eventsPerSecond)) events/s, baseline \(Int(b.eventsPerSecond))\n".utf8))
}
print("| appends | ours events/s | ours p50 / p99 ms | gappy baseline events/s | baseline p50 / p99 ms | ours ÷ baseline |")
print("|---|---|---|---|---|---|")
for r in rows {
    print(String(
        format: "| %@ | %.0f | %.2f / %.2f | %.0f | %.2f / %.2f | %.2fx |", r.name, r.ours.eventsPerSecond, r.ours.p50, r.ours.p99,
        r.baseline.eventsPerSecond, r.baseline.p50, r.baseline.p99, r.ours.eventsPerSecond / r.baseline.eventsPerSecond))
}
let single = rows[0].ours.eventsPerSecond
let grouped = rows[rows.count - 1].ours.eventsPerSecond
print(String(format: "\nGroup commit: 8 tasks on one store append %.0f single events a second, %.2fx one writer's one-append-per-transaction rate (%.0f).", grouped, grouped / single, single))
