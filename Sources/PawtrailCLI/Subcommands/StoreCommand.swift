import EventLog
import EventLogPostgres
import PawtrailJSON

/// `pawtrail store init|upgrade`: create a store where one is named, and move a server store's tables forward.
enum StoreCommand {
    static let spec = CommandSpec(
        name: "store",
        abstract: "Create a store, move a PostgreSQL store's tables to this build's layout, and copy a log to another store.",
        subcommands: [initSpec, upgradeSpec, migrateSpec])

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

    static let migrateSpec = CommandSpec(
        name: "migrate", abstract: "Copy every event of one store to another, as recorded, then check the copy event by event.",
        discussion: """
            The copy keeps each event's position, stream version, id, type, time, metadata and data. It goes in
            batches, each written atomically, so a migration that stops (a crash, a kill) resumes where it stopped
            when run again. A destination that already holds events must hold the source's first events exactly, or
            it is refused before anything is written. Either store may be a directory or a PostgreSQL server;
            events one commit of the source recorded at one time stay together in one commit of the copy.
            """,
        options: [
            .value("from", "store", help: "The store to copy: a directory or a postgresql:// URL."),
            .value("to", "store", help: "The store to copy into (created when missing): a directory or a postgresql:// URL."),
            .value("batch", "n", help: "Events copied in each atomic step.", default: "5000"),
            .flag("json", help: "Print the outcome as JSON."),
        ],
        run: { context in
            guard let from = context.arguments.value("from"), let to = context.arguments.value("to") else {
                throw context.arguments.usageError("give the store to copy (--from) and the store to copy into (--to)")
            }
            let batchText = context.arguments.value("batch") ?? "5000"
            guard let batch = Int(batchText), (1...10_000).contains(batch) else {
                throw context.arguments.usageError("--batch must be a number from 1 to 10000, not '\(batchText)'")
            }
            let source = try context.storeOpener.open(location: from, access: .read).events
            let destination = try context.storeOpener.open(location: to, access: .write(sync: true)).events
            defer { context.storeOpener.finish() }
            guard let importer = destination as? any EventImporting else {
                throw CommandFailure(kind: .failure, message: "\(shown(to)) cannot take events as they were recorded")
            }
            let outcome = try await StoreMigration(source: source, destination: importer, batch: batch).run()
            if context.wantsJSON {
                context.out(
                    JSONValue.object([
                        "from": .string(shown(from)), "to": .string(shown(to)), "events": .uint(outcome.events), "copied": .uint(outcome.copied),
                        "verified": .bool(true),
                    ]))
            } else {
                context.out(
                    "Copied \(outcome.copied) events from \(shown(from)) to \(shown(to)) (\(outcome.events - outcome.copied) were there already); "
                        + "all \(outcome.events) checked event by event.")
            }
            return .success
        })
}
