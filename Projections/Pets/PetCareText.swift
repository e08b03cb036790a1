import EventLog
import PawtrailJSON
import Events

/// Text helpers shared by the pets, conversations and favourites views (times to the minute, weights, ages, the
/// `--now` argument). Only views call them: folds never format.
enum PetCareText {
    /// A time to the minute, UTC: `2026-12-10 10:00`.
    static func minute(_ t: Timestamp) -> String {
        let iso = t.iso8601
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }

    /// A time as JSON, or `null`.
    static func json(_ t: Timestamp?) -> JSONValue { t.map { .string($0.iso8601Compact) } ?? .null }

    /// A number as JSON, or `null`.
    static func json(_ n: Int64?) -> JSONValue { n.map { .int($0) } ?? .null }

    /// A weight in kilograms without trailing zeros: `12.5 kg`, `0.25 kg`, `12 kg`; signed when asked (`+0.3 kg`).
    static func kilograms(_ grams: Int64, signed: Bool = false) -> String {
        let sign = grams < 0 ? "-" : (signed && grams > 0 ? "+" : "")
        let g = grams.magnitude
        var fraction = g % 1000 == 0 ? "" : String(g % 1000)
        if !fraction.isEmpty {
            fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            fraction = "." + fraction
        }
        return sign + String(g / 1000) + fraction + " kg"
    }

    /// Whole calendar months from one moment to a later one (by UTC dates; a month is complete on the same day of
    /// the month): 2024-03-15 to 2024-04-14 is 0, to 2024-04-15 is 1. Negative when `to` is earlier.
    static func months(from: Timestamp, to: Timestamp) -> Int64 {
        guard from <= to else { return -months(from: to, to: from) }
        let (y1, m1, d1) = civil(from)
        let (y2, m2, d2) = civil(to)
        return (y2 - y1) * 12 + (m2 - m1) - (d2 < d1 ? 1 : 0)
    }

    /// Whole days from one moment to another.
    static func days(from: Timestamp, to: Timestamp) -> Int64 {
        (to.microsecondsSinceEpoch - from.microsecondsSinceEpoch) / 86_400_000_000
    }

    /// An age in months for people: `7 months`, `1 year`, `2 years 9 months`.
    static func age(months: Int64) -> String {
        func unit(_ n: Int64, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        if months < 12 { return unit(months, "month") }
        return unit(months / 12, "year") + (months % 12 == 0 ? "" : " " + unit(months % 12, "month"))
    }

    /// The year, month and day of a moment (UTC).
    static func civil(_ t: Timestamp) -> (Int64, Int64, Int64) {
        let b = Array(t.iso8601.utf8)
        func number(_ range: Range<Int>) -> Int64 { range.reduce(0) { $0 * 10 + Int64(b[$1] - 48) } }
        return (number(0..<4), number(5..<7), number(8..<10))
    }

    /// The `--now` option.
    static let nowOption = ViewOption.now("The moment that decides what is due soon and upcoming (UTC ISO-8601).")

    /// Text cut to a length for a one-line preview: whitespace runs become one space, and a cut ends with `…` (for a
    /// personal value kept as a token, the view that opens it cuts it).
    static func preview(_ text: String, length: Int) -> String {
        PersonalReference.preview(text, length)
    }
}
