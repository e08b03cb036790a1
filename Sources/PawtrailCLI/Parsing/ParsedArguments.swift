/// What the parser found on a command line for one command: option values, flags and positionals, with
/// typed accessors that turn bad values into usage errors naming the option.
struct ParsedArguments: Sendable {
    /// The names from the root to the selected command (`["pawtrail", "log", "append"]`).
    var commandPath: [String]
    /// Values by option name, in the order given (one entry per occurrence; flags get an empty string).
    var values: [String: [String]]
    /// Positional arguments, in order.
    var positionals: [String]

    /// Whether a flag (or any option) was given.
    func flag(_ name: String) -> Bool {
        values[name] != nil
    }

    /// The last value of an option, or `nil` when it was not given.
    func value(_ name: String) -> String? {
        values[name]?.last
    }

    /// Every value of a repeatable option, in order.
    func allValues(_ name: String) -> [String] {
        values[name] ?? []
    }

    /// An error about this command line, carrying the command path for the usage line.
    func usageError(_ message: String) -> UsageError {
        UsageError(message: message, commandPath: commandPath)
    }

    /// The value of a required option.
    ///
    /// - Throws: ``UsageError`` when the option is absent.
    func required(_ name: String, _ valueName: String) throws(UsageError) -> String {
        guard let v = value(name) else { throw usageError("missing expected argument '--\(name) <\(valueName)>'") }
        return v
    }

    /// The last value of an option converted by `transform`.
    ///
    /// - Parameters:
    ///   - name: The option name.
    ///   - expectation: What a valid value looks like, for the error (`a non-negative integer`).
    ///   - transform: Returns `nil` for an invalid value.
    /// - Returns: The converted value, or `nil` when the option was not given.
    /// - Throws: ``UsageError`` naming the option and the bad value.
    func converted<T>(_ name: String, expecting expectation: String, _ transform: (String) -> T?) throws(UsageError) -> T? {
        guard let raw = value(name) else { return nil }
        guard let v = transform(raw) else {
            throw usageError("the value '\(raw)' is invalid for '--\(name)': expected \(expectation)")
        }
        return v
    }
}
