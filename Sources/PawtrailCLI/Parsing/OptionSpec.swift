/// One named option of a command: a flag (`--json`), an option with a value (`--stream ID`), or a repeatable
/// option with a value (`--meta KEY=VALUE`, given any number of times).
struct OptionSpec: Sendable, Hashable {
    /// How an option takes values.
    enum Kind: Sendable, Hashable {
        /// Present or absent, never a value.
        case flag
        /// One value; given twice, the last one wins (as swift-argument-parser does).
        case value
        /// Any number of values, in the order given.
        case repeated
    }

    /// The long name without the leading dashes (`stream` for `--stream`).
    var name: String
    /// The one-letter name (`h` for `-h`), if any.
    var short: Character?
    /// How the option takes values.
    var kind: Kind
    /// The placeholder shown in help (`id` for `--stream <id>`); unused for flags.
    var valueName: String
    /// One line of help.
    var help: String
    /// What applies when the option is absent, shown as `(default: ...)`.
    var defaultDescription: String?
    /// Shown without brackets in the generated usage line. The parser does not enforce it: a command checks
    /// what it requires, because some requirements are alternatives (`--data` or `--data-file`).
    var isRequired: Bool

    /// Creates a flag.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .flag, valueName: "", help: help, defaultDescription: nil, isRequired: false)
    }

    /// Creates an option that takes one value.
    static func value(
        _ name: String, _ valueName: String, help: String, default defaultDescription: String? = nil, required: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: nil, kind: .value, valueName: valueName, help: help, defaultDescription: defaultDescription,
            isRequired: required)
    }

    /// Creates an option that may be given any number of times.
    static func repeated(_ name: String, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, kind: .repeated, valueName: valueName, help: help, defaultDescription: nil, isRequired: false)
    }

    /// The spelling used in messages and usage lines: `--stream <id>` or `--json`.
    var synopsis: String {
        kind == .flag ? "--\(name)" : "--\(name) <\(valueName)>"
    }

    /// The label of the help's OPTIONS list: `-h, --help` or `--stream <id>`.
    var helpLabel: String {
        short.map { "-\($0), \(synopsis)" } ?? synopsis
    }
}
