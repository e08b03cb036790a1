/// Renders help in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
struct HelpFormatter: Sendable {
    /// Where descriptions start, counted from the line start (as swift-argument-parser aligns them).
    static let labelColumn = 26

    /// Options every command accepts.
    var globalOptions: [OptionSpec] = GlobalOptions.all

    /// The full help of the command at the end of `path`.
    ///
    /// - Parameter path: The commands from the root to the one described.
    /// - Returns: The help text, ending in a newline.
    func help(for path: [CommandSpec]) -> String {
        let command = path[path.count - 1]
        var out = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion { out += "\n\(discussion)\n" }
        out += "\nUSAGE: \(usage(for: path))\n"
        if !command.positionals.isEmpty {
            out += "\nARGUMENTS:\n"
            for p in command.positionals { out += row("<\(p.name)>", p.help) }
        }
        out += "\nOPTIONS:\n"
        let options = command.subcommands.isEmpty ? [GlobalOptions.store] + command.options + [GlobalOptions.help] : globalOptions
        for o in options {
            var text = o.help
            if let d = o.defaultDescription { text += " (default: \(d))" }
            out += row(o.helpLabel, text)
        }
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for s in command.subcommands { out += row(s.name, s.abstract) }
            if path.count == 1 {
                out += row("help", "Show help for a command.")
            }
            out += "\n  See '\(path[0].name) help <subcommand>' for detailed help.\n"
        }
        return out
    }

    /// The usage line (without `USAGE: `) of the command at the end of `path`.
    func usage(for path: [CommandSpec]) -> String {
        let command = path[path.count - 1]
        let prefix = path.map(\.name).joined(separator: " ")
        if let custom = command.usage { return "\(prefix) \(custom)" }
        if !command.subcommands.isEmpty { return "\(prefix) [--store <path>] <subcommand>" }
        var parts = [prefix, "[--store <path>]"]
        for o in command.options {
            switch o.kind {
            case .flag: parts.append("[\(o.synopsis)]")
            case .value: parts.append(o.isRequired ? o.synopsis : "[\(o.synopsis)]")
            case .repeated: parts.append("[\(o.synopsis) ...]")
            }
        }
        for p in command.positionals { parts.append(p.isRequired ? "<\(p.name)>" : "[<\(p.name)>]") }
        return parts.joined(separator: " ")
    }

    private func row(_ label: String, _ text: String) -> String {
        let indent = "  "
        let width = Self.labelColumn - indent.count
        if label.count < width - 1 {
            return indent + label + String(repeating: " ", count: width - label.count) + text + "\n"
        }
        return indent + label + "\n" + String(repeating: " ", count: Self.labelColumn) + text + "\n"
    }
}
