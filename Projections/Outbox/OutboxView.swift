import Events
import PawtrailJSON

/// `pawtrail outbox pending [--now T]` (also `view outbox`): the notifications to send now, each with its recipient,
/// language and text, the earliest due first: what a sending worker reads before `outbox mark-sent`. Staff only.
public enum OutboxView: ProjectionView {
    public typealias Source = OutboxProjection
    public static let name = "outbox"
    public static let summary = "The notifications to send now, with recipient, language and text, for a sending worker."
    public static let options = [
        ViewOption("now", "time", help: "Send what is due at or before this UTC ISO-8601 time.", default: "the business time of the last event"),
        ViewOption("limit", "n", help: "At most this many, the earliest due first (at most 500, what one mark-sent takes).", default: "100"),
    ]

    public static func audience(_ state: OutboxProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func render(_ state: OutboxProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let now = try RemindersView.moment(state, arguments, "now")
        let limit = try arguments.int("limit", default: 100, range: 1...500)
        let due = state.due(by: now, limit: Int(limit))
        // Each text is written once, for the table and the JSON alike.
        let texts = due.map(\.text)
        return ViewOutput(
            title: "Outbox at \(now.iso8601Compact)",
            header: ["ID", "DUE", "TO", "LANGUAGE", "TEXT"],
            rows: zip(due, texts).map { d, text in
                [d.id, d.notification.dueAt.iso8601Compact, d.notification.userId, d.language.rawValue, text]
            },
            footer: ["\(due.count) to send" + (due.count == Int(limit) ? " now (the earliest \(limit); more may be due)" : "")],
            json: .object([
                "now": Format.json(now),
                "pending": .array(zip(due, texts).map { JSONValue.object(RemindersView.json($0, text: $1)) }),
            ]))
    }
}
