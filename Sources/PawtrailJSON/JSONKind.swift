/// The kind of a JSON value, as the scanner reports it.
public enum JSONKind: Sendable, Hashable, CustomStringConvertible {
    case object, array, string, number, `true`, `false`, null

    public var description: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .true, .false: "a boolean"
        case .null: "null"
        }
    }
}
