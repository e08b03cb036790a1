import PawtrailJSON

/// `pawtrail log compact`: rewrites sealed segments into large compressed blocks and merges their indexes into index
/// runs (the upkeep a writer does in the background, done now).
enum LogCompactCommand {
    static let spec = CommandSpec(
        name: "compact",
        abstract: "Rewrite sealed segments not yet compacted into large compressed blocks, and merge their indexes into index runs.",
        options: [.flag("json", help: "Print the segments rewritten and the index runs as JSON.")],
        run: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let store = try context.openStore(.read)
        let maintenance = try context.maintenance(of: store)
        let rewritten = try maintenance.compact()
        let stats = try maintenance.stats()
        if context.wantsJSON {
            context.out(JSONValue.object([
                "compacted": .array(rewritten.map { .string($0) }), "indexRuns": .int(Int64(stats.indexRuns)),
                "indexedSegments": .int(Int64(stats.indexedSegments)),
            ]))
            return .success
        }
        if rewritten.isEmpty {
            context.out("Nothing to compact: every sealed segment is already compacted.")
        } else {
            let n = rewritten.count
            context.out("Compacted \(n) segment\(n == 1 ? "" : "s"): \(rewritten.joined(separator: ", ")).")
        }
        let runs = stats.indexRuns
        context.out("\(runs) index run\(runs == 1 ? "" : "s") over \(stats.indexedSegments) sealed segment\(stats.indexedSegments == 1 ? "" : "s").")
        return .success
    }
}
