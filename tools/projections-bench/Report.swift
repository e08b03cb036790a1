import BenchSupport
import Foundation
import Projections

/// Everything the run measured, as `--json` prints it.
struct BenchReport: Codable {
    struct Side: Codable {
        var label: String
        var runs: Int
        /// Median, min and max events per second over the runs (the log's events over the rebuild's wall time).
        var eventsPerSecond: Double
        var minEventsPerSecond: Double
        var maxEventsPerSecond: Double
        var medianSeconds: Double
        /// The largest peak memory of its runs (VmHWM of the side's process).
        var peakMemoryBytes: UInt64
        /// The largest ru_maxrss of its runs.
        var maxRSSBytes: UInt64
        /// Resident at the end of the first run: heap and mapped files.
        var residentAnonymousBytes: UInt64
        var residentFileBytes: UInt64
        var eventsRead: Int
        var eventsDecoded: Int
        var applications: Int
    }

    var command: String
    var startedAt: String
    var seconds: Double
    var loadAverageStart: String
    var loadAverageEnd: String
    var machine: MachineInfo
    var seed: UInt64
    var events: Int
    var workload: WorkloadManifest
    var workloadGeneratedThisRun: Bool
    var types: String
    var projections: [String]
    var decodedTypes: Int
    var catalogTypes: Int
    var ours: Side
    var peer: Side
    /// ours / peer, on the medians.
    var ratio: Double
    var targetEventsPerSecond: Double
    var targetRatio: Double
    var rateMet: Bool
    var ratioMet: Bool
    var stateCheck: StateCheck
    var notes: [String]

    static func make(
        options: Options, manifest: WorkloadManifest, generated: Bool, ours: [SideResult], peer: [SideResult], check: StateCheck,
        startedAt: Date, loadStart: String, loadEnd: String
    ) -> BenchReport {
        func side(_ results: [SideResult]) -> Side {
            let rates = results.map { Double(manifest.events) / $0.seconds }.sorted()
            let seconds = results.map(\.seconds).sorted()
            return Side(
                label: results[0].label, runs: results.count, eventsPerSecond: rates[rates.count / 2], minEventsPerSecond: rates.first!,
                maxEventsPerSecond: rates.last!, medianSeconds: seconds[seconds.count / 2],
                peakMemoryBytes: results.map(\.peakMemoryBytes).max()!, maxRSSBytes: results.map(\.maxRSSBytes).max()!,
                residentAnonymousBytes: results[0].residentAnonymousBytes, residentFileBytes: results[0].residentFileBytes, eventsRead: results[0].eventsRead,
                eventsDecoded: results[0].eventsDecoded, applications: results[0].applications)
        }
        let o = side(ours)
        let p = side(peer)
        let ratio = o.eventsPerSecond / p.eventsPerSecond
        let set = FoldSet(options.types)
        let formatter = ISO8601DateFormatter()
        return BenchReport(
            command: ProcessInfo.processInfo.environment["PAWTRAIL_BENCH_COMMAND"] ?? CommandLine.arguments.joined(separator: " "),
            startedAt: formatter.string(from: startedAt), seconds: Date().timeIntervalSince(startedAt), loadAverageStart: loadStart,
            loadAverageEnd: loadEnd, machine: MachineInfo.collect(), seed: options.seed, events: manifest.events, workload: manifest,
            workloadGeneratedThisRun: generated, types: options.types.rawValue, projections: ProjectionCatalog.projections.map { $0.name },
            decodedTypes: set.routes.count, catalogTypes: EventCatalogCount.value, ours: o, peer: p, ratio: ratio,
            targetEventsPerSecond: 500_000, targetRatio: 10, rateMet: o.eventsPerSecond >= 500_000, ratioMet: ratio >= 10,
            stateCheck: check,
            notes: [
                "Each rebuild runs in a fresh child process of the benchmark (`--side ours|peer`), timed from opening the storage to the last projection's state in memory (ours: to the last checkpoint written, on every core the engine uses); getting the states out and writing them for the check is not timed. Ours decodes an event once per thread whose projections read its type, so its decoded count can exceed the events read. Peak memory is that process's VmHWM (/proc/self/status); its getrusage ru_maxrss is shown in brackets: Linux carries ru_maxrss over the exec from the benchmark's own process, so it can only be larger (the benchmark generates workloads in a separate child to stay small).",
                "Both sides read files the generator just wrote, so they come from the page cache: the figures are CPU-bound rebuild rates, not cold-disk reads.",
                "Events/s is the whole log's events over the rebuild's time, on both sides, even when the storage skips types no projection reads (our store before materializing them; the peer in SQL with `type IN (...)`).",
                "The ratio grows with the share of events some projection reads: a skipped event costs both sides a scan (our decompression and frame parsing, SQLite's row walk over JSON text), a decoded one costs the peer 10-20x what it costs us. With few projections registered the ratio is mostly the two scans; `--types all` decodes every event on both sides, which is where a full catalog of projections is heading. Whatever `apply` costs, both sides pay it alike, so slow folds lower the ratio as well as the rate.",
                "The peer decodes metadata and data with JSONDecoder: the data through a Decodable wrapper whose init(from:) runs each event's own init(reading:) over a FieldReader on JSONDecoder's keyed container, so both sides build the same values and fold them with the same apply functions.",
                "The workload's events are written directly as domain values with the handler's metadata (not through the command handler); the generator keeps them consistent with the domain's rules.",
            ])
    }
}

/// The number of event types of the domain catalog.
enum EventCatalogCount {
    static var value: Int { FoldSet(.all).routes.count }
}

/// The report as markdown.
enum ReportPrinter {
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 && c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    static func megabytes(_ bytes: UInt64) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

    static func rate(_ s: BenchReport.Side) -> String {
        s.runs == 1 ? grouped(s.eventsPerSecond) : "\(grouped(s.eventsPerSecond)) (\(grouped(s.minEventsPerSecond))..\(grouped(s.maxEventsPerSecond)))"
    }

    static func markdown(_ r: BenchReport) -> String {
        var out: [String] = []
        let m = r.machine
        let w = r.workload
        out.append("## Pawtrail projections benchmark: rebuild every projection, ours vs a JSON-in-SQLite peer")
        out.append("")
        out.append("- command: `\(r.command)`")
        out.append("- machine: \(m.cpus) CPUs (\(m.cpuModel)), \(m.memory) memory, \(m.kernel); SQLite \(m.sqliteVersion); \(m.build) build")
        out.append("- started \(r.startedAt); took \(Int(r.seconds.rounded())) s; load average \(r.loadAverageStart) at start, \(r.loadAverageEnd) at end")
        out.append(
            "- workload (seed \(r.seed)): \(grouped(Double(w.events))) events from \(grouped(Double(w.commands))) commands over \(w.daysSimulated) simulated days: "
                + "\(grouped(Double(w.customers))) customers, \(grouped(Double(w.pets))) pets, \(grouped(Double(w.bookings))) bookings, "
                + "\(grouped(Double(w.orders))) orders, \(w.products) products, \(grouped(Double(w.conversations))) conversations; "
                + "store \(megabytes(w.storeBytes)), SQLite \(megabytes(w.sqliteBytes))"
                + (r.workloadGeneratedThisRun
                    ? String(format: " (generated in %.0f s, copied to SQLite in %.0f s, every event checked against the domain's rules and every 16th against the peer's reading in %.0f s)", w.generateSeconds, w.exportSeconds, w.verifySeconds)
                    : String(format: " (reused; when generated, every event was checked against the domain's rules)")))
        out.append(
            "- projections (\(r.projections.count)): \(r.projections.joined(separator: ", ")); decoding \(r.decodedTypes) of \(r.catalogTypes) event types (`--types \(r.types)`)")
        out.append("")
        out.append("| measure | ours | peer | ratio | target | met? |")
        out.append("|---|---|---|---|---|---|")
        let met = r.rateMet && r.ratioMet ? "yes" : "**no**"
        out.append(
            "| rebuild, events/s (\(r.ours.runs == 1 ? "1 run" : "median of \(r.ours.runs)") / \(r.peer.runs == 1 ? "1 run" : "median of \(r.peer.runs)")) | \(rate(r.ours)) | \(rate(r.peer)) | "
                + String(format: "%.1fx", r.ratio) + " | ≥ 500,000/s and ≥ 10x | \(met) |")
        out.append(String(format: "| rebuild time | %.2f s | %.2f s | | | |", r.ours.medianSeconds, r.peer.medianSeconds))
        out.append("| peak memory, VmHWM (ru_maxrss) | \(megabytes(r.ours.peakMemoryBytes)) (\(megabytes(r.ours.maxRSSBytes))) | \(megabytes(r.peer.peakMemoryBytes)) (\(megabytes(r.peer.maxRSSBytes))) | | | |")
        out.append("| resident at the end: heap / mapped files | \(megabytes(r.ours.residentAnonymousBytes)) / \(megabytes(r.ours.residentFileBytes)) | \(megabytes(r.peer.residentAnonymousBytes)) / \(megabytes(r.peer.residentFileBytes)) | | | |")
        out.append("| events read / decoded | \(grouped(Double(r.ours.eventsRead))) / \(grouped(Double(r.ours.eventsDecoded))) | \(grouped(Double(r.peer.eventsRead))) / \(grouped(Double(r.peer.eventsDecoded))) | | | |")
        out.append("| apply calls | \(grouped(Double(r.ours.applications))) | \(grouped(Double(r.peer.applications))) | | | |")
        out.append("")
        out.append("- ours: \(r.ours.label); peer: \(r.peer.label)")
        out.append("")
        out.append("State check (every projection's encoded state, byte for byte, across every run of both sides):")
        out.append("")
        out.append("| projection | state bytes | FNV-1a 64 | equal? |")
        out.append("|---|---|---|---|")
        for row in r.stateCheck.rows {
            out.append("| \(row.projection) | \(grouped(Double(row.bytes))) | `\(row.digest)` | \(row.equal ? "yes" : "**NO**") |")
            for d in row.differences { out.append("|  | \(d) | | |") }
        }
        out.append("")
        out.append("Events by type: " + w.types.sorted { $0.value > $1.value }.map { "\($0.key) \(grouped(Double($0.value)))" }.joined(separator: ", ") + ".")
        out.append("")
        out.append("Notes:")
        for n in r.notes { out.append("- \(n)") }
        return out.joined(separator: "\n") + "\n"
    }
}
