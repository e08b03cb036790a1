import EventLog
import Events
import PawtrailDomain
import PawtrailJSON

/// How a handled command is printed: the events it appended, as lines for people or one JSON object.
enum DomainReport {
    /// `{"ok":true,"command":...,"actor":...,"role":...,"attempts":N,"replayed":B,"events":[{position,stream,version,type,data}]}`.
    static func json(_ outcome: CommandOutcome) -> JSONValue {
        .object([
            "ok": .bool(true),
            "command": .string(outcome.command),
            "actor": .string(outcome.actor.userID),
            "role": .string(outcome.actor.role.rawValue),
            "attempts": .int(Int64(outcome.attempts)),
            "replayed": .bool(outcome.replayed),
            "events": .array(
                outcome.events.map { e in
                    .object([
                        "position": .uint(e.position),
                        "stream": .string(e.stream.rawValue),
                        "version": .uint(e.version),
                        "type": .string(e.event.eventType),
                        "data": JSONFieldWriter.json(e.event),
                    ])
                }),
        ])
    }

    /// A headline and one line per event.
    static func lines(_ outcome: CommandOutcome) -> [String] {
        let who = "\(outcome.command) by \(outcome.actor)"
        guard !outcome.events.isEmpty else { return ["\(who): nothing to change (already done)"] }
        let count = outcome.events.count == 1 ? "1 event" : "\(outcome.events.count) events"
        let retried = outcome.attempts > 1 ? " after \(outcome.attempts - 1) conflict retries" : ""
        var lines = [outcome.replayed ? "\(who): applied before under this command id (\(count), nothing appended now)" : "\(who): appended \(count)\(retried)"]
        for e in outcome.events {
            let head = "  #\(e.position)  \(e.stream)@\(e.version)  \(e.event.eventType)  "
            lines.append(head + EventFormatter.truncated(JSONFieldWriter.json(e.event).serialized, to: max(24, 120 - head.count)))
        }
        return lines
    }

    /// The JSON answer of a failed command in `exec`.
    static func failureJSON(line: Int, command: String?, kind: String, message: String, extra: [JSONValue.Pair]) -> JSONValue {
        var pairs: [JSONValue.Pair] = [.init(key: "ok", value: .bool(false)), .init(key: "line", value: .int(Int64(line)))]
        if let command { pairs.append(.init(key: "command", value: .string(command))) }
        pairs.append(.init(key: "error", value: .string(kind)))
        pairs.append(.init(key: "message", value: .string(message)))
        return .object(pairs + extra)
    }

    /// The JSON details of a domain error: the field of an invalid command, the shortages of a stock-short one.
    static func details(_ error: DomainError) -> [JSONValue.Pair] {
        switch error {
        case .invalid(let field, _):
            return [.init(key: "field", value: .string(field))]
        case .stockShort(let lines):
            return [
                .init(
                    key: "shortages",
                    value: .array(
                        lines.map {
                            .object([
                                "productId": .string($0.productID), "available": .int($0.available),
                                "requested": .int($0.requested),
                            ])
                        }))
            ]
        default:
            return []
        }
    }
}
