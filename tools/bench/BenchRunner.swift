import BenchSupport
import EventLog
import Foundation

/// Runs every scenario on both stores, checks that they agree, and prints the report.
struct BenchRunner {
    let options: BenchOptions

    /// Full-scale event counts; `--scale` multiplies them. Chosen so the default run takes a few minutes on
    /// 2 cores, dominated by SQLite's batched inserts.
    enum Size {
        static let singleEvent = 3_000
        static let batch100 = 200_000
        static let batch1000 = 500_000
        static let writers8 = 24_000
    }

    /// Concurrent writers in scenario 4.
    static let writerCount = 8

    /// Whether `--only` (if given) names a scenario.
    private func selected(_ key: String) -> Bool { options.only?.contains(key) ?? true }

    private func scaled(_ n: Int, minimum: Int) -> Int { max(minimum, Int((Double(n) * options.scale).rounded())) }

    /// Runs the benchmark.
    ///
    /// - Returns: The process exit status: 0 when both stores ran every scenario and agree, 1 otherwise.
    func run() async -> Int32 {
        let started = Stopwatch.now()
        let startedAt = Timestamp.now().iso8601
        let loadAtStart = MachineInfo.loadAverage()
        let root = options.directory
        do {
            try Scratch.makeDirectory(root)
        } catch {
            Console.progress("pawtrail-bench: cannot create \(root): \(error)")
            return 1
        }
        let machine = MachineInfo.collect(scratch: root)
        if machine.filesystem.hasPrefix("tmpfs") || machine.filesystem.hasPrefix("ramfs") {
            Console.progress("warning: \(root) is on \(machine.filesystem): flushes cost nothing there, durable figures are meaningless")
        }
        Console.progress("pawtrail-bench: seed \(options.seed), skew \(options.skew), scale \(options.scale), scratch \(machine.scratch) on \(machine.filesystem)")

        var scenarios: [ScenarioResult] = []
        if selected("append-1") {
            scenarios.append(await appendScenario(key: "append-1", title: "1 event/commit (durable)", perCommit: 1,
                events: scaled(Size.singleEvent, minimum: 100)))
        }
        if selected("append-100") {
            scenarios.append(await appendScenario(key: "append-100", title: "100 events/commit", perCommit: 100,
                events: scaled(Size.batch100, minimum: 1_000)))
        }
        // Read-all and the sizes measure the stores the 1000-per-commit scenario writes.
        let needsBig = selected("append-1000") || selected("read-all") || selected("size")
        var big: ScenarioResult?
        if needsBig {
            big = await appendScenario(key: "append-1000", title: "1000 events/commit", perCommit: 1000,
                events: scaled(Size.batch1000, minimum: 2_000))
            scenarios.append(big!)
        }
        if selected("writers-8") {
            scenarios.append(await writersScenario(events: scaled(Size.writers8, minimum: 800)))
        }
        let bigOurs = root + "/append-1000-ours"
        let bigSQLite = root + "/append-1000.sqlite"
        var size: SizeResult?
        if let big {
            if selected("read-all") {
                scenarios.append(await readScenario(oursPath: bigOurs, sqlitePath: bigSQLite, oursWrote: big.ours.error == nil))
            }
            if selected("size") {
                size = sizes(oursPath: bigOurs, sqlitePath: bigSQLite, events: big.sqlite.events, oursWrote: big.ours.error == nil)
            }
        }

        let ok = scenarios.allSatisfy { $0.ours.error == nil && $0.sqlite.error == nil && $0.consistency.hasPrefix("ok") }
        let report = BenchReport(
            command: ProcessInfo.processInfo.environment["PAWTRAIL_BENCH_COMMAND"]
                ?? CommandLine.arguments.joined(separator: " "),
            machine: machine, seed: options.seed, skew: options.skew, scale: options.scale, runs: options.runs, startedAt: startedAt,
            loadAverageStart: loadAtStart, loadAverageEnd: MachineInfo.loadAverage(), totalSeconds: Stopwatch.now() - started, scenarios: scenarios, size: size,
            table: Self.table(scenarios, size), notes: notes(), ok: ok)
        let markdown = ReportPrinter.markdown(report)
        if options.json {
            Console.progress(markdown)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            do {
                Console.write(Array(try encoder.encode(report)) + [10])
            } catch {
                Console.progress("pawtrail-bench: cannot encode the JSON report: \(error)")
                return 1
            }
        } else {
            print(markdown, terminator: "")
        }
        if !options.keep { try? Scratch.remove(root) }
        if !ok { Console.progress("pawtrail-bench: FAILED: a store failed a scenario or the stores disagree (see above)") }
        return ok ? 0 : 1
    }

    /// Scenarios 1-3: serial appends of `perCommit` events per commit, ours then SQLite, on fresh stores.
    private func appendScenario(key: String, title: String, perCommit: Int, events: Int) async -> ScenarioResult {
        var workload = Workload(seed: options.seed, skew: options.skew)
        let commits = workload.commits(events: events, perCommit: perCommit)
        // Requests are built before the clock starts: building them is the application's work, not the store's.
        let requests = commits.map(\.request)
        let oursPath = options.directory + "/\(key)-ours"
        let sqlitePath = options.directory + "/\(key).sqlite"
        Console.progress("[\(key)] \(events) events, \(perCommit)/commit: ours and SQLite...")
        var oursRuns: [Measurement] = []
        var sqliteRuns: [Measurement] = []
        // Each run starts from fresh stores; the stores of the last run are the ones checked (and kept).
        for run in 1...options.runs {
            if options.runs > 1 { Console.progress("[\(key)] run \(run) of \(options.runs)") }
            oursRuns.append(await FileStoreDriver.appendSerial(path: oursPath, requests: requests, events: events))
            sqliteRuns.append(SQLiteDriver.appendSerial(path: sqlitePath, commits: commits, events: events))
        }
        let ours = Measurement.median(oursRuns)
        let sqlite = Measurement.median(sqliteRuns)
        Console.progress("[\(key)]   ours \(Format.rate(ours)) events/s\(ours.error.map { " (\($0))" } ?? "")")
        Console.progress("[\(key)]   SQLite \(Format.rate(sqlite)) events/s\(sqlite.error.map { " (\($0))" } ?? "")")
        let consistency = await check(
            oursPath: ours.error == nil ? oursPath : nil, sqlitePath: sqlitePath, sqliteOK: sqlite.error == nil,
            commits: [commits], comparePositions: true)
        if !options.keep && key != "append-1000" {
            try? Scratch.remove(oursPath)
            try? Scratch.removeDatabase(sqlitePath)
        }
        return ScenarioResult(key: key, title: title, eventsPerCommit: perCommit, ours: ours, sqlite: sqlite, consistency: consistency)
    }

    /// Scenario 4: eight writers appending single events concurrently, each to its own streams (stream index
    /// modulo 8), with exact expected versions. Ours: tasks on one store; SQLite: threads with a connection each.
    private func writersScenario(events: Int) async -> ScenarioResult {
        var workload = Workload(seed: options.seed, skew: options.skew)
        let commits = workload.commits(events: events, perCommit: 1)
        var writers = [[WorkloadCommit]](repeating: [], count: Self.writerCount)
        for c in commits { writers[c.events[0].streamIndex % Self.writerCount].append(c) }
        let requests = writers.map { $0.map(\.request) }
        let oursPath = options.directory + "/writers-8-ours"
        let sqlitePath = options.directory + "/writers-8.sqlite"
        Console.progress("[writers-8] \(events) events, \(Self.writerCount) concurrent writers, 1/append: ours...")
        var oursRuns: [Measurement] = []
        for _ in 1...options.runs {
            oursRuns.append(await FileStoreDriver.appendConcurrent(path: oursPath, writers: requests, events: events))
        }
        let ours = Measurement.median(oursRuns)
        Console.progress("[writers-8]   ours \(Format.rate(ours)) events/s\(ours.error.map { " (\($0))" } ?? "")")
        var sqlite = Measurement(error: SkippedError())
        if options.sqliteThreads {
            Console.progress("[writers-8]   SQLite, \(Self.writerCount) threads...")
            var sqliteRuns: [Measurement] = []
            for _ in 1...options.runs {
                sqliteRuns.append(SQLiteDriver.appendThreads(path: sqlitePath, writers: writers, events: events))
            }
            sqlite = Measurement.median(sqliteRuns)
            Console.progress("[writers-8]   SQLite \(Format.rate(sqlite)) events/s\(sqlite.error.map { " (\($0))" } ?? "")")
        } else {
            // The check needs a peer holding the same events: write them serially, untimed.
            _ = SQLiteDriver.appendSerial(path: sqlitePath, commits: commits, events: events)
        }
        let consistency = await check(
            oursPath: ours.error == nil ? oursPath : nil, sqlitePath: sqlitePath,
            sqliteOK: !options.sqliteThreads || sqlite.error == nil, commits: writers,
            comparePositions: false)
        if !options.keep {
            try? Scratch.remove(oursPath)
            try? Scratch.removeDatabase(sqlitePath)
        }
        return ScenarioResult(
            key: "writers-8", title: "8 writers, 1 event/append", eventsPerCommit: 1, ours: ours, sqlite: sqlite,
            consistency: consistency)
    }

    /// Scenario 5: read-all over the 1000-per-commit stores, twice each; the second (warm) run is reported.
    private func readScenario(oursPath: String, sqlitePath: String, oursWrote: Bool) async -> ScenarioResult {
        Console.progress("[read-all] ours, twice...")
        var ours = Measurement(error: SkippedError(reason: "our store failed the 1000-per-commit scenario"))
        if oursWrote {
            _ = await FileStoreDriver.readAll(path: oursPath)
            var runs: [Measurement] = []
            for _ in 1...options.runs { runs.append(await FileStoreDriver.readAll(path: oursPath)) }
            ours = Measurement.median(runs)
        }
        Console.progress("[read-all]   ours \(Format.rate(ours)) events/s; SQLite, twice...")
        _ = SQLiteDriver.readAll(path: sqlitePath)
        var sqliteRuns: [Measurement] = []
        for _ in 1...options.runs { sqliteRuns.append(SQLiteDriver.readAll(path: sqlitePath)) }
        let sqlite = Measurement.median(sqliteRuns)
        Console.progress("[read-all]   SQLite \(Format.rate(sqlite)) events/s")
        var consistency = "ok (both read \(sqlite.events) events)"
        if ours.error != nil || sqlite.error != nil {
            consistency = "not checked: a read failed"
        } else if ours.events != sqlite.events {
            consistency = "FAILED: our read-all returned \(ours.events) events, SQLite's \(sqlite.events)"
        }
        return ScenarioResult(
            key: "read-all", title: "read-all (2nd run, warm cache)", eventsPerCommit: 4096, ours: ours, sqlite: sqlite,
            consistency: consistency)
    }

    /// Scenario 6: on-disk sizes of the 1000-per-commit stores and of the raw JSON of the same events.
    private func sizes(oursPath: String, sqlitePath: String, events: Int, oursWrote: Bool) -> SizeResult {
        var workload = Workload(seed: options.seed, skew: options.skew)
        let raw = JSONLinesEncoder.size(of: workload.commits(events: events, perCommit: 1000))
        var result = SizeResult(events: events, rawJSONBytes: raw)
        var errors: [String] = []
        if oursWrote {
            let usage = DiskUsage.of([oursPath])
            result.oursFileBytes = usage.apparentBytes
            result.oursAllocatedBytes = usage.allocatedBytes
            do {
                let stats = try FileStoreDriver.stats(path: oursPath)
                result.oursStatsDiskBytes = stats.diskBytes
                result.oursStatsRawBytes = stats.rawBytes
                result.oursSegmentBytes = stats.segmentBytes
                result.oursIndexBytes = stats.indexBytes
                result.oursSegments = stats.segments
                result.oursCompactedSegments = stats.compactedSegments
                result.oursDictionaries = stats.dictionaries
            } catch {
                errors.append("ours stats(): \(error)")
            }
        } else {
            errors.append("our store failed the 1000-per-commit scenario")
        }
        do {
            let usage = try SQLiteDriver.size(path: sqlitePath)
            result.sqliteBytes = usage.apparentBytes
            result.sqliteAllocatedBytes = usage.allocatedBytes
        } catch {
            errors.append("SQLite checkpoint: \(error)")
        }
        result.error = errors.isEmpty ? nil : errors.joined(separator: "; ")
        return result
    }

    private func check(oursPath: String?, sqlitePath: String, sqliteOK: Bool, commits: [[WorkloadCommit]], comparePositions: Bool)
        async -> String
    {
        guard sqliteOK else { return "not checked: the SQLite peer failed" }
        do {
            let verdict = try await ConsistencyCheck.run(
                oursPath: oursPath, sqlitePath: sqlitePath, commits: commits, comparePositions: comparePositions)
            return verdict
        } catch {
            Console.progress("CONSISTENCY FAILURE: \(error)")
            return "FAILED: \(error)"
        }
    }

    /// The result table: each target as stated in the benchmark brief.
    static func table(_ s: [ScenarioResult], _ size: SizeResult?) -> [TargetRow] {
        func rate(_ key: String) -> ScenarioResult? { s.first { $0.key == key } }
        func ratio(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b, b > 0 else { return nil }
            return a / b
        }
        var rows: [TargetRow] = []
        if let r = rate("append-1") {
            rows.append(TargetRow(scenario: "1. durable appends, 1 event/commit", ours: Format.rate(r.ours),
                sqlite: Format.rate(r.sqlite), ratio: ratio(r.ours.eventsPerSecond, r.sqlite.eventsPerSecond), target: "—", met: nil))
        }
        for (key, label) in [("append-100", "2. 100 events/commit"), ("append-1000", "3. 1000 events/commit")] {
            guard let r = rate(key) else { continue }
            let x = ratio(r.ours.eventsPerSecond, r.sqlite.eventsPerSecond)
            rows.append(TargetRow(scenario: label, ours: Format.rate(r.ours), sqlite: Format.rate(r.sqlite), ratio: x,
                target: "≥ 20x", met: TargetRow.check(x, atLeast: 20)))
        }
        if let w = rate("writers-8") {
            let baseline = rate("append-1")?.sqlite
            let x = ratio(w.ours.eventsPerSecond, baseline?.eventsPerSecond)
            rows.append(TargetRow(scenario: "4. 8 writers, 1 event/append, group commit (vs SQLite 1 event/commit)",
                ours: Format.rate(w.ours), sqlite: baseline.map(Format.rate) ?? "n/a", ratio: x, target: "≥ 5x",
                met: TargetRow.check(x, atLeast: 5)))
            if w.sqlite.error == nil {
                rows.append(TargetRow(scenario: "4b. same, vs SQLite 8 threads (info)", ours: Format.rate(w.ours),
                    sqlite: Format.rate(w.sqlite), ratio: ratio(w.ours.eventsPerSecond, w.sqlite.eventsPerSecond),
                    target: "—", met: nil))
            }
        }
        if let r = rate("read-all") {
            let x = ratio(r.ours.eventsPerSecond, r.sqlite.eventsPerSecond)
            rows.append(TargetRow(scenario: "5. read-all (2nd run, warm)", ours: Format.rate(r.ours),
                sqlite: Format.rate(r.sqlite), ratio: x, target: "≥ 2x", met: TargetRow.check(x, atLeast: 2)))
        }
        if let size {
            let ours = size.oursStatsDiskBytes.map { Double($0) }
            let x = ratio(size.sqliteBytes.map { Double($0) }, ours)
            rows.append(TargetRow(scenario: "6a. on-disk bytes vs SQLite (size ratio SQLite/ours)",
                ours: Format.megabytes(size.oursStatsDiskBytes), sqlite: Format.megabytes(size.sqliteBytes), ratio: x,
                target: "≥ 6x smaller", met: TargetRow.check(x, atLeast: 6)))
            let y = ratio(Double(size.rawJSONBytes), ours)
            rows.append(TargetRow(scenario: "6b. on-disk bytes vs raw JSON Lines (raw/ours)",
                ours: Format.megabytes(size.oursStatsDiskBytes), sqlite: "raw JSON " + Format.megabytes(size.rawJSONBytes),
                ratio: y, target: "≥ 4x smaller", met: TargetRow.check(y, atLeast: 4)))
        }
        return rows
    }

    private func notes() -> [String] {
        [
            "Each append scenario runs on a fresh store directory and a fresh SQLite database; the workload is generated "
                + "(seeded) before the clock starts, and the AppendRequests built in advance.",
            "Ours: FileEventStoreOptions() defaults (durability .sync: an append returns after the fdatasync of its group "
                + "commit), createIfMissing. Every commit carries exact expected versions (or no-stream) for its streams.",
            "SQLite peer: one connection, WAL + synchronous=FULL, BEGIN IMMEDIATE per commit, a prepared SELECT max(version) "
                + "per written stream to check the expected version, one prepared INSERT per event. Metadata is stored as a "
                + "length-prefixed blob (not JSON text) and event ids as 16-byte blobs, so its reads decode without a JSON "
                + "parser. It has no event-id index and so no idempotency check, which favours it.",
            "Scenario 4: ours = \(Self.writerCount) Tasks awaiting store.append concurrently (each writer owns the streams whose "
                + "index ≡ writer mod \(Self.writerCount)); the target is stated against SQLite's 1-event/commit rate (row 1). Row 4b, "
                + "if present, is SQLite with \(Self.writerCount) threads, a connection each, busy_timeout 60 s.",
            "Read-all: ours = forEachPage(.all, pageSize: 4096) on a freshly opened store; SQLite = SELECT ... ORDER BY position "
                + "on a fresh connection; both materialize RecordedEvent values and touch every event's data. Each runs twice "
                + "and the second run (OS page cache warm) is reported (with --runs N: the median of runs 2...N+1).",
            "Sizes: ours = stats().diskBytes (files listed above for comparison); SQLite = db + wal after "
                + "PRAGMA wal_checkpoint(TRUNCATE); raw = the events as JSON Lines in the CLI batch shape (`pawtrail-bench generate`).",
        ]
    }
}
