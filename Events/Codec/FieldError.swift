/// Why a value could not be read from a command line, a JSON object or the log's binary encoding.
public struct FieldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field's key, dotted for nested records (`lines[2].quantity`); empty for the whole value.
    public var field: String
    /// What is wrong (`expected an integer, found a string`).
    public var message: String

    /// Creates an error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String {
        field.isEmpty ? message : "field '\(field)': \(message)"
    }
}
