/// Email addresses: the checks a sign-up or change applies, and the one spelling uniqueness is decided on.
public enum Email {
    /// The address lowercased, so `Ann@Example.com` and `ann@example.com` are one address.
    public static func normalized(_ address: String) -> String {
        address.trimmingWhitespace.lowercased()
    }

    /// Checks the address's shape: `local@domain.tld`, at most 250 bytes (so its claim stream `email-<address>`
    /// stays within the log's 256-byte stream ids), no spaces, control or invisible format characters.
    ///
    /// - Throws: ``DomainError/invalid(field:reason:)``.
    public static func validate(_ address: String, field: String = "email") throws(DomainError) {
        let a = normalized(address)
        let parts = a.split(separator: "@", omittingEmptySubsequences: false)
        guard a.utf8.count <= 250, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !a.unicodeScalars.contains(where: {
                $0.properties.isWhitespace || $0.properties.generalCategory == .control
                    || $0.properties.generalCategory == .format
            })
        else {
            throw .invalid(field: field, reason: "'\(address)' is not an email address")
        }
    }
}
