extension UInt64 {
    /// A number written in decimal digits only, as positions and versions are on the command line and in batch
    /// files: no sign, no spaces (`UInt64("+1")` is 1, which let `+1` pass for a version).
    ///
    /// - Parameter text: The text.
    /// - Returns: The number, or `nil` when the text is not 1 to 20 ASCII digits or overflows.
    public init?(decimal text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        guard let value = UInt64(text) else { return nil }
        self = value
    }
}
