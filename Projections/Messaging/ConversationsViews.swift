import EventLog
import Events
import PawtrailJSON

/// `pawtrail view conversations --user ID`: the conversations a user takes part in, the latest activity first,
/// each with its subject, last message (time and a one-line preview) and the user's unread count.
///
/// A customer sees the conversations about their own bookings, vet requests and orders, counting the staff's
/// messages they have not read. Staff and admins (at the moment viewed) see every conversation, the shop's shared
/// inbox, counting the customer's messages no staff member has read (see ``ConversationsProjection``); their own
/// conversations as a customer, if any, count as the customer's.
public enum ConversationsView: ProjectionView {
    public typealias Source = ConversationsProjection
    public static let name = "conversations"
    public static let summary = "A user's conversations, latest first: subject, last message and preview, unread count."
    public static let options = [ViewOption("user", "id", help: "The customer or staff member.", required: true)]

    /// How many characters of the last message a preview shows.
    public static let previewLength = 50

    public static func audience(_ state: ConversationsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .userAndStaff(try arguments.required("user"))
    }

    public static func render(_ state: ConversationsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let user = try arguments.required("user")
        let staff = state.isStaff(user)
        // A customer's own conversations are listed by their id; staff see every conversation (the shop's inbox).
        let own = Set(state.byOwner[user]?.ids ?? [])
        let candidates: [(String, ConversationsProjection.Conversation)] =
            staff
            ? state.conversations.entries.map { ($0.key, $0.value) }
            : own.compactMap { id in state.conversations[id].map { (id, $0) } }
        let entries = candidates.compactMap { entry -> (id: String, c: ConversationsProjection.Conversation, owner: Bool)? in
            if entry.1.ownerId == user { return (entry.0, entry.1, true) }
            return staff ? (entry.0, entry.1, false) : nil
        }.sorted { ($0.c.lastActivity, $1.id) > ($1.c.lastActivity, $0.id) }

        var rows: [[String]] = []
        var items: [JSONValue] = []
        var total: Int64 = 0
        for (id, c, owner) in entries {
            let unread = owner ? c.unreadByOwner : c.unreadByStaff
            total += unread
            let preview = c.lastText.map { PetCareText.preview($0, length: previewLength) } ?? ""
            let sender = c.lastSenderId.map { $0 == user ? "you" : $0 } ?? ""
            rows.append([
                id, "\(c.subject.rawValue) \(c.subjectId)", owner ? "staff" : c.ownerId,
                c.lastMessageAt.map(PetCareText.minute) ?? "", preview.isEmpty ? "" : "\(sender): \(preview)", String(unread),
            ])
            items.append(
                .object([
                    "conversationId": .string(id), "subject": .string(c.subject.rawValue), "subjectId": .string(c.subjectId),
                    "ownerId": .string(c.ownerId), "side": .string(owner ? "owner" : "staff"),
                    "startedAt": Format.json(c.startedAt), "messages": .int(c.messages),
                    "lastMessageAt": PetCareText.json(c.lastMessageAt), "lastSenderId": .string(c.lastSenderId),
                    "preview": .string(c.lastText == nil ? nil : preview), "unread": .int(unread),
                ]))
        }
        let count = entries.count
        return ViewOutput(
            title: "Conversations of \(user)" + (staff ? " (staff: the shop's inbox)" : ""),
            header: ["CONVERSATION", "SUBJECT", "WITH", "LAST MESSAGE", "PREVIEW", "UNREAD"],
            rows: rows, rightAligned: [5],
            footer: ["\(count) conversation\(count == 1 ? "" : "s"), \(total) unread message\(total == 1 ? "" : "s")"],
            json: .object(["userId": .string(user), "staff": .bool(staff), "unread": .int(total), "conversations": .array(items)]))
    }
}
