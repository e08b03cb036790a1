import PawtrailJSON

/// `pawtrail log compact`: rewrites sealed segments into large compressed blocks.
enum LogCompactCommand {
    static let spec = CommandSpec(
        name: "compact",
        abstract: "Rewrite sealed segments not yet compacted into large compressed blocks.",
        options: [.flag("json", help: "Print the segments rewritten as JSON.")],
        run: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let store = try context.openStore(.read)
        let rewritten = try context.maintenance(of: store).compact()
        if context.wantsJSON {
            context.out(JSONValue.object(["compacted": .array(rewritten.map { .string($0) })]))
        } else if rewritten.isEmpty {
            context.out("Nothing to compact: every sealed segment is already compacted.")
        } else {
            let n = rewritten.count
            context.out("Compacted \(n) segment\(n == 1 ? "" : "s"): \(rewritten.joined(separator: ", ")).")
        }
        return .success
    }
}
