public import EventLog

/// Field checks shared by every area; each failure is a ``DomainError/invalid(field:reason:)`` naming the field.
public enum Validate {
    /// Ids: 1 to 64 characters of letters, digits and `-_.:@`.
    public static func id(_ value: String, field: String) throws(DomainError) {
        guard !value.isEmpty, value.utf8.count <= 64 else {
            throw .invalid(field: field, reason: "an id must have 1 to 64 characters")
        }
        for c in value.utf8 {
            let ok = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
                || c == UInt8(ascii: "@")
            guard ok else {
                throw .invalid(field: field, reason: "'\(value)' may hold only letters, digits and - _ . : @")
            }
        }
    }

    /// Free text: trimmed, not empty (unless allowed), at most `max` characters, no control characters.
    ///
    /// Characters are counted as Unicode scalars, not as user-perceived characters: a letter followed by
    /// thousands of combining marks is one perceived character but as many scalars, and the limit exists to bound
    /// the bytes an event holds (at most 4 per scalar).
    ///
    /// - Returns: The trimmed text.
    @discardableResult
    public static func text(_ value: String, field: String, max: Int = 200, allowEmpty: Bool = false) throws(DomainError)
        -> String
    {
        let trimmed = value.trimmingWhitespace
        guard allowEmpty || !trimmed.isEmpty else { throw .invalid(field: field, reason: "must not be empty") }
        guard trimmed.unicodeScalars.count <= max else { throw .invalid(field: field, reason: "must be at most \(max) characters") }
        guard !trimmed.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        else {
            throw .invalid(field: field, reason: "must not hold control characters")
        }
        return trimmed
    }

    /// A count between `min` and `max`.
    public static func quantity(_ value: Int64, field: String = "quantity", min: Int64 = 1, max: Int64 = 999) throws(DomainError) {
        guard value >= min, value <= max else {
            throw .invalid(field: field, reason: "must be between \(min) and \(max), got \(value)")
        }
    }

    /// A time strictly after the command's clock.
    public static func future(_ value: Timestamp, field: String, now: Timestamp) throws(DomainError) {
        guard value > now else {
            throw .invalid(field: field, reason: "\(value.iso8601) is not in the future of the command's clock (\(now.iso8601))")
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
