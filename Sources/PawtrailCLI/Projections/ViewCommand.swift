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
        .flag("json", help: "Print the result as one JSON object."),
    ]

    static var spec: CommandSpec {
        CommandSpec(
            name: "view", abstract: "Show a read model: a table for people, --json for scripts.",
            subcommands: ProjectionCatalog.views.map { spec(for: $0) })
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

    /// The state a view reads at a moment: for a past moment, only the view's own streams when it names them (one
    /// order), else the whole projection from its nearest snapshot.
    static func state<V: ProjectionView>(_ view: V.Type, _ arguments: ViewArguments, _ moment: Moment, _ engine: ProjectionEngine)
        async throws -> (state: V.Source.State, position: UInt64?, note: String)
    {
        let target: UInt64?
        switch moment {
        case .live: return try await state(V.Source.self, moment, engine)
        case .position(let p): target = p
        case .time(let t): target = try await engine.position(atOrBefore: t)
        }
        guard let target else { return try await state(V.Source.self, moment, engine) }
        // The arguments (one order) or the live state (a customer's orders) name the streams; each is then read only
        // up to the moment.
        guard let streams = try await V.scope(arguments, live: { try await engine.load(V.Source.self, catchUp: true).state }) else {
            return try await state(V.Source.self, moment, engine)
        }
        let state = try await engine.state(V.Source.self, streams: streams.map { StreamID(unchecked: $0) }, atPosition: target)
        let effective = try await engine.store.lastPosition().map { min($0, target) }
        let when: String
        if case .time(let t) = moment { when = "as of \(t.iso8601Compact) (position \(target))" } else { when = "as of position \(target)" }
        return (state, effective, "\(V.Source.name) \(when), from its \(streams.count) stream\(streams.count == 1 ? "" : "s")")
    }

    /// A projection's state at a moment, with a sentence saying which.
    static func state<P: Projection>(_ type: P.Type, _ moment: Moment, _ engine: ProjectionEngine) async throws
        -> (state: P.State, position: UInt64?, note: String)
    {
        switch moment {
        case .live(let catchUp):
            let loaded = try await engine.load(P.self, catchUp: catchUp)
            let at = loaded.position.map { "position \($0)" } ?? "an empty log"
            let how = loaded.rebuilt ? "built from the log" : catchUp ? "caught up" : "as stored, not caught up"
            return (loaded.state, loaded.position, "\(P.name) at \(at) (\(how))")
        case .position(let p):
            let last = try await engine.store.lastPosition()
            let effective = last.map { min($0, p) }
            let state = effective == nil ? P.State() : try await engine.state(P.self, atPosition: p)
            return (state, effective, "\(P.name) as of position \(p)" + (effective != p ? " (the log ends at \(last.map(String.init) ?? "nothing"))" : ""))
        case .time(let t):
            guard let p = try await engine.position(atOrBefore: t) else {
                return (P.State(), nil, "\(P.name) as of \(t.iso8601Compact): the log was empty then")
            }
            return (try await engine.state(P.self, atPosition: p), p, "\(P.name) as of \(t.iso8601Compact) (position \(p))")
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
        let engine = try ProjectionsCommand.engine(context)
        let (state, position, note) = try await state(V.self, ViewArguments(values), moment, engine)
        let output: ViewOutput
        do {
            output = try V.render(state, ViewArguments(values))
        } catch {
            switch error {
            case .missing, .invalid: throw context.arguments.usageError(error.description)
            case .notFound: throw CommandFailure(kind: .notFound, message: error.description)
            }
        }
        if context.wantsJSON {
            context.out(
                JSONValue.object([
                    "view": .string(V.name), "projection": .string(V.Source.name),
                    "schemaVersion": .int(Int64(V.Source.schemaVersion)), "position": .uint(position), "data": output.json,
                ]))
        } else {
            render(output, note: note, context)
        }
        return .success
    }

    static func render(_ output: ViewOutput, note: String, _ context: CommandContext) {
        context.out("\(output.title) — \(note)")
        if output.rows.isEmpty {
            context.out("  (none)")
        } else {
            TextTable.render([output.header] + output.rows, rightAligned: output.rightAligned).forEach { context.out($0) }
        }
        output.footer.forEach { context.out($0) }
    }
}
