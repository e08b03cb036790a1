import EventLog
import PawtrailJSON
import ProjectionRuntime
import Projections

/// `pawtrail view NAME`: any read model, caught up with the log (or as stored, or as of a past moment), as a
/// table for people and JSON for scripts.
enum ViewCommand {
    /// The options every view takes besides its own.
    static let commonOptions: [OptionSpec] = [
        .value("at", "time", help: "Show the read model as it was at this UTC ISO-8601 time (by when events were recorded)."),
        .value("at-position", "n", help: "Show the read model as it was when the log ended at this position."),
        .flag("no-catch-up", help: "Show the stored state without folding newer events."),
        .value(
            "as", "user",
            help: "The reader: shows only what this user may see (their own data; staff: the shop's; admins: all).",
            default: "the store's operator, unless the store requires a reader"),
        .flag("json", help: "Print the result as one JSON object."),
    ]

    static var spec: CommandSpec {
        CommandSpec(
            name: "view", abstract: "Show a read model: a table for people, --json for scripts.",
            subcommands: ProjectionCatalog.views.map { spec(for: $0) })
    }

    /// A view as a verb of another group (`outbox pending` is `view outbox`).
    static func alias<V: ProjectionView>(_ view: V.Type, name: String) -> CommandSpec {
        var spec = spec(for: view)
        spec.name = name
        return spec
    }

    private static func spec<V: ProjectionView>(for view: V.Type) -> CommandSpec {
        CommandSpec(
            name: V.name, abstract: V.summary,
            discussion: "Read model: \(V.Source.name) (schema version \(V.Source.schemaVersion)). \(V.Source.summary)",
            options: V.options.map {
                // An option without a value name is a flag: present means on.
                $0.valueName.isEmpty
                    ? OptionSpec.flag($0.name, help: $0.help)
                    : OptionSpec.value($0.name, $0.valueName, help: $0.help, default: $0.defaultDescription, required: $0.isRequired)
            } + commonOptions,
            run: { context in try await run(V.self, context) })
    }

    /// Where a view is read from.
    enum Moment {
        case live(catchUp: Bool)
        case position(UInt64)
        case time(Timestamp)
    }

    static func moment(_ arguments: ParsedArguments) throws -> Moment {
        let at = try arguments.converted("at", expecting: "a UTC ISO-8601 time") { Timestamp(iso8601: $0) }
        let atPosition = try arguments.converted("at-position", expecting: "a position (a non-negative integer)") { UInt64(decimal: $0) }
        let noCatchUp = arguments.flag("no-catch-up")
        switch (at, atPosition, noCatchUp) {
        case (nil, nil, let noCatchUp): return .live(catchUp: !noCatchUp)
        case (let t?, nil, false): return .time(t)
        case (nil, let p?, false): return .position(p)
        default: throw arguments.usageError("give at most one of '--at', '--at-position' and '--no-catch-up'")
        }
    }

    /// A projection's state at a moment, with a sentence saying which. A keyed projection's state reads the rows a
    /// view asks for as it renders (see ``ProjectionEngine/Loaded/checkReads()``).
    static func state<P: Projection>(_ type: P.Type, _ moment: Moment, _ engine: ProjectionEngine) async throws
        -> (loaded: ProjectionEngine.Loaded<P.State>, note: String)
    {
        switch moment {
        case .live(let catchUp):
            let loaded = try await engine.load(P.self, catchUp: catchUp)
            let at = loaded.position.map { "position \($0)" } ?? "an empty log"
            let how = loaded.rebuilt ? "built from the log" : catchUp ? "caught up" : "as stored, not caught up"
            return (loaded, "\(P.name) at \(at) (\(how))")
        case .position(let p):
            let last = try await engine.store.lastPosition()
            let loaded = try await engine.load(P.self, atPosition: p)
            return (loaded, "\(P.name) as of position \(p)" + (last.map { $0 < p } ?? true ? " (the log ends at \(last.map(String.init) ?? "nothing"))" : ""))
        case .time(let t):
            guard let p = try await engine.position(atOrBefore: t) else {
                return (ProjectionEngine.Loaded(state: P.State(), position: nil, caughtUp: 0, rebuilt: false), "\(P.name) as of \(t.iso8601Compact): the log was empty then")
            }
            return (try await engine.load(P.self, atPosition: p), "\(P.name) as of \(t.iso8601Compact) (position \(p))")
        }
    }

    @Sendable static func run<V: ProjectionView>(_ view: V.Type, _ context: CommandContext) async throws -> ExitCode {
        var values: [String: String] = [:]
        for option in V.options {
            if option.valueName.isEmpty {
                if context.arguments.flag(option.name) { values[option.name] = "" }
            } else if let v = context.arguments.value(option.name) {
                values[option.name] = v
            }
        }
        let moment = try moment(context.arguments)
        // One store opened per command: opening a file store scans its active segment.
        let engine = try await ProjectionsCommand.engine(context)
        let viewer = try await ViewReader.viewer(context, engine: engine)
        var (loaded, note) = try await state(V.Source.self, moment, engine)
        var arguments = ViewArguments(values)
        if let viewer {
            let audience: ViewAudience
            do { audience = try V.audience(loaded.state, arguments) } catch { throw context.arguments.usageError(error.description) }
            guard audience.admits(viewer) else {
                // Who may read it is not said: for an order, pet or conversation it would name the owner, or tell that
                // the id names nothing.
                throw CommandFailure(kind: .forbidden, message: "'\(viewer.userID)' may not read this view")
            }
        }
        // An order or a search by personal values: the personal index answers it, as of the state's position.
        let indexQuery: PersonalIndexQuery?
        do { indexQuery = try V.personalIndexQuery(arguments) } catch { throw context.arguments.usageError(error.description) }
        var index: (any PersonalIndex)?
        if let indexQuery { (arguments.personalIndex, index) = try await engine.answer(indexQuery, asOf: loaded.position) }
        var rendered = Result { () throws(ViewError) in try V.render(loaded.state, arguments) }
        // A stored row found damaged as the view read it: the read model is folded anew and the view read again (a
        // damaged row reads as missing, so nothing rendered from it is shown).
        if let damage = loaded.readFailure {
            let repaired = try await engine.repair(V.Source.self, damage: damage)
            if case .live = moment { loaded = repaired } else { (loaded, note) = try await state(V.Source.self, moment, engine) }
            loaded.repaired = repaired.repaired
            rendered = Result { () throws(ViewError) in try V.render(loaded.state, arguments) }
            try loaded.checkReads()
        }
        if let diverged = loaded.diverged {
            context.err("Note: the stored read model '\(V.Source.name)' does not belong to this log (\(diverged)); it was rebuilt from the log")
        }
        if let repaired = loaded.repaired {
            context.err("Note: the stored read model '\(V.Source.name)' was damaged (\(repaired)); it was folded anew from the log")
        }
        let output: ViewOutput
        switch rendered {
        case .success(let o): output = o
        case .failure(let error):
            switch error {
            case .missing, .invalid: throw context.arguments.usageError(error.description)
            case .notFound: throw CommandFailure(kind: .notFound, message: error.description)
            }
        }
        let position = loaded.position
        // What was folded is shown either way; that it could not be kept is worth one line.
        // On a replica nothing is saved by design: the primary's readers keep the states, or --state-dir does.
        if let saveError = loaded.saveError, loaded.caughtUp > 0 || loaded.rebuilt, context.readStorePath == nil || context.stateDirectory != nil {
            context.err("Note: the caught-up read model was not saved (\(saveError)); the next read folds these events again")
        }
        // Read models that keep personal values as tokens: the view shows the values, opened from the log.
        let resolver = PersonalValueResolver(store: engine.store, index: index)
        if context.wantsJSON {
            context.out(
                JSONValue.object([
                    "view": .string(V.name), "projection": .string(V.Source.name),
                    "schemaVersion": .int(Int64(V.Source.schemaVersion)), "position": .uint(position),
                    "data": try await resolver.resolve(output.json),
                ]))
        } else {
            try await render(output, note: note, resolver, context)
        }
        return .success
    }

    static func render(_ output: ViewOutput, note: String, _ resolver: PersonalValueResolver, _ context: CommandContext) async throws {
        context.out("\(try await resolver.resolve(output.title)) — \(note)")
        let rows = try await resolver.resolve(output.rows)
        if rows.isEmpty {
            context.out("  (none)")
        } else {
            TextTable.render([output.header] + rows, rightAligned: output.rightAligned).forEach { context.out($0) }
        }
        for line in output.footer { context.out(try await resolver.resolve(line)) }
    }
}
