/// An amount of money in integer minor units (cents, poisha) of an ISO 4217 currency.
public struct Money: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The amount in minor units; negative amounts exist only as differences.
    public var minorUnits: Int64
    /// The ISO 4217 code: three uppercase letters (`BDT`, `USD`).
    public var currency: String

    /// Creates an amount.
    ///
    /// - Parameters:
    ///   - minorUnits: The amount in minor units.
    ///   - currency: The ISO 4217 code.
    public init(_ minorUnits: Int64, _ currency: String) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Whether a code has the ISO 4217 shape: three uppercase ASCII letters.
    public static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// Parses the CLI spelling: minor units and a currency code, `62000 BDT` (or `BDT 62000`).
    ///
    /// - Parameter text: The text.
    /// - Returns: The amount, or `nil` when `text` is not an integer and a currency code.
    public init?(parsing text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count == 2 else { return nil }
        if let v = Int64(words[0]), Self.isCurrencyCode(words[1]) {
            self.init(v, words[1])
        } else if let v = Int64(words[1]), Self.isCurrencyCode(words[0]) {
            self.init(v, words[0])
        } else {
            return nil
        }
    }

    /// `62000 BDT`.
    public var description: String { "\(minorUnits) \(currency)" }

    /// Orders amounts of one currency; amounts of different currencies order by code first.
    public static func < (lhs: Money, rhs: Money) -> Bool {
        (lhs.currency, lhs.minorUnits) < (rhs.currency, rhs.minorUnits)
    }
}
