/// The one phone rule, for every phone a command takes (a profile's, an order's recipient's, a vet clinic's).
extension Validate {
    /// Checks a phone number as people write it: digits with spaces, `-`, `.`, `(`, `)` and an optional leading
    /// `+`, 6 to 15 digits (E.164's most).
    ///
    /// - Parameters:
    ///   - value: The text.
    ///   - field: The field named in the error.
    ///   - allowEmpty: Whether an empty text is accepted (it clears a phone).
    /// - Returns: The trimmed number.
    /// - Throws: ``DomainError/invalid(field:reason:)`` naming the field.
    @discardableResult
    public static func phone(_ value: String, field: String, allowEmpty: Bool = false) throws(DomainError) -> String {
        let trimmed = value.trimmingWhitespace
        if trimmed.isEmpty && allowEmpty { return "" }
        var digits = 0
        for (n, c) in trimmed.unicodeScalars.enumerated() {
            switch c {
            case "0"..."9": digits += 1
            case " ", "-", ".", "(", ")": continue
            case "+" where n == 0: continue
            default:
                throw .invalid(field: field, reason: "'\(trimmed)' is not a phone number; use digits, spaces, - . ( ) and an optional leading +")
            }
        }
        guard (6...15).contains(digits) else {
            throw .invalid(field: field, reason: "'\(trimmed)' has \(digits) digits; a phone number has 6 to 15")
        }
        return trimmed
    }
}
