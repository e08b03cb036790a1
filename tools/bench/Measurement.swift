/// One store's figures in one scenario.
struct Measurement: Codable, Sendable {
    /// Events written or read.
    var events: Int
    /// Wall-clock seconds of the timed part.
    var seconds: Double
    /// Commit latencies (appends only).
    var latency: LatencySummary?
    /// Seconds to open the store before the timed part (reads only; not included in `seconds`).
    var openSeconds: Double?
    /// Seconds `close()` took right after the timed part (ours, appends): the upkeep still running when the
    /// last append returned (segment compaction, dictionary training), which runs at low priority in the
    /// background. Not included in `seconds`; the report gives the rate with it too.
    var closeSeconds: Double?
    /// CPU seconds the whole process used over the timed part (appends), every thread included; for ours also
    /// over the close that waits for upkeep, so background work is counted.
    var cpuSeconds: Double?
    /// Why the store could not run the scenario, if it could not.
    var error: String?
    /// With `--runs N > 1`: every run's events per second, in run order (this measurement is the median run).
    var runRates: [Double]?

    /// Events per second, `nil` when the scenario failed.
    var eventsPerSecond: Double? {
        error == nil && seconds > 0 ? Double(events) / seconds : nil
    }

    /// A successful run.
    init(events: Int, seconds: Double, latency: LatencySummary? = nil) {
        self.events = events
        self.seconds = seconds
        self.latency = latency
    }

    /// A failed run.
    init(error: any Error) {
        events = 0
        seconds = 0
        self.error = String(describing: error)
    }

    /// The median run of several (by events per second), carrying every run's rate; the first failure if any
    /// run failed.
    static func median(_ runs: [Measurement]) -> Measurement {
        precondition(!runs.isEmpty)
        if let failed = runs.first(where: { $0.error != nil }) { return failed }
        guard runs.count > 1 else { return runs[0] }
        var result = runs.sorted { ($0.eventsPerSecond ?? 0) < ($1.eventsPerSecond ?? 0) }[runs.count / 2]
        result.runRates = runs.map { $0.eventsPerSecond ?? 0 }
        return result
    }

    enum CodingKeys: String, CodingKey {
        case events, seconds, latency, openSeconds, closeSeconds, cpuSeconds, error, eventsPerSecond, runRates
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(seconds, forKey: .seconds)
        try c.encodeIfPresent(latency, forKey: .latency)
        try c.encodeIfPresent(openSeconds, forKey: .openSeconds)
        try c.encodeIfPresent(closeSeconds, forKey: .closeSeconds)
        try c.encodeIfPresent(cpuSeconds, forKey: .cpuSeconds)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(eventsPerSecond, forKey: .eventsPerSecond)
        try c.encodeIfPresent(runRates, forKey: .runRates)
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        events = try c.decode(Int.self, forKey: .events)
        seconds = try c.decode(Double.self, forKey: .seconds)
        latency = try c.decodeIfPresent(LatencySummary.self, forKey: .latency)
        openSeconds = try c.decodeIfPresent(Double.self, forKey: .openSeconds)
        closeSeconds = try c.decodeIfPresent(Double.self, forKey: .closeSeconds)
        cpuSeconds = try c.decodeIfPresent(Double.self, forKey: .cpuSeconds)
        runRates = try c.decodeIfPresent([Double].self, forKey: .runRates)
        error = try c.decodeIfPresent(String.self, forKey: .error)
    }
}
