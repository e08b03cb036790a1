import EventLog
import Events
import PawtrailJSON

/// `pawtrail view conversation --id C`: one conversation's thread, oldest message first, each with the other side's
/// receipts: `read 10:05 by u-sam`, `delivered 10:01`, or `sent` when neither came yet (see
/// ``ConversationsProjection/ThreadMessage``). `--last N` shows the newest N messages only.
public enum ConversationView: ProjectionView {
    public typealias Source = ConversationsProjection
    public static let name = "conversation"
    public static let summary = "One conversation's thread, oldest first, with delivered and read receipts."
    public static let options = [
        ViewOption("id", "conversation-id", help: "The conversation's id.", required: true),
        ViewOption("last", "n", help: "Show only the newest N messages.", default: "all"),
    ]

    public static func audience(_ state: ConversationsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        let id = try arguments.required("id")
        return state.conversations[id].map { .userAndStaff($0.ownerId) } ?? .staff
    }

    public static func render(_ state: ConversationsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let id = try arguments.required("id")
        guard let c = state.conversations[id] else { throw .notFound("no conversation '\(id)'") }
        let last = arguments.value("last") == nil ? nil : try arguments.int("last", default: 0, range: 1...1_000_000)
        var thread = state.thread(id)
        let total = thread.count
        if let last, thread.count > Int(last) { thread = Array(thread.suffix(Int(last))) }

        var rows: [[String]] = []
        var items: [JSONValue] = []
        for (messageId, m) in thread {
            let receipt: String
            if let read = m.readAt {
                receipt = "read \(PetCareText.minute(read))" + (m.readBy.map { " by \($0)" } ?? "")
            } else if let delivered = m.deliveredAt {
                receipt = "delivered \(PetCareText.minute(delivered))"
            } else {
                receipt = "sent"
            }
            rows.append([String(m.sequence), PetCareText.minute(m.sentAt), m.senderId == c.ownerId ? "\(m.senderId) (owner)" : m.senderId, m.text, receipt])
            items.append(
                .object([
                    "messageId": .string(messageId), "sequence": .int(m.sequence), "senderId": .string(m.senderId),
                    "fromOwner": .bool(m.senderId == c.ownerId), "text": .string(m.text), "sentAt": Format.json(m.sentAt),
                    "deliveredAt": PetCareText.json(m.deliveredAt), "readAt": PetCareText.json(m.readAt),
                    "readBy": .string(m.readBy),
                ]))
        }
        var footer = ["\(total) message\(total == 1 ? "" : "s")"]
        if thread.count < total { footer[0] += ", the newest \(thread.count) shown" }
        footer.append("unread by the owner: \(c.unreadByOwner), by staff: \(c.unreadByStaff)")
        return ViewOutput(
            title: "Conversation \(id) about \(c.subject.rawValue) \(c.subjectId) with \(c.ownerId)",
            header: ["#", "SENT", "FROM", "MESSAGE", "RECEIPT"], rows: rows, rightAligned: [0], footer: footer,
            json: .object([
                "conversationId": .string(id), "subject": .string(c.subject.rawValue), "subjectId": .string(c.subjectId),
                "ownerId": .string(c.ownerId), "startedBy": .string(c.startedBy), "startedAt": Format.json(c.startedAt),
                "messages": .int(Int64(total)), "unreadByOwner": .int(c.unreadByOwner), "unreadByStaff": .int(c.unreadByStaff),
                "thread": .array(items),
            ]))
    }
}
