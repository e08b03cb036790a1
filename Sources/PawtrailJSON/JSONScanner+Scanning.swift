/// The scanning itself: each function reads one token or value at `i` and leaves `i` after it, or throws where
/// the input stops being JSON.
extension JSONScanner {
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: i, message: "\(message), found \(describeCurrent())")
    }

    func describeCurrent() -> String {
        guard let c = peek else { return "the end of the input" }
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }

    func checkUTF8() throws(JSONSyntaxError) {
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

    mutating func skipWhitespace() {
        while i < bytes.count && JSONScanner.isWhitespace(bytes[i]) { i += 1 }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONKind {
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

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let start = i
        for k in 0..<word.utf8CodeUnitCount {
            guard peek == word.utf8Start[k] else {
                i = start
                throw error("expected a JSON value")
            }
            i += 1
        }
    }

    mutating func string() throws(JSONSyntaxError) {
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
    static func mayEndPlainRun(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (w &- ones &* 0x20) & ~w
        return (zeroQuote | zeroBackslash | control) & highs != 0
    }

    mutating func number() throws(JSONSyntaxError) {
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
