import PawtrailJSON

/// Event data given on the command line or in a file: checked to be one JSON value and kept as the exact
/// bytes given, trimmed of surrounding whitespace.
enum EventData {
    /// Validates data and trims it.
    ///
    /// - Parameters:
    ///   - bytes: What the user gave.
    ///   - source: How to name it in errors (`--data`, `--data-file payload.json`).
    /// - Returns: The JSON value's bytes, without the surrounding whitespace.
    /// - Throws: ``CommandFailure`` (bad input, exit 65) naming the problem and its column.
    static func validated(_ bytes: [UInt8], source: String) throws(CommandFailure) -> [UInt8] {
        do {
            let range = try JSONScanner.validate(bytes).range
            return Array(bytes[range])
        } catch {
            throw .invalidInput("\(source) is not valid JSON: \(error)")
        }
    }
}
