/// The type of one field of an event or a command, as the catalog lists it and the CLI parses it.
public indirect enum FieldKind: Hashable, Sendable, CustomStringConvertible {
    case string
    case int
    case bool
    /// UTC ISO-8601 in JSON and on the command line, microseconds in the log.
    case timestamp
    /// `{"amount": minor units, "currency": "BDT"}` in JSON, `62000 BDT` on the command line.
    case money
    /// One of a closed set of strings.
    case choice([String])
    /// A list of strings (a repeated option on the command line).
    case strings
    /// A list of records with these fields (JSON on the command line).
    case records([FieldDescriptor])
    /// The kind, or absent.
    case optional(FieldKind)

    public var description: String {
        switch self {
        case .string: "string"
        case .int: "int"
        case .bool: "bool"
        case .timestamp: "time"
        case .money: "money"
        case .choice(let cases): cases.joined(separator: "|")
        case .strings: "[string]"
        case .records(let fields): "[{" + fields.map { "\($0.key): \($0.kind)" }.joined(separator: ", ") + "}]"
        case .optional(let kind): "\(kind)?"
        }
    }

    /// Whether the field may be absent.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

/// One field: its key and kind.
public struct FieldDescriptor: Hashable, Sendable {
    /// The key in JSON (`petId`); the command line spells it `--pet-id`.
    public var key: String
    /// The kind.
    public var kind: FieldKind

    /// Creates a descriptor.
    public init(key: String, kind: FieldKind) {
        self.key = key
        self.kind = kind
    }
}
