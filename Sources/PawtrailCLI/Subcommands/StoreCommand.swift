import EventLog
import EventLogPostgres
import PawtrailJSON

/// `pawtrail store init|upgrade`: create a store where one is named, and move a server store's tables forward.
enum StoreCommand {
    static let spec = CommandSpec(
        name: "store",
        abstract: "Create a store, and move a PostgreSQL store's tables to this build's layout.",
        subcommands: [initSpec, upgradeSpec])

    private static let location = PositionalSpec(
        name: "location", help: "The store: a directory or a postgresql:// URL (default: --store, $PAWTRAIL_STORE, else ./pawtrail-data).",
        isRequired: false)

    /// The store the command names: its positional location, else `--store` and what follows it.
    private static func named(_ context: CommandContext) -> String {
        context.arguments.positionals.first ?? context.storePath
    }

    /// How a location is shown: a URL without its password.
    private static func shown(_ location: String) -> String {
        StoreOpeners.scheme(of: location) == nil ? location : PostgresEventStore.redacted(location)
    }

    static let initSpec = CommandSpec(
        name: "init", abstract: "Create an empty store, or say that one is there already.",
        discussion: """
            A store is also created by its first append; 'store init' creates it ahead, so that readers and
            several writers can start on an empty one. On PostgreSQL it creates the schema's tables at this build's
            layout version.
            """,
        options: [.flag("json", help: "Print the outcome as JSON.")], positionals: [location],
        run: { context in
            let where_ = named(context)
            guard !where_.isEmpty else { throw context.arguments.usageError("the store's location is empty") }
            var created = false
            do {
                _ = try context.storeOpener.open(location: where_, access: .read)
            } catch EventStoreError.Code.storeNotFound {
                _ = try context.storeOpener.open(location: where_, access: .write(sync: true))
                created = true
            }
            context.storeOpener.finish()
            if context.wantsJSON {
                context.out(JSONValue.object(["store": .string(shown(where_)), "created": .bool(created)]))
            } else {
                context.out(created ? "Created an empty store at \(shown(where_))." : "A store is at \(shown(where_)) already; nothing changed.")
            }
            return .success
        })

    static let upgradeSpec = CommandSpec(
        name: "upgrade", abstract: "Move a PostgreSQL store's tables to the layout this build uses.",
        discussion: """
            Each step runs in a transaction of its own. A file store needs none: each build reads the formats of
            earlier ones and writes its own as it goes. A store of a newer layout than this build knows is refused.
            """,
        options: [.flag("json", help: "Print the versions as JSON.")], positionals: [location],
        run: { context in
            let where_ = named(context)
            guard StoreOpeners.scheme(of: where_) != nil else {
                context.out("\(where_) is a file store: it needs no upgrade (each build reads older formats and writes its own).")
                return .success
            }
            let (from, to) = try PostgresEventStore.upgrade(url: where_)
            if context.wantsJSON {
                context.out(JSONValue.object(["store": .string(shown(where_)), "from": .int(Int64(from)), "to": .int(Int64(to))]))
            } else if from == to {
                context.out("The store at \(shown(where_)) is at schema version \(to), this build's; nothing changed.")
            } else {
                context.out("Moved the store at \(shown(where_)) from schema version \(from) to \(to).")
            }
            return .success
        })
}
