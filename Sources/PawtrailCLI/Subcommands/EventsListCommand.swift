import Events

/// `pawtrail events list`: the event catalog (for now, the types the demo writes).
enum EventsListCommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List the event types of the catalog with their schema versions and fields.",
        options: [.flag("json", help: "Print JSON Lines, one event type per line.")],
        run: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let entries = EventCatalog.demo.entries
        if context.wantsJSON {
            for e in entries {
                context.out(
                    JSONValue.object([
                        "type": .string(e.type), "schemaVersion": .int(Int64(e.schemaVersion)), "area": .string(e.area),
                        "fields": .array(e.fields.map { .string($0) }),
                    ]))
            }
        } else {
            let rows = [["TYPE", "VERSION", "AREA", "FIELDS"]]
                + entries.map { [$0.type, String($0.schemaVersion), $0.area, $0.fields.joined(separator: ", ")] }
            TextTable.render(rows, rightAligned: [1]).forEach(context.out)
        }
        return .success
    }
}
