/// A strict RFC 8259 validator that reports byte ranges instead of building values, so event data keeps the
/// exact bytes the user gave (key order, number spelling, escapes) — a round trip through JSONSerialization
/// would reorder keys and rewrite numbers.
public struct JSONScanner {
    /// One member of a top-level object.
    public struct Member: Sendable, Hashable {
        /// The decoded key.
        public var key: String
        /// The kind of the value.
        public var kind: JSONKind
        /// The value's bytes in the scanned buffer.
        public var range: Range<Int>
    }

    /// Deeper nesting is rejected rather than risking the stack on hostile input.
    public static let maxDepth = 512

    /// The scanned bytes; valid for the duration of one static call, which never lets the scanner escape.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i: Int

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.i = 0
    }

    /// Whether a byte is JSON whitespace.
    @inline(__always)
    public static func isWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// Checks that `bytes` hold exactly one JSON value, optionally surrounded by whitespace.
    ///
    /// - Parameter bytes: The document.
    /// - Returns: The value's kind and its range without the surrounding whitespace.
    /// - Throws: ``JSONSyntaxError`` at the first problem.
    public static func validate(_ bytes: [UInt8]) throws(JSONSyntaxError) -> (kind: JSONKind, range: Range<Int>) {
        try validate(bytes[...])
    }

    /// Checks that a slice holds exactly one JSON value, optionally surrounded by whitespace.
    ///
    /// - Parameter bytes: The document.
    /// - Returns: The value's kind and its range in the slice's indices, without the surrounding whitespace.
    /// - Throws: ``JSONSyntaxError`` at the first problem; its offset counts from the slice's start.
    public static func validate(_ bytes: ArraySlice<UInt8>) throws(JSONSyntaxError) -> (kind: JSONKind, range: Range<Int>) {
        let base = bytes.startIndex
        let result: Result<(JSONKind, Range<Int>), JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            do throws(JSONSyntaxError) {
                return .success(try s.validateDocument())
            } catch {
                return .failure(error)
            }
        }
        let (kind, range) = try result.get()
        return (kind, (range.lowerBound + base)..<(range.upperBound + base))
    }

    private mutating func validateDocument() throws(JSONSyntaxError) -> (JSONKind, Range<Int>) {
        try checkUTF8()
        skipWhitespace()
        guard i < bytes.count else { throw JSONSyntaxError(offset: i, message: "expected a JSON value, found nothing") }
        let start = i
        let kind = try value(depth: 0)
        let end = i
        skipWhitespace()
        guard i == bytes.count else {
            throw JSONSyntaxError(offset: i, message: "unexpected \(describeCurrent()) after the JSON value")
        }
        return (kind, start..<end)
    }

    /// Scans a document that must be one JSON object and returns its members in order.
    ///
    /// - Parameter bytes: The document.
    /// - Returns: The members; duplicate keys are reported as an error.
    /// - Throws: ``JSONSyntaxError`` for invalid JSON, a non-object document, or a duplicate key.
    public static func objectMembers(_ bytes: [UInt8]) throws(JSONSyntaxError) -> [Member] {
        try objectMembers(bytes[...])
    }

    /// Scans a slice that must hold one JSON object and returns its members in order.
    ///
    /// - Parameter bytes: The document.
    /// - Returns: The members, their ranges in the slice's indices; duplicate keys are reported as an error.
    /// - Throws: ``JSONSyntaxError`` for invalid JSON, a non-object document, or a duplicate key; its offset counts
    ///   from the slice's start.
    public static func objectMembers(_ bytes: ArraySlice<UInt8>) throws(JSONSyntaxError) -> [Member] {
        let base = bytes.startIndex
        let result: Result<[Member], JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            do throws(JSONSyntaxError) {
                return .success(try s.members(base: base))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private mutating func members(base: Int) throws(JSONSyntaxError) -> [Member] {
        try checkUTF8()
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else {
            if i >= bytes.count { throw JSONSyntaxError(offset: i, message: "expected a JSON object, found nothing") }
            var probe = JSONScanner(bytes)
            let kind = (try? probe.validateDocument()).map { $0.0.description } ?? describeCurrent()
            throw JSONSyntaxError(offset: i, message: "expected a JSON object, found \(kind)")
        }
        i += 1
        var members: [Member] = []
        // A handful of members (the usual case) are checked for duplicates by a scan; a set only past that.
        var seen: Set<String>?
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
                let keyStart = i
                try string()
                let key = JSONScanner.decodeString(bytes, keyStart..<i)
                let duplicate: Bool
                if members.count < 16 {
                    duplicate = members.contains { $0.key == key }
                } else {
                    var set = seen ?? Set(members.map(\.key))
                    duplicate = !set.insert(key).inserted
                    seen = set
                }
                guard !duplicate else {
                    throw JSONSyntaxError(offset: keyStart, message: "duplicate key \"\(key)\"")
                }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
                i += 1
                skipWhitespace()
                let start = i
                let kind = try value(depth: 1)
                members.append(Member(key: key, kind: kind, range: (start + base)..<(i + base)))
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard peek == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
                i += 1
                break
            }
        }
        skipWhitespace()
        guard i == bytes.count else {
            throw JSONSyntaxError(offset: i, message: "unexpected \(describeCurrent()) after the JSON object")
        }
        return members
    }

    /// Decodes a string token (quotes included) that the scanner has validated.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: The token, quotes included.
    /// - Returns: The string; a lone surrogate escape becomes U+FFFD.
    public static func decodeString(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { decodeString($0, range) }
    }

    /// Decodes a string token (quotes included) that the scanner has validated, in a slice.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: The token, quotes included, in the slice's indices.
    /// - Returns: The string; a lone surrogate escape becomes U+FFFD.
    public static func decodeString(_ bytes: ArraySlice<UInt8>, _ range: Range<Int>) -> String {
        let base = bytes.startIndex
        return bytes.withUnsafeBufferPointer { decodeString($0, (range.lowerBound - base)..<(range.upperBound - base)) }
    }

    static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let inner = UnsafeBufferPointer(rebasing: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)])
        // Most strings hold no escape: their bytes are the string's.
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound + 1
        let end = range.upperBound - 1
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= end else { return nil }
            var v: UInt32 = 0
            for k in at..<(at + 4) {
                guard let d = hexValue(bytes[k]) else { return nil }
                v = v << 4 | UInt32(d)
            }
            return v
        }
        while i < end {
            let c = bytes[i]
            guard c == UInt8(ascii: "\\"), i + 1 < end else {
                out.append(c)
                i += 1
                continue
            }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar: UInt32 = 0xFFFD
                if let u = hex4(i) {
                    i += 4
                    if (0xD800..<0xDC00).contains(u), i + 1 < end, bytes[i] == UInt8(ascii: "\\"),
                        bytes[i + 1] == UInt8(ascii: "u"), let low = hex4(i + 2), (0xDC00..<0xE000).contains(low)
                    {
                        scalar = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    } else if !(0xD800..<0xE000).contains(u) {
                        scalar = u
                    }
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
            default: out.append(e)  // \" \\ \/
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Removes the whitespace between tokens of valid JSON, so a value fits on one line of JSON Lines
    /// without changing anything else.
    ///
    /// - Parameter bytes: Valid JSON.
    /// - Returns: The same JSON without insignificant whitespace.
    public static func minified(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var escaped = false
        for c in bytes {
            if inString {
                out.append(c)
                if escaped {
                    escaped = false
                } else if c == UInt8(ascii: "\\") {
                    escaped = true
                } else if c == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if !isWhitespace(c) {
                if c == UInt8(ascii: "\"") { inString = true }
                out.append(c)
            }
        }
        return out
    }

    // MARK: - Scanning

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: i, message: "\(message), found \(describeCurrent())")
    }

    private func describeCurrent() -> String {
        guard let c = peek else { return "the end of the input" }
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }

    private func checkUTF8() throws(JSONSyntaxError) {
        // Validating once up front lets the string scanner treat every byte >= 0x80 as part of a valid sequence.
        // ASCII, the usual text, is passed over eight bytes at a time; the decoder takes over at the first byte past it.
        let n = bytes.count
        var k = 0
        if let p = bytes.baseAddress {
            let raw = UnsafeRawPointer(p)
            while k + 8 <= n, raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { k += 8 }
        }
        while k < n, bytes[k] < 0x80 { k += 1 }
        guard k < n else { return }
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[k...]).makeIterator()
        var offset = k
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: break loop
            case .error: throw JSONSyntaxError(offset: offset, message: "the input is not valid UTF-8")
            }
        }
    }

    private mutating func skipWhitespace() {
        while i < bytes.count && JSONScanner.isWhitespace(bytes[i]) { i += 1 }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONKind {
        guard depth < JSONScanner.maxDepth else {
            throw JSONSyntaxError(offset: i, message: "nesting deeper than \(JSONScanner.maxDepth) levels")
        }
        guard let c = peek else { throw error("expected a JSON value") }
        switch c {
        case UInt8(ascii: "{"):
            i += 1
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                i += 1
                return .object
            }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
                try string()
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
                i += 1
                skipWhitespace()
                _ = try value(depth: depth + 1)
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard peek == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
                i += 1
                return .object
            }
        case UInt8(ascii: "["):
            i += 1
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                i += 1
                return .array
            }
            while true {
                skipWhitespace()
                _ = try value(depth: depth + 1)
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard peek == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
                i += 1
                return .array
            }
        case UInt8(ascii: "\""):
            try string()
            return .string
        case UInt8(ascii: "-"), 48...57:
            try number()
            return .number
        case UInt8(ascii: "t"):
            try literal("true")
            return .true
        case UInt8(ascii: "f"):
            try literal("false")
            return .false
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            throw error("expected a JSON value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = i
        for k in 0..<word.utf8CodeUnitCount {
            guard peek == word.utf8Start[k] else {
                i = start
                throw error("expected a JSON value")
            }
            i += 1
        }
    }

    private mutating func string() throws(JSONSyntaxError) {
        i += 1  // opening quote
        while true {
            // Plain characters, the bulk of a string, need no decision beyond this: eight at a time while no byte
            // of the eight is a quote, a backslash or a control character.
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i + 8 <= bytes.count, !JSONScanner.mayEndPlainRun(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8 }
            }
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                i += 1
            }
            guard let c = peek else { break }
            switch c {
            case UInt8(ascii: "\""):
                i += 1
                return
            case UInt8(ascii: "\\"):
                i += 1
                guard let e = peek else { break }
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 1
                case UInt8(ascii: "u"):
                    i += 1
                    for _ in 0..<4 {
                        guard let h = peek, JSONScanner.hexValue(h) != nil else {
                            throw error("expected four hex digits after \\u")
                        }
                        i += 1
                    }
                default:
                    throw error("invalid escape in a string")
                }
            case 0..<0x20:
                throw error("unescaped control character in a string")
            default:
                i += 1
            }
        }
        throw error("unterminated string")
    }

    /// Whether any of eight bytes is a quote, a backslash or below 0x20 (exact: the zero-byte tests below have no
    /// false negatives, and a positive only sends the scanner to its byte-by-byte loop).
    @inline(__always)
    private static func mayEndPlainRun(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (w &- ones &* 0x20) & ~w
        return (zeroQuote | zeroBackslash | control) & highs != 0
    }

    private mutating func number() throws(JSONSyntaxError) {
        func digits() -> Int {
            let start = i
            while let c = peek, c >= 48 && c <= 57 { i += 1 }
            return i - start
        }
        if peek == UInt8(ascii: "-") { i += 1 }
        if peek == UInt8(ascii: "0") {
            i += 1
            if let c = peek, c >= 48 && c <= 57 { throw error("a number may not have a leading zero") }
        } else if digits() == 0 {
            throw error("expected a digit")
        }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw error("expected a digit after the decimal point") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
    }
}
