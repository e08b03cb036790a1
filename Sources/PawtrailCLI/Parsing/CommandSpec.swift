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
    var discussion: String? { details().discussion }
    /// A hand-written usage line (without the command path) for commands whose options are alternatives; when
    /// `nil` the usage line is generated from the options.
    var usage: String?
    /// The command's own options (the global ones are added by the parser).
    var options: [OptionSpec] { details().options }
    /// Makes the discussion and the options: the domain's verbs derive them from their commands' fields, which only
    /// the verb a process runs (or helps with) needs, so they are made when asked, not for every verb at start-up.
    private let details: @Sendable () -> (discussion: String?, options: [OptionSpec])
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
        self.init(
            name: name, abstract: abstract, usage: usage, details: { (discussion, options) }, positionals: positionals,
            subcommands: subcommands, run: run)
    }

    /// A command whose discussion and options are made when first asked for (see ``options``).
    init(
        name: String, abstract: String, usage: String? = nil, details: @escaping @Sendable () -> (discussion: String?, options: [OptionSpec]),
        positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = [], run: Run? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.details = details
        self.positionals = positionals
        self.subcommands = subcommands
        self.run = run
    }

    /// The subcommand with a name.
    func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }
}
