/// A cheaper reading of the objects that nearly all JSON Lines input holds: an object whose keys are plain ASCII
/// without escapes. Such keys are the same string exactly when they are the same bytes, so the scan needs no string
/// for a key, neither to hand it over nor to find a repeated one.
extension JSONScanner {
    /// One member of an object whose keys are plain.
    public struct PlainMember: Sendable, Hashable {
        /// The key's bytes, without its quotes, in the scanned slice's indices.
        public var key: Range<Int>
        /// The kind of the value.
        public var kind: JSONKind
        /// The value's bytes in the scanned slice's indices.
        public var range: Range<Int>
    }

    /// Reads a slice that holds one JSON object with plain keys, as ``objectMembers(_:)-(ArraySlice<UInt8>)`` would
    /// read it.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - members: Receives the members in order (emptied first).
    /// - Returns: `true` when the slice is such an object; `false` for anything else, valid or not (a key with an
    ///   escape or a byte past ASCII, a repeated key, invalid JSON), which ``objectMembers(_:)-(ArraySlice<UInt8>)``
    ///   then reads, or reports as it reports any problem.
    public static func plainMembers(_ bytes: ArraySlice<UInt8>, into members: inout [PlainMember]) -> Bool {
        members.removeAll(keepingCapacity: true)
        let base = bytes.startIndex
        return bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            do throws(JSONSyntaxError) {
                return try s.plainMembers(base: base, into: &members)
            } catch {
                return false
            }
        }
    }

    private mutating func plainMembers(base: Int, into members: inout [PlainMember]) throws(JSONSyntaxError) -> Bool {
        try checkUTF8()
        skipWhitespace()
        guard peek == UInt8(ascii: "{") else { return false }
        i += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\"") else { return false }
                let keyStart = i + 1
                try string()
                let key = keyStart..<(i - 1)
                guard isPlainKey(key), !members.contains(where: { sameKey($0.key, key, base: base) }) else { return false }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return false }
                i += 1
                skipWhitespace()
                let start = i
                let kind = try value(depth: 1)
                members.append(PlainMember(key: (key.lowerBound + base)..<(key.upperBound + base), kind: kind, range: (start + base)..<(i + base)))
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard peek == UInt8(ascii: "}") else { return false }
                i += 1
                break
            }
        }
        skipWhitespace()
        return i == bytes.count
    }

    /// Whether a key's bytes are printable ASCII without a backslash.
    private func isPlainKey(_ key: Range<Int>) -> Bool {
        for k in key where bytes[k] < 0x20 || bytes[k] >= 0x7F || bytes[k] == UInt8(ascii: "\\") { return false }
        return true
    }

    /// Whether a member's key (in the slice's indices) is the same bytes as a key at `key` (in the buffer's).
    private func sameKey(_ member: Range<Int>, _ key: Range<Int>, base: Int) -> Bool {
        guard member.count == key.count else { return false }
        let start = member.lowerBound - base
        for k in 0..<key.count where bytes[start + k] != bytes[key.lowerBound + k] { return false }
        return true
    }
}
