public import EventLog
public import Events
public import PawtrailJSON

/// Small formatting helpers shared by views.
public enum Format {
    /// `1,234.50 BDT`.
    public static func money(_ m: Money) -> String {
        // Written from the last digit back into one buffer: this runs for every row of a large view.
        var whole = m.minorUnits.magnitude / 100
        let cents = UInt8(m.minorUnits.magnitude % 100)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var i = buffer.count
            func put(_ byte: UInt8) {
                i -= 1
                buffer[i] = byte
            }
            put(UInt8(ascii: "0") + cents % 10)
            put(UInt8(ascii: "0") + cents / 10)
            put(UInt8(ascii: "."))
            var digits = 0
            repeat {
                if digits > 0 && digits % 3 == 0 { put(UInt8(ascii: ",")) }
                put(UInt8(ascii: "0") + UInt8(whole % 10))
                whole /= 10
                digits += 1
            } while whole > 0
            if m.minorUnits < 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[i...]), as: UTF8.self) + " " + m.currency
        }
    }

    /// Money as JSON: `{"amount": minor units, "currency": "BDT"}`.
    public static func json(_ m: Money) -> JSONValue {
        .object(["amount": .int(m.minorUnits), "currency": .string(m.currency)])
    }

    /// A time as JSON text.
    public static func json(_ t: Timestamp) -> JSONValue { .string(t.iso8601Compact) }

    /// The UTC day of a time, `2026-12-01`.
    public static func day(_ t: Timestamp) -> String { String(t.iso8601.prefix(10)) }

    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The UTC day of a time, in days since 1970-01-01 (floored, so times before 1970 fall on the right day).
    public static func dayNumber(_ t: Timestamp) -> Int64 { BusinessTimeZone.utc.dayNumber(t) }

    /// The ISO date (`2026-12-01`) of a day number.
    public static func date(dayNumber day: Int64) -> String {
        Format.day(Timestamp(microsecondsSinceEpoch: day * microsecondsPerDay))
    }

    /// A time of day, `HH:MM` (UTC).
    public static func clock(_ t: Timestamp) -> String { String(t.iso8601.dropFirst(11).prefix(5)) }

    /// The lowercased words of a text, for searches: maximal runs of letters and digits.
    public static func words(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        for c in text {
            if c.isLetter || c.isNumber {
                current.append(c)
            } else if !current.isEmpty {
                out.append(current.lowercased())
                current = ""
            }
        }
        if !current.isEmpty { out.append(current.lowercased()) }
        return out
    }
}
