import EventLog

/// The two text forms of values that a columnar payload stores as binary: lowercase UUIDs
/// (`8-4-4-4-12` hex digits) and UTC timestamps with microseconds (`YYYY-MM-DDTHH:MM:SS.ffffffZ`). Only the exact
/// canonical spelling is recognized, so formatting the value back gives the same bytes; anything else stays text.
enum CanonicalText {
    static let uuidLength = 36
    static let timeLength = 27

    /// The 16 bytes of a lowercase UUID's text, or `nil` when the text is not one.
    static func uuid(_ text: UnsafeRawBufferPointer) -> (UInt64, UInt64)? {
        guard text.count == uuidLength, let p = text.baseAddress else { return nil }
        let hyphen = UInt8(ascii: "-")
        guard p.load(fromByteOffset: 8, as: UInt8.self) == hyphen, p.load(fromByteOffset: 13, as: UInt8.self) == hyphen,
            p.load(fromByteOffset: 18, as: UInt8.self) == hyphen, p.load(fromByteOffset: 23, as: UInt8.self) == hyphen
        else { return nil }
        func word(_ first: Int, _ second: Int) -> UInt64 {
            UInt64(p.loadUnaligned(fromByteOffset: first, as: UInt32.self).littleEndian)
                | UInt64(p.loadUnaligned(fromByteOffset: second, as: UInt32.self).littleEndian) << 32
        }
        guard let a = unhex(word(0, 4)), let b = unhex(word(9, 14)), let c = unhex(word(19, 24)), let d = unhex(word(28, 32))
        else { return nil }
        return (UInt64(a) << 32 | UInt64(b), UInt64(c) << 32 | UInt64(d))
    }

    /// The value of 8 hex digits given as the bytes of a little-endian word (most significant digit first), or `nil`
    /// unless they are lowercase hex digits: the inverse of ``hex(_:)``, checked by formatting the value back.
    @inline(__always)
    static func unhex(_ w: UInt64) -> UInt32? {
        // '0'...'9' keep their low nibble; 'a'...'f' (bit 6 set) add 9 to theirs.
        var v = ((w & 0x0F0F_0F0F_0F0F_0F0F) &+ ((w >> 6) & 0x0101_0101_0101_0101) &* 9).byteSwapped
        v = (v | (v >> 4)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v >> 8)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v >> 16)) & 0xFFFF_FFFF
        let x = UInt32(truncatingIfNeeded: v)
        return hex(x) == w ? x : nil
    }

    /// Writes a UUID's lowercase text (36 bytes) at `out`.
    @inline(__always)
    static func writeUUID(_ value: (UInt64, UInt64), to out: UnsafeMutableRawPointer) {
        let a = hex(UInt32(truncatingIfNeeded: value.0 >> 32))
        let b = hex(UInt32(truncatingIfNeeded: value.0))
        let c = hex(UInt32(truncatingIfNeeded: value.1 >> 32))
        let d = hex(UInt32(truncatingIfNeeded: value.1))
        let hyphen = UInt8(ascii: "-")
        out.storeBytes(of: a.littleEndian, toByteOffset: 0, as: UInt64.self)
        out.storeBytes(of: hyphen, toByteOffset: 8, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: b).littleEndian, toByteOffset: 9, as: UInt32.self)
        out.storeBytes(of: hyphen, toByteOffset: 13, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: b >> 32).littleEndian, toByteOffset: 14, as: UInt32.self)
        out.storeBytes(of: hyphen, toByteOffset: 18, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: c).littleEndian, toByteOffset: 19, as: UInt32.self)
        out.storeBytes(of: hyphen, toByteOffset: 23, as: UInt8.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: c >> 32).littleEndian, toByteOffset: 24, as: UInt32.self)
        out.storeBytes(of: d.littleEndian, toByteOffset: 28, as: UInt64.self)
    }

    /// The 8 lowercase hex digits of `x`, most significant first, as the bytes of a little-endian word: each nibble
    /// spread to a byte of its own, then turned into its digit without a branch.
    @inline(__always)
    static func hex(_ x: UInt32) -> UInt64 {
        var v = UInt64(x)
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        // Byte i holds nibble i, least significant first; text wants the most significant first.
        v = v.byteSwapped
        let letters = ((v &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return v &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
    }

    /// Microseconds since 1970 of a canonical timestamp's text, or `nil` when the text is not one.
    static func time(_ t: UnsafeRawBufferPointer) -> Int64? {
        guard t.count == timeLength, t[4] == UInt8(ascii: "-"), t[7] == UInt8(ascii: "-"), t[10] == UInt8(ascii: "T"),
            t[13] == UInt8(ascii: ":"), t[16] == UInt8(ascii: ":"), t[19] == UInt8(ascii: "."), t[26] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64? {
            var v: Int64 = 0
            for i in from..<(from + count) {
                let c = t[i]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int64(c - UInt8(ascii: "0"))
            }
            return v
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), let micros = number(20, 6),
            (1...12).contains(month), day >= 1, day <= Timestamp.daysInMonth(year, month), hour < 24, minute < 60, second < 60
        else { return nil }
        let days = Timestamp.days(fromCivil: year, month, day)
        return ((days * 24 + hour) * 60 + minute) * 60_000_000 + second * 1_000_000 + micros
    }

    /// Microseconds split into days since 1970 and microseconds into the day (rounding down, before 1970 too).
    @inline(__always)
    static func dayAndTime(_ micros: Int64) -> (day: Int64, time: Int64) {
        let perDay: Int64 = 86_400_000_000
        let (day, time) = micros.quotientAndRemainder(dividingBy: perDay)
        return time < 0 ? (day - 1, time + perDay) : (day, time)
    }

    /// Writes a timestamp's canonical text (27 bytes) at `out`.
    ///
    /// - Returns: `false`, writing nothing, when its year is outside 0000...9999.
    static func writeTime(_ micros: Int64, to out: UnsafeMutableRawPointer) -> Bool {
        let (day, time) = dayAndTime(micros)
        guard writeDate(day, to: out) else { return false }
        writeTimeOfDay(time, to: out + 11)
        return true
    }

    /// Writes `YYYY-MM-DDT` (11 bytes) for a day counted from 1970-01-01.
    ///
    /// - Returns: `false`, writing nothing, when its year is outside 0000...9999.
    static func writeDate(_ days: Int64, to out: UnsafeMutableRawPointer) -> Bool {
        let (year, month, day) = Timestamp.civil(fromDays: days)
        guard (0...9999).contains(year) else { return false }
        let y = UInt64(year)
        two(y / 100, to: out, at: 0)
        two(y % 100, to: out, at: 2)
        out.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 4, as: UInt8.self)
        two(UInt64(month), to: out, at: 5)
        out.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 7, as: UInt8.self)
        two(UInt64(day), to: out, at: 8)
        out.storeBytes(of: UInt8(ascii: "T"), toByteOffset: 10, as: UInt8.self)
        return true
    }

    /// Writes two decimal digits of `v` (below 100).
    @inline(__always)
    private static func two(_ v: UInt64, to out: UnsafeMutableRawPointer, at offset: Int) {
        let (tens, ones) = v.quotientAndRemainder(dividingBy: 10)
        out.storeBytes(
            of: (UInt16(truncatingIfNeeded: tens + 0x30) | UInt16(truncatingIfNeeded: ones + 0x30) << 8).littleEndian,
            toByteOffset: offset, as: UInt16.self)
    }

    /// Writes `HH:MM:SS.ffffffZ` (16 bytes) for microseconds into a day.
    @inline(__always)
    static func writeTimeOfDay(_ micros: Int64, to out: UnsafeMutableRawPointer) {
        let m = UInt64(micros)
        let seconds = m / 1_000_000
        let fraction = m % 1_000_000
        two(seconds / 3600, to: out, at: 0)
        out.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 2, as: UInt8.self)
        two(seconds / 60 % 60, to: out, at: 3)
        out.storeBytes(of: UInt8(ascii: ":"), toByteOffset: 5, as: UInt8.self)
        two(seconds % 60, to: out, at: 6)
        out.storeBytes(of: UInt8(ascii: "."), toByteOffset: 8, as: UInt8.self)
        two(fraction / 10_000, to: out, at: 9)
        two(fraction / 100 % 100, to: out, at: 11)
        two(fraction % 100, to: out, at: 13)
        out.storeBytes(of: UInt8(ascii: "Z"), toByteOffset: 15, as: UInt8.self)
    }
}
