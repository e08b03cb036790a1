public import Events

/// Field checks of the shop: prices and tags.
extension Validate {
    /// The largest price in minor units: 1 000 000 000 in major units. It keeps every line total (at most 999
    /// units) and every order total (at most 100 lines) far inside `Int64`.
    public static let maxPriceMinorUnits: Int64 = 100_000_000_000

    /// A selling price: an ISO currency code and a positive amount no larger than ``maxPriceMinorUnits``.
    public static func price(_ value: Money, field: String) throws(DomainError) {
        guard Money.isCurrencyCode(value.currency) else {
            throw .invalid(field: field, reason: "'\(value.currency)' is not an ISO 4217 currency code (BDT, USD)")
        }
        guard value.minorUnits > 0 else { throw .invalid(field: field, reason: "must be above zero, got \(value)") }
        guard value.minorUnits <= maxPriceMinorUnits else {
            throw .invalid(field: field, reason: "must be at most \(maxPriceMinorUnits) minor units, got \(value)")
        }
    }

    /// A compare-at ("was") price: a valid price in the selling price's currency, above it.
    public static func compareAtPrice(_ value: Money?, price: Money, field: String = "compareAtPrice") throws(DomainError) {
        guard let value else { return }
        try Validate.price(value, field: field)
        guard value.currency == price.currency else {
            throw .invalid(field: field, reason: "is in \(value.currency) but the price is in \(price.currency)")
        }
        guard value > price else {
            throw .invalid(field: field, reason: "\(value) must be above the price \(price)")
        }
    }

    /// A product's description: text of at most 2,000 characters, line breaks allowed, empty for none.
    ///
    /// - Parameters:
    ///   - value: The description as given.
    ///   - field: The field's key, for the error.
    /// - Returns: The description, trimmed.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for one too long or holding control characters.
    public static func productDescription(_ value: String, field: String = "description") throws(DomainError) -> String {
        try Validate.text(value, field: field, max: 2_000, allowEmpty: true)
    }

    /// Tags: each trimmed, lowercased, 1 to 30 characters; duplicates dropped; at most 20.
    ///
    /// - Returns: The tags in their first-seen order.
    public static func tags(_ values: [String], field: String = "tags") throws(DomainError) -> [String] {
        var out: [String] = []
        for (n, value) in values.enumerated() {
            let tag = try Validate.text(value, field: "\(field)[\(n)]", max: 30).lowercased()
            if !out.contains(tag) { out.append(tag) }
        }
        guard out.count <= 20 else { throw .invalid(field: field, reason: "at most 20 tags, got \(out.count)") }
        return out
    }
}
