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
    let bytes: UnsafeBufferPointer<UInt8>
    var i: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
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
}
