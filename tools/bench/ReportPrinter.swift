/// Renders a ``BenchReport`` as markdown.
enum ReportPrinter {
    /// The whole report.
    static func markdown(_ r: BenchReport) -> String {
        var out: [String] = []
        let m = r.machine
        out.append("## Pawtrail benchmark: FileEventStore vs SQLite event table")
        out.append("")
        out.append("- command: `\(r.command)`")
        out.append("- machine: \(m.cpus) CPUs (\(m.cpuModel)), \(m.kernel); scratch `\(m.scratch)` on \(m.filesystem)")
        out.append("- SQLite \(m.sqliteVersion) (WAL, synchronous=FULL); \(m.build) build")
        out.append("- seed \(r.seed), stream skew \(r.skew)\(r.skew == 0 ? " (uniform)" : ""), scale \(r.scale), \(r.runs == 1 ? "1 run" : "median of \(r.runs) runs (min..max)"); started \(r.startedAt); took \(Int(r.totalSeconds.rounded())) s; "
                + "load average \(r.loadAverageStart) at start, \(r.loadAverageEnd) at end")
        out.append("")
        out.append("| scenario | ours events/s | SQLite events/s | ratio | target | met? |")
        out.append("|---|---|---|---|---|---|")
        for row in r.table {
            let met = row.met.map { $0 ? "yes" : "**no**" } ?? "—"
            out.append("| \(row.scenario) | \(row.ours) | \(row.sqlite) | \(Format.ratio(row.ratio)) | \(row.target) | \(met) |")
        }
        out.append("")
        out.append("Commit latency (each append's wall time):")
        out.append("")
        out.append("| scenario | store | p50 | p99 | max |")
        out.append("|---|---|---|---|---|")
        for s in r.scenarios where s.ours.latency != nil || s.sqlite.latency != nil {
            for (store, m) in [("ours", s.ours), ("SQLite", s.sqlite)] {
                let l = m.latency
                out.append("| \(s.title) | \(store) | \(Format.micros(l?.p50Micros)) | \(Format.micros(l?.p99Micros)) | \(Format.micros(l?.maxMicros)) |")
            }
        }
        for s in r.scenarios where s.ours.openSeconds != nil || s.sqlite.openSeconds != nil {
            func ms(_ x: Double?) -> String { x.map { Format.grouped($0 * 1000) + " ms" } ?? "n/a" }
            out.append("")
            out.append(
                "Opening the store before \(s.title) (not timed in it): ours \(ms(s.ours.openSeconds)), "
                    + "SQLite \(ms(s.sqlite.openSeconds)).")
        }
        let cpu = r.scenarios.compactMap { s -> String? in
            func perEvent(_ m: Measurement) -> String {
                guard let c = m.cpuSeconds, m.error == nil, m.events > 0 else { return "n/a" }
                return String(format: "%.1f µs", c / Double(m.events) * 1e6)
            }
            guard s.ours.cpuSeconds != nil || s.sqlite.cpuSeconds != nil else { return nil }
            return "\(s.title): ours \(perEvent(s.ours)), SQLite \(perEvent(s.sqlite))"
        }
        // A paragraph of one item per scenario, when there are any.
        func itemized(_ lead: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            out.append("")
            out.append(lead + items.joined(separator: "; ") + ".")
        }
        itemized(
            "CPU time per event (all of the process's threads over the timed appends; ours also over the close that "
                + "waits for its upkeep): ", cpu)
        let closes = r.scenarios.compactMap { s -> String? in
            guard let close = s.ours.closeSeconds, let rate = s.ours.eventsPerSecond else { return nil }
            let sustained = Double(s.ours.events) / (s.ours.seconds + close)
            return "\(s.title) \(Format.grouped(close * 1000)) ms (\(Format.grouped(rate)) events/s timed, \(Format.grouped(sustained)) counting the wait)"
        }
        itemized(
            "Closing our store after each append scenario (not timed in it) waits for the background upkeep still running, "
                + "segment compaction and dictionary training at low priority: ", closes)
        if let size = r.size {
            out.append("")
            out.append(
                "Sizes after \(Format.grouped(Double(size.events))) events: raw JSON Lines \(Format.megabytes(size.rawJSONBytes)); "
                    + "ours stats().diskBytes \(Format.megabytes(size.oursStatsDiskBytes)), files \(Format.megabytes(size.oursFileBytes)) "
                    + "(allocated \(Format.megabytes(size.oursAllocatedBytes))), of which segments "
                    + "\(Format.megabytes(size.oursSegmentBytes)) and indexes \(Format.megabytes(size.oursIndexBytes)) "
                    + "(\(size.oursSegments.map(String.init) ?? "?") segments, \(size.oursCompactedSegments.map(String.init) ?? "?") compacted, "
                    + "\(size.oursDictionaries.map(String.init) ?? "?") dictionaries), stats().rawBytes \(Format.megabytes(size.oursStatsRawBytes)); "
                    + "SQLite db+wal \(Format.megabytes(size.sqliteBytes)) (allocated \(Format.megabytes(size.sqliteAllocatedBytes)))."
                    + (size.error.map { " Missing figures: \($0)" } ?? ""))
        }
        out.append("")
        out.append("Consistency checks:")
        for s in r.scenarios { out.append("- \(s.title): \(s.consistency)") }
        let failures = r.scenarios.flatMap { s in
            [("ours", s.ours), ("SQLite", s.sqlite)].compactMap { store, m in m.error.map { "- \(s.title), \(store): \($0)" } }
        }
        if !failures.isEmpty {
            out.append("")
            out.append("Errors:")
            out += failures
        }
        out.append("")
        out.append("Notes:")
        for n in r.notes { out.append("- \(n)") }
        return out.joined(separator: "\n") + "\n"
    }
}
