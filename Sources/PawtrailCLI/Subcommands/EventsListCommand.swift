import PawtrailJSON
import Events

/// `pawtrail events list`: the domain event catalog.
enum EventsListCommand {
    static let spec = CommandSpec(
        name: "list",
        abstract: "List the event types of the catalog with their schema versions and fields.",
        options: [.flag("json", help: "Print JSON Lines, one event type per line.")],
        run: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let entries = EventCatalog.domain.entries
        if context.wantsJSON {
            for e in entries {
                context.out(
                    JSONValue.object([
                        "type": .string(e.type), "schemaVersion": .int(Int64(e.schemaVersion)), "area": .string(e.area),
                        "summary": .string(e.summary),
                        "fields": .array(
                            e.fields.map { .object(["name": .string($0.key), "type": .string($0.kind.description)]) }),
                    ]))
            }
        } else {
            let rows = [["TYPE", "VERSION", "AREA", "FIELDS"]]
                + entries.map {
                    [$0.type, String($0.schemaVersion), $0.area, $0.fields.map { "\($0.key): \($0.kind)" }.joined(separator: ", ")]
                }
            TextTable.render(rows, rightAligned: [1]).forEach(context.out)
        }
        return .success
    }
}
