import BenchSupport
import Foundation

/// Number formatting for the markdown report.
enum Format {
    /// An integer with thousands separators: `1,234,567`.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0 && i % 3 == 0 && c != "-" { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// Events per second, or `n/a` with the reason's first words.
    static func rate(_ m: Measurement) -> String {
        guard let r = m.eventsPerSecond else { return "n/a" }
        guard let runs = m.runRates, let lo = runs.min(), let hi = runs.max() else { return grouped(r) }
        return "\(grouped(r)) (\(grouped(lo))..\(grouped(hi)))"
    }

    /// A ratio as `12.3x`.
    static func ratio(_ value: Double?) -> String {
        guard let value else { return "n/a" }
        return String(format: value >= 100 ? "%.0fx" : "%.2fx", value)
    }

    /// Bytes as MB (10^6) with one decimal.
    static func megabytes(_ bytes: UInt64?) -> String {
        guard let bytes else { return "n/a" }
        return String(format: "%.1f MB", Double(bytes) / 1e6)
    }

    /// Microseconds with no decimals.
    static func micros(_ value: Double?) -> String {
        guard let value else { return "n/a" }
        return grouped(value) + " µs"
    }
}
