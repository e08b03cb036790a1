/// Percentiles of commit latencies.
struct LatencySummary: Codable, Sendable {
    /// Median, in microseconds.
    let p50Micros: Double
    /// 99th percentile, in microseconds.
    let p99Micros: Double
    /// Maximum, in microseconds.
    let maxMicros: Double

    /// Summarizes latencies given in seconds; `nil` for none.
    init?(seconds: [Double]) {
        guard !seconds.isEmpty else { return nil }
        let sorted = seconds.sorted()
        // Nearest-rank percentiles, as sqlite_bench.c computes them (index = floor(n * q)).
        func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] * 1e6 }
        p50Micros = at(0.5)
        p99Micros = at(0.99)
        maxMicros = sorted[sorted.count - 1] * 1e6
    }
}
