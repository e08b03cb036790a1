#if canImport(Glibc)
import Glibc
#endif

/// A UTC instant with microsecond precision, as the log records it.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since 1970-01-01T00:00:00Z.
    public var microsecondsSinceEpoch: Int64

    /// Wraps a count of microseconds since the Unix epoch.
    public init(microsecondsSinceEpoch: Int64) {
        self.microsecondsSinceEpoch = microsecondsSinceEpoch
    }

    /// The current wall-clock time.
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(microsecondsSinceEpoch: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    /// UTC ISO-8601 with microseconds, e.g. `2026-11-30T03:10:44.123456Z`.
    public var iso8601: String {
        let us = microsecondsSinceEpoch
        var seconds = us / 1_000_000
        var micros = us % 1_000_000
        if micros < 0 {
            micros += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secOfDay = seconds % 86_400
        if secOfDay < 0 {
            secOfDay += 86_400
            days -= 1
        }
        let (y, m, d) = Self.civil(fromDays: days)
        if (0...9999).contains(y) {
            // Views and `log read` write one of these per row: the digits go into one buffer, one String a time.
            return String(unsafeUninitializedCapacity: 27) { b in
                func put(_ v: Int64, _ width: Int, at i: Int) {
                    var v = v
                    for k in stride(from: i + width - 1, through: i, by: -1) {
                        b[k] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                        v /= 10
                    }
                }
                put(y, 4, at: 0)
                b[4] = 0x2D
                put(m, 2, at: 5)
                b[7] = 0x2D
                put(d, 2, at: 8)
                b[10] = 0x54
                put(secOfDay / 3600, 2, at: 11)
                b[13] = 0x3A
                put(secOfDay / 60 % 60, 2, at: 14)
                b[16] = 0x3A
                put(secOfDay % 60, 2, at: 17)
                b[19] = 0x2E
                put(micros, 6, at: 20)
                b[26] = 0x5A
                return 27
            }
        }
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secOfDay / 3600, 2)):\(pad(secOfDay / 60 % 60, 2)):"
            + "\(pad(secOfDay % 60, 2)).\(pad(micros, 6))Z"
    }

    public var description: String { iso8601 }

    /// Parses UTC ISO-8601: `YYYY-MM-DDTHH:MM:SS[.ffffff](Z|+00:00)`, or a date alone (`YYYY-MM-DD`, midnight UTC).
    ///
    /// - Parameter text: The text to parse.
    /// - Returns: The instant, or `nil` if `text` is not such a time.
    public init?(iso8601 text: String) {
        var text = text
        guard let us = text.withUTF8({ Self.parse($0) }) else { return nil }
        microsecondsSinceEpoch = us
    }

    /// Parses the UTF-8 bytes of a UTC ISO-8601 time, as ``init(iso8601:)`` does, without building a string (the
    /// projections read a time from every event's metadata).
    ///
    /// - Parameter bytes: The text's bytes.
    /// - Returns: The instant, or `nil` if the bytes are not such a time.
    public init?(iso8601Bytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let us = Self.parse(bytes) else { return nil }
        microsecondsSinceEpoch = us
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Int64? {
        func num(_ from: Int, _ len: Int) -> Int64? {
            guard from + len <= b.count else { return nil }
            var v: Int64 = 0
            for i in from..<(from + len) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                v = v * 10 + Int64(b[i] - 48)
            }
            return v
        }
        guard b.count >= 10, let y = num(0, 4), b[4] == 45, let mo = num(5, 2), b[7] == 45, let d = num(8, 2),
            (1...12).contains(mo), (1...31).contains(d)
        else { return nil }
        var h: Int64 = 0
        var mi: Int64 = 0
        var s: Int64 = 0
        var frac: Int64 = 0
        var i = 10
        if b.count > 10 {
            guard b[10] == 84 || b[10] == 116, let hh = num(11, 2), b.count > 13, b[13] == 58, let mm = num(14, 2),
                b.count > 16, b[16] == 58, let ss = num(17, 2), hh < 24, mm < 60, ss < 61
            else { return nil }
            h = hh
            mi = mm
            s = ss
            i = 19
            if i < b.count && b[i] == 46 {
                i += 1
                var digits = 0
                while i < b.count && b[i] >= 48 && b[i] <= 57 {
                    if digits < 6 {
                        frac = frac * 10 + Int64(b[i] - 48)
                        digits += 1
                    }
                    i += 1
                }
                guard digits > 0 else { return nil }
                while digits < 6 {
                    frac *= 10
                    digits += 1
                }
            }
            if i < b.count && (b[i] == 90 || b[i] == 122) {
                i += 1
            } else if b.count - i == 6, b[i] == 43 || b[i] == 45, num(i + 1, 2) == 0, b[i + 3] == 58, num(i + 4, 2) == 0 {
                i += 6
            } else {
                return nil
            }
            guard i == b.count else { return nil }
        }
        guard d <= Self.daysInMonth(y, mo) else { return nil }
        let days = Self.days(fromCivil: y, mo, d)
        return ((days * 86_400) + h * 3600 + mi * 60 + s) * 1_000_000 + frac
    }

    /// The days in a month of the proleptic Gregorian calendar.
    ///
    /// - Parameters:
    ///   - y: The year.
    ///   - m: The month, 1 to 12.
    /// - Returns: 28 to 31.
    public static func daysInMonth(_ y: Int64, _ m: Int64) -> Int64 {
        switch m {
        case 2: return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
    ///
    /// - Parameters:
    ///   - y0: The year.
    ///   - m: The month, 1 to 12.
    ///   - d: The day of the month.
    /// - Returns: The days (negative before 1970).
    public static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date of a day counted from 1970-01-01, in the proleptic Gregorian calendar.
    ///
    /// - Parameter z0: Days since 1970-01-01 (negative before).
    /// - Returns: The year, month (1 to 12) and day of the month.
    public static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
