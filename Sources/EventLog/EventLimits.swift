/// The limits every store enforces, with the validation that names what is wrong.
public enum EventLimits {
    /// The longest stream id, in UTF-8 bytes.
    public static let maxStreamIDBytes = 256
    /// The longest event type, in bytes (ASCII).
    public static let maxEventTypeBytes = 128
    /// The largest event: data plus metadata keys and values (1 MiB).
    public static let maxEventBytes = 1 << 20
    /// The most events one append may carry.
    public static let maxEventsPerAppend = 10_000
    /// The most streams (written and checked) one append may name.
    public static let maxStreamsPerAppend = 10_000
    /// The largest sum of event sizes in one append (64 MiB).
    public static let maxAppendBytes = 64 << 20
    /// The most metadata pairs on one event.
    public static let maxMetadataPairs = 64
    /// The longest metadata key, in UTF-8 bytes.
    public static let maxMetadataKeyBytes = 128

    /// Checks a stream id: 1 to 256 bytes of UTF-8, no whitespace or control characters, not starting with `$`.
    ///
    /// - Parameter id: The stream id.
    /// - Throws: ``EventStoreError/invalidRequest(_:)`` naming the problem.
    public static func validateStreamID(_ id: String) throws(EventStoreError) {
        let bytes = id.utf8.count
        guard bytes > 0 else { throw .invalidRequest("stream id is empty") }
        guard bytes <= maxStreamIDBytes else {
            throw .invalidRequest("stream id is \(bytes) bytes long; the limit is \(maxStreamIDBytes)")
        }
        guard !id.hasPrefix("$") else {
            throw .invalidRequest("stream id '\(id)' starts with '$', which is reserved for system streams")
        }
        if let bad = firstWhitespaceOrControl(id) {
            throw .invalidRequest(
                "stream id '\(id.debugDescription.dropFirst().dropLast())' contains whitespace or a control character (U+\(hex(bad.value)))"
            )
        }
    }

    /// Whether valid UTF-8 bytes hold whitespace or a control character (as the string check below).
    private static func firstWhitespaceOrControl(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in utf8 {
            if byte >= 0x80 { return firstWhitespaceOrControl(String(decoding: utf8, as: UTF8.self)) != nil }
            if byte <= 0x20 || byte == 0x7F { return true }
        }
        return false
    }

    /// The first whitespace or control character of a string, if any. ASCII is checked byte by byte; only
    /// non-ASCII text pays for Unicode property lookups.
    private static func firstWhitespaceOrControl(_ text: String) -> Unicode.Scalar? {
        var copy = text
        let asciiVerdict: Unicode.Scalar?? = copy.withUTF8 { utf8 in
            for byte in utf8 {
                if byte >= 0x80 { return .none }
                if byte <= 0x20 || byte == 0x7F { return .some(Unicode.Scalar(byte)) }
            }
            return .some(nil)
        }
        if let asciiVerdict { return asciiVerdict }
        return text.unicodeScalars.first { $0.properties.isWhitespace || isControl($0) }
    }

    /// Checks an event type: 1 to 128 ASCII characters, a letter first, then letters, digits, `.`, `_`, `-`, `:`.
    ///
    /// - Parameter type: The event type.
    /// - Throws: ``EventStoreError/invalidRequest(_:)`` naming the problem.
    public static func validateEventType(_ type: String) throws(EventStoreError) {
        var copy = type
        // 0: fine; 1: empty; 2: too long; 3: not a letter first; 4: a character outside the set.
        let verdict = copy.withUTF8 { bytes -> Int in
            guard !bytes.isEmpty else { return 1 }
            guard bytes.count <= maxEventTypeBytes else { return 2 }
            func isLetter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
            guard isLetter(bytes[0]) else { return 3 }
            for c in bytes where !(isLetter(c) || (c >= 48 && c <= 57) || c == 46 || c == 95 || c == 45 || c == 58) { return 4 }
            return 0
        }
        switch verdict {
        case 1: throw .invalidRequest("event type is empty")
        case 2: throw .invalidRequest("event type is \(type.utf8.count) bytes long; the limit is \(maxEventTypeBytes)")
        case 3: throw .invalidRequest("event type '\(type)' must start with an ASCII letter")
        case 4: throw .invalidRequest("event type '\(type)' may hold only ASCII letters, digits, '.', '_', '-' and ':'")
        default: break
        }
    }

    /// Checks one proposed event: its type, metadata and size.
    ///
    /// - Parameter event: The event.
    /// - Throws: ``EventStoreError/invalidRequest(_:)`` naming the problem.
    public static func validateEvent(_ event: ProposedEvent) throws(EventStoreError) {
        try validateEventType(event.type)
        if let problem = event.metadata.encodingProblem() {
            throw .invalidRequest("event \(event.id.uuidString.lowercased()): \(problem)")
        }
        guard event.metadata.count <= maxMetadataPairs else {
            throw .invalidRequest(
                "event \(event.id.uuidString.lowercased()) has \(event.metadata.count) metadata pairs; the limit is \(maxMetadataPairs)")
        }
        // Keys are nearly always short ASCII: checked on their bytes, a string built only to report one.
        var problem: String?
        event.metadata.forEachPairBytes { key, _ in
            if key.isEmpty || key.count > maxMetadataKeyBytes {
                problem = "metadata key '\(String(decoding: key, as: UTF8.self))' must be 1 to \(maxMetadataKeyBytes) bytes long"
            } else if firstWhitespaceOrControl(key) {
                problem = "metadata key '\(String(decoding: key, as: UTF8.self))' contains whitespace or a control character"
            }
            return problem == nil
        }
        if let problem { throw .invalidRequest(problem) }
        let size = event.payloadSize
        guard size <= maxEventBytes else {
            throw .invalidRequest(
                "event \(event.id.uuidString.lowercased()) of type \(event.type) is \(size) bytes; the limit is \(maxEventBytes) (1 MiB)")
        }
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (s.value >= 0x7F && s.value < 0xA0) || s.properties.generalCategory == .format
            && s.value != 0x200D
    }

    private static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
