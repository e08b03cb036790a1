/// `pawtrail events`: the domain's event catalog.
enum EventsCommand {
    static let spec = CommandSpec(
        name: "events",
        abstract: "Show the event catalog.",
        subcommands: [EventsListCommand.spec])
}
