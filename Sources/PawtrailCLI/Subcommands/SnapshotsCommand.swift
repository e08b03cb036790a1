import EventLog
import PawtrailDomain
import PawtrailJSON

/// `pawtrail snapshots status|verify|clear`: the snapshots of stream states that decisions start from.
enum SnapshotsCommand {
    static let spec = CommandSpec(
        name: "snapshots",
        abstract: "Build, check and clear the snapshots of stream states that commands decide from.",
        discussion: """
            A command takes a stream's state up from its snapshot and the events after it, and saves a new snapshot once
            it has folded \(SnapshotPolicy.standard.everyEvents) or more events past the last one. Snapshots are a cache:
            clearing them costs the next commands time, never correctness.
            """,
        subcommands: [statusSpec, buildSpec, verifySpec, clearSpec])

    static func opened(_ context: CommandContext) throws -> (events: any EventStore, snapshots: any SnapshotStore) {
        let opened = try context.openStore(.read)
        guard let snapshots = opened.snapshots else {
            throw CommandFailure(kind: .failure, message: "this store keeps no snapshots")
        }
        return (opened.events, snapshots)
    }

    // MARK: status

    static let statusSpec = CommandSpec(
        name: "status", abstract: "How many snapshots there are of each kind of stream, and their bytes.",
        options: [.flag("json", help: "Print JSON Lines, one kind per line.")],
        run: { context in
            let (_, snapshots) = try opened(context)
            var kinds: [String: (count: Int, bytes: Int)] = [:]
            try await snapshots.forEach { s in
                kinds[s.kind, default: (0, 0)].count += 1
                kinds[s.kind, default: (0, 0)].bytes += s.state.count
                return true
            }
            let rows = kinds.sorted { $0.key < $1.key }
            if context.wantsJSON {
                for (kind, k) in rows {
                    context.out(JSONValue.object(["kind": .string(kind), "snapshots": .int(Int64(k.count)), "stateBytes": .int(Int64(k.bytes))]))
                }
            } else {
                let table = [["KIND", "SNAPSHOTS", "STATE BYTES"]] + rows.map { [$0.key, String($0.value.count), String($0.value.bytes)] }
                TextTable.render(table, rightAligned: [1, 2]).forEach { context.out($0) }
                context.out("\(rows.reduce(0) { $0 + $1.value.count }) snapshots, \(rows.reduce(0) { $0 + $1.value.bytes }) bytes of state")
            }
            return .success
        })

    // MARK: build

    static let buildSpec = CommandSpec(
        name: "build", abstract: "Fold every stream in one pass over the log and save a snapshot of each long one.",
        discussion: """
            For a store whose history came without snapshots (imported with 'log append --batch', restored from a copy
            of the log, or after 'snapshots clear'): the first command on a long stream then starts from its snapshot
            instead of reading the stream's whole history. Snapshots saved replace those of the same streams.
            """,
        options: [
            .value("min-events", "n", help: "Snapshot only streams of at least this many events.", default: "8"),
            .flag("json", help: "Print the result as JSON."),
        ],
        run: { context in
            let minimum =
                try context.arguments.converted("min-events", expecting: "a number of events (a positive integer)") { text -> UInt64? in
                    guard let n = UInt64(decimal: text), n >= 1 else { return nil }
                    return n
                } ?? 8
            let (events, snapshots) = try opened(context)
            let report = try await SnapshotBuilder(store: events, snapshots: snapshots, minimumEvents: minimum).run()
            let folded = report.streamsFolded.values.reduce(0, +)
            if context.wantsJSON {
                context.out(
                    JSONValue.object([
                        "eventsRead": .int(Int64(report.eventsRead)), "streamsFolded": .int(Int64(folded)),
                        "snapshotsSaved": .int(Int64(report.snapshotsSaved)), "stateBytes": .int(Int64(report.stateBytes)),
                    ]))
            } else {
                context.out(
                    "Read \(report.eventsRead) events, folded \(folded) streams, saved \(report.snapshotsSaved) snapshots "
                        + "(\(report.stateBytes) bytes of state) of streams of \(minimum) or more events")
            }
            return .success
        })


    // MARK: verify

    static let verifySpec = CommandSpec(
        name: "verify", abstract: "Check every snapshot against a fresh fold of its stream.",
        discussion: "Exits 1 when a snapshot's state differs from the fold; snapshots a load passes over are counted, not failed.",
        options: [.flag("json", help: "Print the result as JSON.")],
        run: { context in
            let (events, snapshots) = try opened(context)
            let report = try await SnapshotVerifier(store: events, snapshots: snapshots).run()
            let labels: [(SnapshotVerifier.Finding, String, String)] = [
                (.matches, "matches", "match their fold"),
                (.differs, "differs", "differ from their fold"),
                (.passedOverStale, "stale", "no longer fit their stream (passed over)"),
                (.passedOverSchema, "otherSchema", "are of another schema version (passed over)"),
                (.passedOverUndecodable, "undecodable", "do not decode (passed over)"),
                (.unknownKind, "unknownKind", "are of a kind this build does not know"),
            ]
            if context.wantsJSON {
                var pairs: [JSONValue.Pair] = [.init(key: "ok", value: .bool(report.isClean)), .init(key: "snapshots", value: .int(Int64(report.total)))]
                for (finding, key, _) in labels { pairs.append(.init(key: key, value: .int(Int64(report.counts[finding] ?? 0)))) }
                pairs.append(.init(key: "differing", value: .array(report.differing.map { .object(["stream": .string($0.stream.rawValue), "kind": .string($0.kind)]) })))
                context.out(JSONValue.object(pairs))
            } else {
                context.out("\(report.total) snapshots checked (\(report.stateBytes) bytes of state):")
                for (finding, _, sentence) in labels where (report.counts[finding] ?? 0) > 0 || finding == .matches {
                    context.out("  \(report.counts[finding] ?? 0) \(sentence)")
                }
                for d in report.differing { context.out("  differs: \(d.stream) (\(d.kind))") }
            }
            return report.isClean ? .success : .failure
        })

    // MARK: clear

    static let clearSpec = CommandSpec(
        name: "clear", abstract: "Remove every snapshot; later commands fold their streams from the start and save new ones.",
        run: { context in
            let (_, snapshots) = try opened(context)
            var count = 0
            try await snapshots.forEach { _ in count += 1; return true }
            try await snapshots.removeAll()
            context.out("Removed \(count) snapshots")
            return .success
        })
}
