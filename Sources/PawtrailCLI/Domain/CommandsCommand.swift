import PawtrailDomain
import PawtrailJSON

/// `pawtrail commands list`: every domain command with its fields, for people and for scripts that write
/// JSON Lines for `pawtrail exec`.
enum CommandsCommand {
    static let spec = CommandSpec(
        name: "commands",
        abstract: "Show the domain's commands.",
        subcommands: [
            CommandSpec(
                name: "list",
                abstract: "List every domain command with its fields.",
                options: [.flag("json", help: "Print JSON Lines, one command per line.")],
                run: run)
        ])

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let commands = CommandCatalog.all
        if context.wantsJSON {
            for c in commands {
                context.out(
                    JSONValue.object([
                        "command": .string(c.name), "summary": .string(c.summary),
                        "guestsAllowed": .bool(c.allowsGuests),
                        "fields": .array(
                            c.fields.map { .object(["name": .string($0.key), "type": .string($0.kind.description)]) }),
                    ]))
            }
        } else {
            let rows = [["COMMAND", "FIELDS", "SUMMARY"]]
                + commands.map { c in
                    [c.name, c.fields.map { "\($0.key): \($0.kind)" }.joined(separator: ", "), c.summary]
                }
            TextTable.render(rows, rightAligned: []).forEach(context.out)
        }
        return .success
    }
}
