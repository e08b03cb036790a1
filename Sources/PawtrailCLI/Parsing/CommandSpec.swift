/// A node of the declarative command tree: a group (`log`) with subcommands, or a verb (`append`) that runs.
///
/// The parser and the help generator read only this description, so a command's help can never disagree
/// with what it accepts.
struct CommandSpec: Sendable {
    /// What a verb does once its arguments are parsed.
    typealias Run = @Sendable (CommandContext) async throws -> ExitCode

    /// The word that selects the command (`append`).
    var name: String
    /// One sentence for `OVERVIEW:` and for the parent's `SUBCOMMANDS:` list.
    var abstract: String
    /// Further paragraphs shown after the overview.
    var discussion: String?
    /// A hand-written usage line (without the command path) for commands whose options are alternatives; when
    /// `nil` the usage line is generated from the options.
    var usage: String?
    /// The command's own options (the global ones are added by the parser).
    var options: [OptionSpec]
    /// Positional arguments, in order.
    var positionals: [PositionalSpec]
    /// Subcommands; a command with subcommands and no `run` is a group.
    var subcommands: [CommandSpec]
    /// The verb's behaviour; `nil` for a group, which prints its help when invoked alone.
    var run: Run?

    init(
        name: String, abstract: String, discussion: String? = nil, usage: String? = nil, options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = [], run: Run? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.run = run
    }

    /// The subcommand with a name.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
