import EventLog
import Events
import PawtrailJSON
import ProjectionRuntime
import Projections

/// `pawtrail order history ORDER_ID` and `pawtrail log read --stream ID --at TIME`: a stream's story up to a moment.
enum StoryCommand {
    static let orderHistorySpec = CommandSpec(
        name: "history",
        abstract: "Tell one order's story: each event with its position, time, actor, causing command and what it changed.",
        options: [
            .value("at", "time", help: "The story up to this UTC ISO-8601 time (by when events were recorded)."),
            .value("at-position", "n", help: "The story up to this position."),
            .value(
                "as", "user", help: "The reader: the order's customer or the shop's staff.",
                default: "the store's operator, unless the store requires a reader"),
            .flag("json", help: "Print JSON Lines, one event per line."),
        ],
        positionals: [PositionalSpec(name: "order-id", help: "The order (o-...).")],
        run: { context in
            guard let id = context.arguments.positionals.first else {
                throw context.arguments.usageError("missing expected argument '<order-id>'")
            }
            let stream = StreamID(unchecked: "order-" + id)
            try EventLimits.validateStreamID(stream.rawValue)
            return try await tell(
                stream, title: "Order \(id)", notFound: "no order '\(id)'", context, state: orderState(id), audience: orderAudience)
        })

    /// Who may read an order's story: its customer and the shop's staff; a stream that is no order's, staff only.
    static func orderAudience(_ events: [RecordedEvent]) -> ViewAudience {
        for e in events where e.type == OrderPlaced.eventType {
            if let placed = try? EventCatalog.domain.decode(type: e.type, data: e.data) as? OrderPlaced {
                return .userAndStaff(placed.customerId)
            }
        }
        return .staff
    }

    /// An order's state after its events so far, as the orders read model sees it (status, lines, totals,
    /// delivery, timeline), so the story shows what each event changed in the order.
    static func orderState(_ id: String) -> StreamStory.StateFunction {
        { events in
            let projected = try events.compactMap { e -> ProjectedEvent? in
                guard let event = try EventCatalog.domain.decode(type: e.type, data: e.data) else { return nil }
                return ProjectedEvent(position: e.position, stream: e.stream, recordedAt: e.recordedAt, metadata: e.metadata, event: event)
            }
            let state = try OrdersProjection.folded(projected)
            let prefix = "orders[\(id)]."
            var out: [String: String] = [:]
            for (k, v) in StateFlattener.flatten(JSONFieldWriter.json(state)) where k.hasPrefix(prefix) {
                out[String(k.dropFirst(prefix.count))] = v
            }
            return out
        }
    }

    /// Prints the story of a stream up to the moment the options name (default: now).
    static func tell(
        _ stream: StreamID, title: String, notFound: String? = nil, _ context: CommandContext,
        state: StreamStory.StateFunction = StreamStory.mergedFields, audience: (([RecordedEvent]) -> ViewAudience)? = nil
    ) async throws -> ExitCode {
        let at = try context.arguments.converted("at", expecting: "a UTC ISO-8601 time") { Timestamp(iso8601: $0) }
        let atPosition = try context.arguments.converted("at-position", expecting: "a position (a non-negative integer)") { UInt64(decimal: $0) }
        if at != nil && atPosition != nil { throw context.arguments.usageError("give '--at' or '--at-position', not both") }
        let store = try await context.openForReading().events
        let viewer = audience == nil ? nil : try await ViewReader.viewer(context, store: store)
        var end: UInt64? = atPosition
        if let at { end = try await store.lastPosition(atOrBefore: at) }
        var events: [RecordedEvent] = []
        if at == nil || end != nil {
            try await store.forEachPage(.stream(stream)) { page in
                for e in page where end.map({ e.position <= $0 }) ?? true { events.append(e) }
                return true
            }
        }
        if let viewer, let audience {
            // The events read hold the order's placing whenever it came before the moment asked for; before it, the
            // stream's first event says whose the order is.
            var judged = events
            if judged.isEmpty, end != nil {
                try await store.forEachPage(.stream(stream)) { page in
                    judged.append(contentsOf: page.prefix(1))
                    return false
                }
            }
            let readers = audience(judged)
            guard readers.admits(viewer) else {
                throw CommandFailure(kind: .forbidden, message: "'\(viewer.userID)' may not read this order's history")
            }
        }
        if events.isEmpty, let notFound, at == nil, atPosition == nil {
            throw CommandFailure(kind: .notFound, message: notFound)
        }
        let entries = try StreamStory.tell(events, state: state)
        if context.wantsJSON {
            entries.forEach { context.out(StreamStory.json($0)) }
        } else {
            let moment = at.map { "as of \($0.iso8601Compact)" } ?? atPosition.map { "as of position \($0)" } ?? "to now"
            context.out("\(title) — \(entries.count) events, \(moment)")
            entries.flatMap(StreamStory.lines).forEach { context.out($0) }
        }
        return .success
    }
}
