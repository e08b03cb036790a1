/// Everything one run measured: what `--json` prints and the markdown is made from.
struct BenchReport: Codable, Sendable {
    /// The command line as typed (from `tools/bench.sh`, or the binary's own arguments).
    var command: String
    /// Where it ran.
    var machine: MachineInfo
    /// Workload seed.
    var seed: UInt64
    /// Zipf exponent of stream popularity inside a category (0: uniform).
    var skew: Double
    /// Event-count multiplier.
    var scale: Double
    /// Runs per scenario (the median is reported).
    var runs: Int
    /// When the run started (UTC, ISO-8601).
    var startedAt: String
    /// Load averages when the run started and ended.
    var loadAverageStart: String
    var loadAverageEnd: String
    /// Wall-clock seconds of the whole run.
    var totalSeconds: Double
    /// The scenarios, in run order.
    var scenarios: [ScenarioResult]
    /// Sizes after the 1000-per-commit scenario.
    var size: SizeResult?
    /// The result table.
    var table: [TargetRow]
    /// How to read the figures.
    var notes: [String]
    /// Whether every consistency check passed and our store ran every scenario.
    var ok: Bool
}
