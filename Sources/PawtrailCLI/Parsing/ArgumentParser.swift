/// Parses a command line against the command tree.
///
/// Rules: the first non-option words select subcommands; options may appear anywhere after the command
/// they belong to (global options anywhere); `--name=value` and `--name value` are the same; `--` ends the
/// options; `-` is an ordinary value (stdin).
struct ArgumentParser: Sendable {
    /// What the command line asks for.
    enum Outcome: Sendable {
        /// Run a verb.
        case run(CommandSpec, ParsedArguments)
        /// Print the help of the command at the end of this path (root first).
        case help([CommandSpec])
    }

    /// The root command (`pawtrail`).
    var root: CommandSpec
    /// Options every command accepts.
    var globalOptions: [OptionSpec] = GlobalOptions.all

    /// Parses arguments (without the program name).
    ///
    /// - Parameter arguments: The words after `pawtrail`.
    /// - Returns: The command to run with its arguments, or a help request.
    /// - Throws: ``UsageError`` for unknown commands and options, missing values, extra or missing positionals.
    func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        var path = [root]
        var values: [String: [String]] = [:]
        var positionals: [String] = []
        var endOfOptions = false
        var i = 0
        let wantsHelp = arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }

        func fail(_ message: String) -> UsageError {
            UsageError(message: message, commandPath: path.map(\.name))
        }

        do throws(UsageError) {
            while i < arguments.count {
                let word = arguments[i]
                i += 1
                if !endOfOptions && word == "--" {
                    endOfOptions = true
                    continue
                }
                if !endOfOptions && word.hasPrefix("-") && word != "-" {
                    let command = path[path.count - 1]
                    let known = command.options + globalOptions
                    var name: String
                    var inline: String?
                    let spec: OptionSpec?
                    if word.hasPrefix("--") {
                        let body = word.dropFirst(2)
                        if let eq = body.firstIndex(of: "=") {
                            name = String(body[..<eq])
                            inline = String(body[body.index(after: eq)...])
                        } else {
                            name = String(body)
                        }
                        spec = known.first { $0.name == name }
                    } else {
                        let body = word.dropFirst()
                        name = String(body)
                        spec = body.count == 1 ? known.first { $0.short == body.first } : nil
                    }
                    guard let spec else {
                        var message = "unknown option '\(word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word)'"
                        let spelled = word.hasPrefix("--") ? name : String(word.dropFirst())
                        if let guess = Suggestion.closest(to: spelled, among: known.map(\.name)) {
                            message += "; did you mean '--\(guess)'?"
                        } else if !command.subcommands.isEmpty {
                            // A group has only the global options: the likely mistake is an option before its verb.
                            message += " (options of a command go after its name, e.g. 'pawtrail log read --all --json')"
                        }
                        throw fail(message)
                    }
                    switch spec.kind {
                    case .flag:
                        guard inline == nil else { throw fail("option '--\(spec.name)' does not take a value") }
                        values[spec.name, default: []].append("")
                    case .value, .repeated:
                        let v: String
                        if let inline {
                            v = inline
                        } else {
                            guard i < arguments.count else { throw fail("missing value for '\(spec.synopsis)'") }
                            v = arguments[i]
                            i += 1
                        }
                        values[spec.name, default: []].append(v)
                    }
                    continue
                }
                let command = path[path.count - 1]
                if positionals.isEmpty && !command.subcommands.isEmpty {
                    if path.count == 1 && word == "help" {
                        return .help(try helpPath(Array(arguments[i...])))
                    }
                    guard let sub = command.subcommand(named: word) else {
                        var message = "unknown command '\(word)' for '\(path.map(\.name).joined(separator: " "))'"
                        if let guess = Suggestion.closest(to: word, among: command.subcommands.map(\.name)) {
                            message += "; did you mean '\(guess)'?"
                        }
                        throw fail(message)
                    }
                    path.append(sub)
                    continue
                }
                positionals.append(word)
            }
        } catch {
            if wantsHelp { return .help(path) }
            throw error
        }

        let command = path[path.count - 1]
        if wantsHelp || command.run == nil { return .help(path) }
        if positionals.count > command.positionals.count, command.positionals.last?.isVariadic != true {
            throw fail("unexpected argument '\(positionals[command.positionals.count])'")
        }
        for (index, p) in command.positionals.enumerated() where p.isRequired && index >= positionals.count {
            throw fail("missing expected argument '<\(p.name)>'")
        }
        return .run(command, ParsedArguments(commandPath: path.map(\.name), values: values, positionals: positionals))
    }

    /// Resolves `pawtrail help log append` to the path of `log append`.
    private func helpPath(_ words: [String]) throws(UsageError) -> [CommandSpec] {
        var path = [root]
        for word in words where !word.hasPrefix("-") {
            let command = path[path.count - 1]
            guard let sub = command.subcommand(named: word) else {
                var message = "unknown command '\(word)' for '\(path.map(\.name).joined(separator: " "))'"
                if let guess = Suggestion.closest(to: word, among: command.subcommands.map(\.name)) {
                    message += "; did you mean '\(guess)'?"
                }
                throw UsageError(message: message, commandPath: path.map(\.name))
            }
            path.append(sub)
        }
        return path
    }
}
