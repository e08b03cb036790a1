import BenchSupport
import Foundation

/// What one side's process reports to the parent (one JSON line on stdout).
struct SideResult: Codable {
    struct State: Codable {
        var name: String
        var bytes: Int
        /// FNV-1a 64 of the encoded state, for the report.
        var digest: String
        /// The encoded state's file.
        var file: String
    }

    var side: String
    var label: String
    var seconds: Double
    var eventsRead: Int
    var eventsDecoded: Int
    var applications: Int
    /// `getrusage(RUSAGE_SELF).ru_maxrss` at the end, in bytes. Linux carries it over an `execve`, so it is at
    /// least the parent's peak when the child was spawned (the parent keeps small for that reason).
    var maxRSSBytes: UInt64
    /// `VmHWM` of /proc/self/status: the peak resident memory of this process image alone.
    var peakMemoryBytes: UInt64
    /// Resident memory at the end, anonymous (heap) and file-backed (mapped files), from /proc/self/status.
    var residentAnonymousBytes: UInt64
    var residentFileBytes: UInt64
    var states: [State]
}

/// Runs one side in this process: rebuild, measure, write each projection's encoded state to a file.
enum SideRunner {
    static func run(_ side: String, _ options: Options) async throws -> SideResult {
        guard let statesDir = options.states else { throw UsageError("--side needs --states DIR") }
        let start = ContinuousClock.now
        let outcome: RebuildOutcome
        let label: String
        if side == "ours" {
            guard let store = options.store else { throw UsageError("--side ours needs --store DIR") }
            guard let ours = oursRebuilders.first(where: { $0.name == options.ours })?.rebuilder else {
                throw UsageError("--ours takes \(oursRebuilders.map(\.name).joined(separator: " or ")), not '\(options.ours)'")
            }
            outcome = try await ours.rebuild(storePath: store, types: options.types)
            label = ours.label
        } else {
            guard let sqlite = options.sqlite else { throw UsageError("--side peer needs --sqlite FILE") }
            outcome = try PeerFold().rebuild(sqlitePath: sqlite, types: options.types)
            label = "SQLite rows + JSONDecoder"
        }
        let seconds = outcome.seconds ?? (ContinuousClock.now - start) / .seconds(1)
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        try FileManager.default.createDirectory(atPath: statesDir, withIntermediateDirectories: true)
        var states: [SideResult.State] = []
        for (name, bytes) in outcome.states {
            let file = statesDir + "/" + name + ".state"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            states.append(SideResult.State(name: name, bytes: bytes.count, digest: fnv1a(bytes), file: file))
        }
        return SideResult(
            side: side, label: label, seconds: seconds, eventsRead: outcome.eventsRead, eventsDecoded: outcome.eventsDecoded,
            applications: outcome.applications, maxRSSBytes: UInt64(usage.ru_maxrss) * 1024, peakMemoryBytes: status("VmHWM:"),
            residentAnonymousBytes: status("RssAnon:"), residentFileBytes: status("RssFile:"),
            states: states)
    }

    /// A memory figure of /proc/self/status (`VmHWM:`), in bytes (0 when unreadable).
    static func status(_ field: String) -> UInt64 {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        return (UInt64(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// FNV-1a 64 as 16 hex digits.
    static func fnv1a(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01B3
        }
        return hex16(h)
    }
}
