import EventLog
import Events
import PawtrailJSON

/// `pawtrail view reminders [--due-before T] [--pending]`: what the shop owes its customers across the shop, due by
/// a moment: booking reminders, vaccinations due, shipments, messages and reset links, each with whether it was
/// sent, within the week before the moment (older ones have expired). Staff only.
public enum RemindersView: ProjectionView {
    public typealias Source = OutboxProjection
    public static let name = "reminders"
    public static let summary = "Notifications due across the shop (reminders, vaccinations, shipments, messages), and whether each was sent."
    public static let options = [
        ViewOption("due-before", "time", help: "Show what falls due at or before this UTC ISO-8601 time.", default: "the business time of the last event"),
        ViewOption("pending", "", help: "Only those not sent yet."),
        ViewOption("limit", "n", help: "Show at most this many, the earliest due first (at most 1000).", default: "200"),
    ]

    public static func audience(_ state: OutboxProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func render(_ state: OutboxProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let by = try moment(state, arguments, "due-before")
        let pendingOnly = try arguments.flag("pending")
        let limit = try arguments.int("limit", default: 200, range: 1...1_000)
        let items = state.recent(by: by, limit: Int(limit)) { !pendingOnly || !$0.sent }.map { (id: $0.id, n: $0.notification, sent: $0.notification.sent) }
        let open = items.filter { !$0.sent }.count
        return ViewOutput(
            title: "Reminders due by \(by.iso8601Compact)",
            header: ["ID", "DUE", "KIND", "TO", "ABOUT", "SENT"],
            rows: items.map { [$0.id, $0.n.dueAt.iso8601Compact, $0.n.topic.rawValue, $0.n.userId, about($0.n), $0.sent ? "yes" : "no"] },
            footer: [
                "\(open) to send, \(items.count - open) sent (of those due in the \(OutboxProjection.window) days before)"
                    + (items.count == Int(limit) ? "; the earliest \(limit) shown" : "")
            ],
            json: .object([
                "dueBefore": Format.json(by),
                "notifications": .array(items.map { json($0.id, $0.n, state) + [.init(key: "sent", value: .bool($0.sent))] }.map(JSONValue.object)),
            ]))
    }

    /// The moment a view of the outbox reads "due by": the option, else the business time of the last event.
    static func moment(_ state: OutboxProjection.State, _ arguments: ViewArguments, _ option: String) throws(ViewError) -> Timestamp {
        if let text = arguments.value(option) {
            guard let t = Timestamp(iso8601: text) else { throw .invalid(option, "'\(text)' is not a UTC ISO-8601 time (2026-12-01T09:00:00Z)") }
            return t
        }
        return state.latest ?? Timestamp(microsecondsSinceEpoch: 0)
    }

    /// What a notification is about, in a few words.
    static func about(_ n: Notification) -> String {
        switch n.topic {
        case .bookingReminder: "\(n.name): \(n.detail) at \(n.at.map { $0.iso8601Compact } ?? "")"
        case .vaccinationDue: "\(n.name): \(n.detail) due \(n.at.map(Format.day) ?? "")"
        case .orderShipped: "order \(n.name)"
        case .newMessage: "conversation \(n.subject)"
        case .passwordReset: "password reset"
        }
    }

    /// A notification as JSON, with its text in the recipient's language.
    static func json(_ id: String, _ n: Notification, _ state: OutboxProjection.State) -> [JSONValue.Pair] {
        let language = state.recipients[n.userId]?.language ?? .enUS
        return [
            .init(key: "notificationId", value: .string(id)), .init(key: "kind", value: .string(n.topic.rawValue)),
            .init(key: "userId", value: .string(n.userId)), .init(key: "dueAt", value: Format.json(n.dueAt)),
            .init(key: "subject", value: .string(n.subject)), .init(key: "language", value: .string(language.rawValue)),
            .init(key: "text", value: .string(NotificationText.text(n, language))),
        ]
    }
}

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
        return ViewOutput(
            title: "Outbox at \(now.iso8601Compact)",
            header: ["ID", "DUE", "TO", "LANGUAGE", "TEXT"],
            rows: due.map { d in
                let language = state.recipients[d.notification.userId]?.language ?? .enUS
                return [d.id, d.notification.dueAt.iso8601Compact, d.notification.userId, language.rawValue, NotificationText.text(d.notification, language)]
            },
            footer: ["\(due.count) to send" + (due.count == Int(limit) ? " now (the earliest \(limit); more may be due)" : "")],
            json: .object([
                "now": Format.json(now),
                "pending": .array(due.map { JSONValue.object(RemindersView.json($0.id, $0.notification, state)) }),
            ]))
    }
}
