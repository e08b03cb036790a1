import EventLog
@testable import EventLogTestKit
import Foundation
import Testing

@Suite("Timestamp ISO-8601")
struct TimestampTests {
    /// Instants computed independently (Python's datetime, proleptic Gregorian, UTC).
    static let known: [(String, Int64)] = [
        ("1970-01-01T00:00:00.000000Z", 0),
        ("2000-02-29T00:00:00.000000Z", 951_782_400_000_000),
        ("2024-02-29T12:34:56.789012Z", 1_709_210_096_789_012),
        ("1969-12-31T23:59:59.999999Z", -1),
        ("1900-01-01T00:00:00.000000Z", -2_208_988_800_000_000),
        ("0001-01-01T00:00:00.000000Z", -62_135_596_800_000_000),
        ("9999-12-31T23:59:59.999999Z", 253_402_300_799_999_999),
        ("1600-03-01T00:00:00.000000Z", -11_670_912_000_000_000),
        ("2100-02-28T23:59:59.000000Z", 4_107_542_399_000_000),
    ]

    @Test(arguments: zip(known.map { $0.0 }, known.map { $0.1 }))
    func formatsAndParsesKnownInstants(text: String, micros: Int64) {
        let t = Timestamp(microsecondsSinceEpoch: micros)
        #expect(t.iso8601 == text)
        #expect(t.description == text)
        #expect(Timestamp(iso8601: text) == t)
    }

    @Test
    func parsesTheAcceptedSpellings() {
        let base = Timestamp(iso8601: "2026-11-30T03:10:44Z")
        #expect(base?.iso8601 == "2026-11-30T03:10:44.000000Z")
        #expect(Timestamp(iso8601: "2026-11-30T03:10:44+00:00") == base)
        #expect(Timestamp(iso8601: "2026-11-30T03:10:44-00:00") == base)
        #expect(Timestamp(iso8601: "2026-11-30t03:10:44z") == base)
        #expect(Timestamp(iso8601: "2026-11-30T03:10:44.5Z")?.microsecondsSinceEpoch == base!.microsecondsSinceEpoch + 500_000)
        #expect(Timestamp(iso8601: "2026-11-30T03:10:44.000001Z")?.microsecondsSinceEpoch == base!.microsecondsSinceEpoch + 1)
        #expect(Timestamp(iso8601: "2026-11-30T03:10:44.123+00:00")?.microsecondsSinceEpoch == base!.microsecondsSinceEpoch + 123_000)
        // More than six fractional digits: truncated to microseconds.
        #expect(Timestamp(iso8601: "2026-11-30T03:10:44.123456789Z")?.microsecondsSinceEpoch == base!.microsecondsSinceEpoch + 123_456)
        // A date alone is midnight UTC.
        #expect(Timestamp(iso8601: "2026-11-30")?.iso8601 == "2026-11-30T00:00:00.000000Z")
        #expect(Timestamp(iso8601: "1969-12-31")?.microsecondsSinceEpoch == -86_400_000_000)
    }

    @Test
    func leapYears() {
        #expect(Timestamp(iso8601: "2000-02-29T00:00:00Z") != nil)  // divisible by 400
        #expect(Timestamp(iso8601: "2024-02-29T00:00:00Z") != nil)
        #expect(Timestamp(iso8601: "1904-02-29") != nil)
        #expect(Timestamp(iso8601: "1900-02-29T00:00:00Z") == nil)  // divisible by 100, not 400
        #expect(Timestamp(iso8601: "2100-02-29") == nil)
        #expect(Timestamp(iso8601: "2023-02-29T00:00:00Z") == nil)
        #expect(Timestamp(iso8601: "2024-02-30") == nil)
        // The day after 2024-02-28 is 2024-02-29, after 2023-02-28 is 2023-03-01.
        let day: Int64 = 86_400_000_000
        #expect(Timestamp(microsecondsSinceEpoch: Timestamp(iso8601: "2024-02-28")!.microsecondsSinceEpoch + day).iso8601.hasPrefix("2024-02-29"))
        #expect(Timestamp(microsecondsSinceEpoch: Timestamp(iso8601: "2023-02-28")!.microsecondsSinceEpoch + day).iso8601.hasPrefix("2023-03-01"))
    }

    static let garbage = [
        "", "abc", "2026", "2026-11", "2026-11-3", "2026/11/30", "2026-13-01", "2026-00-10", "2026-11-00", "2026-11-31",
        "2026-11-30T", "2026-11-30T24:00:00Z", "2026-11-30T12:60:00Z", "2026-11-30T12:00:61Z", "2026-11-30T12:00:00",
        "2026-11-30T12:00Z", "2026-11-30 12:00:00Z", "2026-11-30T12:00:00Zjunk", "2026-11-30T12:00:00.Z",
        "2026-11-30T12:00:00+01:00", "2026-11-30T12:00:00+0000", "2026-11-30T12:00:00+00:00 ", " 2026-11-30",
        "2026-11-30junk", "２０２６-11-30", "2026-11-30T1:00:00Z", "-001-01-01",
    ]

    @Test(arguments: garbage)
    func rejectsGarbage(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test
    func roundTripsRandomInstants() {
        var rng = SystemRandomNumberGenerator()
        let range: ClosedRange<Int64> = -62_135_596_800_000_000...253_402_300_799_999_999  // years 1...9999
        for _ in 0..<5000 {
            let t = Timestamp(microsecondsSinceEpoch: Int64.random(in: range, using: &rng))
            let text = t.iso8601
            #expect(text.utf8.count == 27, "\(text)")
            #expect(Timestamp(iso8601: text) == t, "\(text)")
        }
    }

    /// The calendar part agrees with Foundation's ISO-8601 formatter (Gregorian years from 1600 on, where
    /// Foundation's calendar is proleptic-Gregorian too).
    @Test
    func agreesWithFoundationOnTheCalendar() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Int64.random(in: -11_670_912_000...253_402_300_799, using: &rng)
            let ours = Timestamp(microsecondsSinceEpoch: seconds * 1_000_000).iso8601
            let theirs = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(String(ours.prefix(19)) == String(theirs.prefix(19)), "\(seconds) s")
        }
    }

    @Test
    func orderingFollowsTheInstant() {
        let a = Timestamp(iso8601: "1969-12-31T23:59:59.999999Z")!
        let b = Timestamp(iso8601: "1970-01-01T00:00:00Z")!
        let c = Timestamp(iso8601: "2026-11-30T03:10:44.123456Z")!
        #expect(a < b && b < c)
        #expect([c, a, b].sorted() == [a, b, c])
    }
}
