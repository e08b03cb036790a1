import EventLog
import Events
import Foundation
import PawtrailJSON
import ProjectionExport
import ProjectionRuntime
import Projections
#if canImport(Glibc)
import Glibc
#endif

/// `pawtrail projections status|rebuild|audit|export`.
enum ProjectionsCommand {
    static let spec = CommandSpec(
        name: "projections",
        abstract: "Check, rebuild, audit and export the read models.",
        subcommands: [statusSpec, rebuildSpec, auditSpec, exportSpec])

    /// The read models of the store a read verb reads (``CommandContext/openForReading()``).
    static func engine(_ context: CommandContext) async throws -> ProjectionEngine {
        try engine(of: try await context.openForReading())
    }

    /// The read models of the store itself, for a verb that writes them (a rebuild).
    static func writableEngine(_ context: CommandContext) throws -> ProjectionEngine {
        try engine(of: try context.openStore(.read))
    }

    private static func engine(of opened: OpenedStore) throws -> ProjectionEngine {
        guard let states = opened.states else {
            throw CommandFailure(kind: .failure, message: "this store has no place for read models")
        }
        return ProjectionEngine(store: opened.events, states: states)
    }

    /// The projections a command names: one by name, or all; and whether it names the personal index
    /// (`personal-index`, which `--all` and an audit of everything include). A name given twice counts once: a
    /// rebuild of both would take the projection's lock twice and fail as if another process held it.
    static func selected(_ context: CommandContext, allowAll: Bool) throws -> (projections: [any Projection.Type], personalIndex: Bool) {
        var seen: Set<String> = []
        let names = context.arguments.positionals.filter { seen.insert($0).inserted }
        let all = context.arguments.flag("all")
        let known = ProjectionCatalog.projections.map { $0.name } + [ProjectionEngine.personalIndexName]
        if all && !names.isEmpty { throw context.arguments.usageError("give projection names or '--all', not both") }
        if names.isEmpty {
            guard all || allowAll else {
                throw context.arguments.usageError("name a projection or give '--all' (projections: \(known.joined(separator: ", ")))")
            }
            return (ProjectionCatalog.projections, true)
        }
        let projections = try names.filter { $0 != ProjectionEngine.personalIndexName }.map { name in
            guard let p = ProjectionCatalog.projection(named: name) else {
                let hint = Suggestion.closest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
                throw context.arguments.usageError("unknown projection '\(name)'\(hint)")
            }
            return p
        }
        return (projections, names.contains(ProjectionEngine.personalIndexName))
    }

    // MARK: status

    static let statusSpec = CommandSpec(
        name: "status", abstract: "Each projection's position, lag, schema version and last rebuild.",
        options: [.flag("json", help: "Print JSON Lines, one projection per line.")],
        run: { context in
            let engine = try await engine(context)
            let rows = try await engine.status(ProjectionCatalog.projections)
            let index = try await engine.personalIndexStatus(ProjectionCatalog.personalIndexing)
            if context.wantsJSON {
                for s in rows { context.out(statusJSON(s)) }
                if let index { context.out(statusJSON(index)) }
            } else {
                var table: [[String]] = [["PROJECTION", "VERSION", "POSITION", "LAG", "LAST REBUILD", "TOOK", "KEPT AS", "STORED", "NOTE"]]
                table += rows.map { s in
                        [
                            s.name, String(s.schemaVersion), s.position.map(String.init) ?? "-", String(s.lag),
                            s.rebuiltAt.map { String($0.iso8601.prefix(19)) + "Z" } ?? "never",
                            s.rebuildMicroseconds.map { String(format: "%.2fs", Double($0) / 1e6) } ?? "-",
                            s.keyed ? "rows" : "whole", s.built ? ByteCount.text(s.storedBytes) : "-",
                            (s.built ? "" : "not built (built on first read)")
                                + (s.staleVersions.isEmpty ? "" : " stale v\(s.staleVersions.map(String.init).joined(separator: ",v")) kept until rebuilt"),
                        ]
                    }
                if let i = index {
                    let note: String
                    if let stored = i.storedVersion {
                        note = i.built ? "" : "of version \(stored), made again on the next read"
                    } else {
                        note = "not built (built on first read of the directory)"
                    }
                    let position = i.built ? i.position.map(String.init) ?? "-" : "-"
                    table.append([ProjectionEngine.personalIndexName, String(i.version), position, String(i.lag), "-", "-", "index", "-", note])
                }
                TextTable.render(table, rightAligned: [1, 2, 3, 7]).forEach { context.out($0) }
            }
            return .success
        })

    static func statusJSON(_ s: ProjectionEngine.Status) -> JSONValue {
        let took: JSONValue = s.rebuildMicroseconds.map { .raw(Array(String(format: "%.3f", Double($0) / 1e6).utf8)) } ?? .null
        let rebuiltAt: JSONValue = s.rebuiltAt.map { .string($0.iso8601) } ?? .null
        let pairs: [JSONValue.Pair] = [
            .init(key: "projection", value: .string(s.name)), .init(key: "schemaVersion", value: .int(Int64(s.schemaVersion))),
            .init(key: "built", value: .bool(s.built)), .init(key: "position", value: .uint(s.position)),
            .init(key: "lag", value: .uint(s.lag)), .init(key: "staleVersions", value: .array(s.staleVersions.map { .int(Int64($0)) })),
            .init(key: "rebuiltAt", value: rebuiltAt), .init(key: "rebuildSeconds", value: took),
            .init(key: "eventsApplied", value: .int(s.eventsApplied)), .init(key: "keptAs", value: .string(s.keyed ? "rows" : "whole")),
            .init(key: "storedVersions", value: .int(Int64(s.storedVersions))), .init(key: "storedBytes", value: .int(Int64(s.storedBytes))),
        ]
        return .object(pairs)
    }

    /// The personal index's line of `projections status --json`, with the read models' keys.
    static func statusJSON(_ i: ProjectionEngine.PersonalIndexStatus) -> JSONValue {
        .object([
            .init(key: "projection", value: .string(ProjectionEngine.personalIndexName)), .init(key: "schemaVersion", value: .int(Int64(i.version))),
            .init(key: "built", value: .bool(i.built)), .init(key: "position", value: .uint(i.built ? i.position : nil)),
            .init(key: "lag", value: .uint(i.lag)),
            .init(key: "staleVersions", value: .array(i.storedVersion.flatMap { $0 == i.version ? nil : [.int(Int64($0))] } ?? [])),
            .init(key: "rebuiltAt", value: .null), .init(key: "rebuildSeconds", value: .null), .init(key: "eventsApplied", value: .int(0)),
            .init(key: "keptAs", value: .string("index")), .init(key: "storedVersions", value: .int(0)), .init(key: "storedBytes", value: .int(0)),
        ])
    }

    // MARK: rebuild

    static let rebuildSpec = CommandSpec(
        name: "rebuild", abstract: "Rebuild projections from scratch, on every core (one pass over the log per thread).",
        discussion: "On a terminal a progress bar with the rate and time left goes to standard error.",
        usage: "[--store <path>] (<name> ... | --all) [--threads <n>] [--json]",
        options: [
            .flag("all", help: "Rebuild every projection, and the personal index where the store keeps one."),
            .value("threads", "n", help: "Fold on at most this many threads (1 to 64), one pass over the log each.", default: "one per core, at most four"),
            .flag("json", help: "Print the result as JSON."),
        ],
        positionals: [PositionalSpec(name: "name", help: "A projection to rebuild (any number), or personal-index.", isRequired: false, isVariadic: true)],
        run: { context in
            let (types, withIndex) = try selected(context, allowAll: false)
            let bar = ProgressBar(enabled: isatty(2) == 1 && !context.wantsJSON, console: context.console)
            var engine = try writableEngine(context)
            if let threads = try context.arguments.converted("threads", expecting: "a number of threads from 1 to 64", { Int($0).flatMap { (1...64).contains($0) ? $0 : nil } }) {
                engine.foldThreads = threads
            }
            let clock = ContinuousClock()
            let started = clock.now
            var rebuilt: [String] = []
            var eventsRead = 0
            var lastPosition: UInt64?
            if !types.isEmpty {
                let result = try await engine.rebuild(types) { bar.update($0) }
                (rebuilt, eventsRead, lastPosition) = (result.projections, result.eventsRead, result.lastPosition)
            }
            bar.finish()
            if try personalIndexIncluded(withIndex, context, engine) {
                let end = try await engine.rebuildPersonalIndex(ProjectionCatalog.personalIndexing)
                rebuilt.append(ProjectionEngine.personalIndexName)
                if types.isEmpty { eventsRead = end.map { Int($0) + 1 } ?? 0 }
                lastPosition = lastPosition ?? end
            }
            let elapsed = clock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let rate = seconds > 0 ? Double(eventsRead) / seconds : 0
            if context.wantsJSON {
                context.out(
                    JSONValue.object([
                        "projections": .array(rebuilt.map { .string($0) }), "eventsRead": .int(Int64(eventsRead)),
                        "position": .uint(lastPosition), "seconds": .raw(Array(String(format: "%.3f", seconds).utf8)),
                        "eventsPerSecond": .int(Int64(rate)),
                    ]))
            } else {
                context.out(
                    "Rebuilt \(rebuilt.joined(separator: ", ")): \(eventsRead) events read to position "
                        + "\(lastPosition.map(String.init) ?? "-") in \(String(format: "%.2f", seconds)) s (\(Int(rate)) events/s)")
            }
            return .success
        })

    // MARK: audit

    static let auditSpec = CommandSpec(
        name: "audit", abstract: "Rebuild projections from scratch beside their live states and report every difference by key.",
        discussion: "Exits 1 when any projection differs.",
        usage: "[--store <path>] [<name> ...] [--json]",
        options: [.flag("json", help: "Print JSON Lines, one projection per line.")],
        positionals: [PositionalSpec(name: "name", help: "A projection to audit (any number), or personal-index; default: all, and the personal index.", isRequired: false, isVariadic: true)],
        run: { context in
            let engine = try await engine(context)
            var differing = 0
            let (types, withIndex) = try selected(context, allowAll: true)
            let index = try personalIndexIncluded(withIndex, context, engine)
            var audits: [() async throws -> ProjectionEngine.Audit?] = types.map { type in { try await audit(type, engine) } }
            if index { audits.append { try await engine.auditPersonalIndex(ProjectionCatalog.personalIndexing) } }
            for next in audits {
                guard let audit = try await next() else { continue }
                if !audit.differences.isEmpty { differing += 1 }
                if context.wantsJSON {
                    context.out(
                        JSONValue.object([
                            "projection": .string(audit.projection), "position": .uint(audit.position),
                            "keysCompared": .int(Int64(audit.keysCompared)), "ok": .bool(audit.differences.isEmpty),
                            "differences": .array(
                                audit.differences.map {
                                    .object(["key": .string($0.key), "live": .string($0.live), "rebuilt": .string($0.rebuilt)])
                                }),
                        ]))
                } else if audit.differences.isEmpty {
                    context.out("\(audit.projection): ok (\(audit.keysCompared) keys equal at position \(audit.position.map(String.init) ?? "-"))")
                } else {
                    context.out("\(audit.projection): \(audit.differences.count) differences at position \(audit.position.map(String.init) ?? "-")")
                    for d in audit.differences.prefix(50) {
                        context.out("  \(d.key): live \(d.live ?? "(missing)"), rebuilt \(d.rebuilt ?? "(missing)")")
                    }
                    if audit.differences.count > 50 { context.out("  ... and \(audit.differences.count - 50) more (--json lists all)") }
                }
            }
            return differing == 0 ? .success : .failure
        })

    /// Whether a rebuild or an audit takes in the personal index: named, it must be kept by the store; with every
    /// projection (`--all`, or an audit of everything), where the store keeps one.
    static func personalIndexIncluded(_ selected: Bool, _ context: CommandContext, _ engine: ProjectionEngine) throws -> Bool {
        guard selected else { return false }
        if try engine.keepsPersonalIndex() { return true }
        guard context.arguments.positionals.isEmpty else {
            throw CommandFailure(kind: .failure, message: "this store keeps no personal index: views make one in memory as they need it")
        }
        return false
    }

    static func audit(_ type: any Projection.Type, _ engine: ProjectionEngine) async throws -> ProjectionEngine.Audit {
        try await type.audited(by: engine)
    }

    // MARK: export

    static let exportSpec = CommandSpec(
        name: "export", abstract: "Write the read models (caught up) as SQLite tables.",
        discussion: "A file already at the path is left as it is unless --replace is given; a directory, device, FIFO or symbolic link there is never replaced.",
        usage: "[--store <path>] --sqlite <file> [--replace]",
        options: [
            .value("sqlite", "file", help: "The SQLite database to write (a new file).", required: true),
            .flag("replace", help: "Replace the database file if one is there."),
        ],
        run: { context in
            let path = try context.arguments.required("sqlite", "file")
            let engine = try await engine(context)
            var tables: [SQLiteExport.Table] = []
            for type in ProjectionCatalog.projections {
                tables += try await type.exportTables(engine)
            }
            let rows: Int
            do {
                rows = try SQLiteExport.write(tables, to: path, replace: context.arguments.flag("replace"))
            } catch let error as SQLiteExportError {
                throw CommandFailure(kind: .failure, message: error.message)
            }
            context.out("Wrote \(tables.count) tables (\(rows) rows) of \(ProjectionCatalog.projections.count) read models to \(path)")
            return .success
        })
}

extension Projection {
    /// Audits this projection (a static member, so the CLI calls it on a type it found by name).
    static func audited(by engine: ProjectionEngine) async throws -> ProjectionEngine.Audit {
        try await engine.audit(Self.self)
    }

    /// This projection's caught-up state as SQLite tables.
    static func exportTables(_ engine: ProjectionEngine) async throws -> [SQLiteExport.Table] {
        let loaded = try await engine.load(Self.self)
        var state = JSONFieldWriter.json(loaded.state)
        // The export shows values, as views do: the tokens a read model keeps are opened from the log.
        if foldsPersonalReferences { state = try await PersonalValueResolver(store: engine.store).resolve(state) }
        return SQLiteExport.tables(name: name, state: state)
    }
}

/// A progress bar on standard error: done/total, rate and time left; nothing when not on a terminal.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let console: any Console
    private var last = ContinuousClock.now
    private var drawn = false

    init(enabled: Bool, console: any Console) {
        self.enabled = enabled
        self.console = console
    }

    func update(_ p: ProjectionEngine.Progress) {
        guard enabled, ContinuousClock.now - last > .milliseconds(100) else { return }
        last = ContinuousClock.now
        let total = Double(p.lastPosition + 1)
        let done = Double(p.position + 1)
        let fraction = min(1, done / total)
        let seconds = Double(p.elapsed.components.seconds) + Double(p.elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(p.eventsRead) / seconds : 0
        let eta = rate > 0 ? (total - done) / max(1, done / seconds) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        console.write(
            "\r[\(bar)] \(String(format: "%3.0f", fraction * 100))%  \(Int(done))/\(Int(total))  \(Int(rate)) events/s  ETA \(String(format: "%.0f", eta)) s ",
            to: .standardError)
        drawn = true
    }

    func finish() {
        if drawn { console.write("\r" + String(repeating: " ", count: 100) + "\r", to: .standardError) }
    }
}
