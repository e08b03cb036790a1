import EventLog
import PawtrailDomain
import PawtrailJSON

/// Everything a verb needs: its parsed arguments, where to print, the environment and how to open the store.
struct CommandContext: Sendable {
    /// The parsed command line.
    var arguments: ParsedArguments
    /// Where output goes.
    var console: any Console
    /// The process environment (for `$PAWTRAIL_STORE`).
    var environment: [String: String]
    /// Opens the store.
    var storeOpener: any StoreOpener
    /// What the process cost, for `--stats`.
    var stats = CommandStats()

    /// `--store`, else `$PAWTRAIL_STORE`, else `./pawtrail-data`.
    var storePath: String {
        if let p = arguments.value(GlobalOptions.store.name) { return p }
        if let p = environment[GlobalOptions.storeEnvironmentVariable], !p.isEmpty { return p }
        return GlobalOptions.defaultStorePath
    }

    /// `--read-store`, else `$PAWTRAIL_READ_STORE`, else `nil`: the replica read verbs read from.
    var readStorePath: String? {
        if let p = arguments.value(GlobalOptions.readStore.name) { return p }
        if let p = environment[GlobalOptions.readStoreEnvironmentVariable], !p.isEmpty { return p }
        return nil
    }

    /// `--state-dir`, else `$PAWTRAIL_STATE_DIR`, else `nil` (the read models live in the store).
    var stateDirectory: String? {
        if let p = arguments.value(GlobalOptions.stateDirectory.name) { return p }
        if let p = environment[GlobalOptions.stateDirectoryEnvironmentVariable], !p.isEmpty { return p }
        return nil
    }

    /// Whether `--json` was given.
    var wantsJSON: Bool { arguments.flag("json") }

    /// Prints a line on standard output.
    func out(_ line: String) {
        console.write(line + "\n", to: .standardOutput)
    }

    /// Prints a JSON value as one line on standard output.
    func out(_ json: JSONValue) {
        out(json.serialized)
    }

    /// Prints a line on standard error.
    func err(_ line: String) {
        console.write(line + "\n", to: .standardError)
    }

    /// Opens the store and warns once on stderr when opening repaired it.
    ///
    /// - Parameter access: Read or write.
    /// - Returns: The store.
    /// - Throws: ``UsageError`` for `--store ''` (which read as "no store at  " or "mkdir failed for :"); the
    ///   opener's errors.
    func openStore(_ access: StoreAccess) throws -> OpenedStore {
        guard !storePath.isEmpty else {
            throw arguments.usageError("the value '' is invalid for '--store': expected the store directory's path")
        }
        let start = ContinuousClock.now
        var opened = try storeOpener.open(location: storePath, access: access)
        stats.opened(after: ContinuousClock.now - start)
        if let recovery = opened.recovery { err("Warning: \(recovery)") }
        if let directory = stateDirectory { opened.states = try LocalStateDirectory.states(at: directory) }
        return opened
    }

    /// Opens the store a read verb reads: the replica of `--read-store` when one is named (after waiting for it to
    /// catch up with the store, with `--read-your-writes`), else the store.
    ///
    /// - Returns: The store to read.
    /// - Throws: ``UsageError`` for an empty `--read-store`, or `--read-your-writes` without one;
    ///   ``EventStoreError/Code/timedOut`` when the replica does not catch up in time; the opener's errors.
    func openForReading() async throws -> OpenedStore {
        guard let replica = readStorePath else {
            if arguments.flag(GlobalOptions.readYourWrites.name) {
                throw arguments.usageError("'--read-your-writes' needs a replica to read from: give '--read-store' too")
            }
            return try openStore(.readWhenNeeded)
        }
        guard !replica.isEmpty else { throw arguments.usageError("the value '' is invalid for '--read-store': expected a replica's URL") }
        // The store's head first: every event acknowledged before this command started is below it.
        let target = arguments.flag(GlobalOptions.readYourWrites.name) ? try await openStore(.readWhenNeeded).events.lastPosition() : nil
        let start = ContinuousClock.now
        var opened = try storeOpener.open(location: replica, access: .readWhenNeeded)
        stats.opened(after: ContinuousClock.now - start)
        if let directory = stateDirectory { opened.states = try LocalStateDirectory.states(at: directory) }
        if let target { try await ReplicaWait(replica: opened.events, timeout: .seconds(10)).until(target) }
        return opened
    }

    /// The handler domain commands run through: on the store at the path when there is one, with its snapshots; else
    /// on an empty stand-in whose first append creates the store (``StoreCreatedOnFirstAppend``), so that a command
    /// that fails leaves no store behind. An existing store is opened with read access, which appends as well (the
    /// access decides only whether a missing store is created, and a command's appends are always flushed).
    ///
    /// - Parameter cache: States kept between the commands of this process (`exec`), `nil` for none.
    /// - Returns: The handler.
    /// - Throws: ``UsageError`` for `--store ''`; the opener's errors but `storeNotFound`.
    func commandHandler(cache: StateCache? = nil) throws -> CommandHandler {
        try commandStore(cache: cache).handler
    }

    /// ``commandHandler(cache:)`` with the store it runs on, for a command that goes on to use the store's other
    /// parts (an account's erasure: its snapshots and read models), so that the store is opened once; `nil` when no
    /// store is there yet (the first append creates it).
    func commandStore(cache: StateCache? = nil) throws -> (handler: CommandHandler, opened: OpenedStore?) {
        do {
            let opened = try openStore(.read)
            return (CommandHandler(store: opened.events, snapshots: opened.snapshots, cache: cache), opened)
        } catch EventStoreError.Code.storeNotFound {
            let context = self
            let created = StoreCreatedOnFirstAppend { try context.openStore(.write(sync: true)) }
            return (CommandHandler(store: created, snapshots: created.snapshots, cache: cache), nil)
        }
    }

    /// The file-level operations, or a failure when the store has none.
    func maintenance(of store: OpenedStore) throws -> any LogMaintenance {
        guard let m = store.maintenance else {
            throw CommandFailure(kind: .failure, message: "this store has no files to inspect")
        }
        return m
    }
}
