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
        let items = state.recent(by: by, limit: Int(limit)) { !pendingOnly || !$0.sent }
        let open = items.filter { !$0.notification.sent }.count
        return ViewOutput(
            title: "Reminders due by \(by.iso8601Compact)",
            header: ["ID", "DUE", "KIND", "TO", "ABOUT", "SENT"],
            rows: items.map { i in
                let n = i.notification
                return [i.id, n.dueAt.iso8601Compact, n.topic.rawValue, n.userId, about(n), n.sent ? "yes" : "no"]
            },
            footer: [
                "\(open) to send, \(items.count - open) sent (of those due in the \(OutboxProjection.window) days before)"
                    + (items.count == Int(limit) ? "; the earliest \(limit) shown" : "")
            ],
            json: .object([
                "dueBefore": Format.json(by),
                "notifications": .array(items.map { .object(json($0, text: $0.text) + [.init(key: "sent", value: .bool($0.notification.sent))]) }),
            ]))
    }

    /// The moment a view of the outbox reads "due by": the option, else the business time of the last event.
    static func moment(_ state: OutboxProjection.State, _ arguments: ViewArguments, _ option: String) throws(ViewError) -> Timestamp {
        try arguments.time(option, default: state.latest) ?? Timestamp(microsecondsSinceEpoch: 0)
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

    /// A notification as JSON, with its text (in the recipient's language).
    static func json(_ item: OutboxItem, text: String) -> [JSONValue.Pair] {
        let n = item.notification
        return [
            .init(key: "notificationId", value: .string(item.id)), .init(key: "kind", value: .string(n.topic.rawValue)),
            .init(key: "userId", value: .string(n.userId)), .init(key: "dueAt", value: Format.json(n.dueAt)),
            .init(key: "subject", value: .string(n.subject)), .init(key: "language", value: .string(item.language.rawValue)),
            .init(key: "text", value: .string(text)),
        ]
    }
}
