public import EventLog
public import Events

/// Conversations between customers and the shop, with what each side has not read yet.
///
/// A conversation has two sides: the customer who owns its subject, and the shop's staff (any staff member or
/// admin may take part; the domain admits no one else). Unread counts follow the sides:
/// - **the owner's unread** are the messages from staff that the owner has no read receipt for;
/// - **staff's unread** are the messages from the owner that *no* staff member has a read receipt for. Staff
///   share one inbox: once a colleague has read a customer's message it is off everyone's pile, as it shows to
///   the customer as read by the shop. Counting per staff member instead would give every staff member the whole
///   shop's history as unread (a new hire would start with every message ever sent), and would cost one record
///   per message and staff member.
///
/// So the fold keeps, per conversation, only the messages the other side has not read yet (a read one leaves),
/// plus the last message for the preview. The thread itself (``ThreadMessage``: every message with its delivery and
/// read receipts) is a ``GroupedTable``: one row a message in its conversation's group, so a message or a receipt
/// stores one row however long the conversation is. Who is staff comes from the role events, so a view of a past moment
/// lists the conversations a user took part in then.
public enum ConversationsProjection: KeyedProjection {
    /// A message the other side has not read.
    public struct Unread: FieldCodable, Hashable {
        /// Sent by the owner (else by staff).
        public var fromOwner: Bool

        public init(fromOwner: Bool) {
            self.fromOwner = fromOwner
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            fromOwner = try r.bool("fromOwner")
        }

        public func write(to w: inout some FieldWriter) {
            w.bool("fromOwner", fromOwner)
        }
    }

    /// One conversation.
    public struct Conversation: FieldCodable, Hashable {
        public var subject: ConversationSubject
        public var subjectId: String
        /// The customer who owns the subject.
        public var ownerId: String
        public var startedBy: String
        /// The business time it was started.
        public var startedAt: Timestamp
        /// How many messages were sent.
        public var messages: Int64
        /// The last message: when, by whom, and its text (views cut the preview).
        public var lastMessageAt: Timestamp?
        public var lastSenderId: String?
        public var lastText: String?
        /// Messages the other side has not read, by message id.
        public var unread: [String: Unread]

        public init(
            subject: ConversationSubject, subjectId: String, ownerId: String, startedBy: String, startedAt: Timestamp,
            messages: Int64 = 0, lastMessageAt: Timestamp? = nil, lastSenderId: String? = nil, lastText: String? = nil,
            unread: [String: Unread] = [:]
        ) {
            self.subject = subject
            self.subjectId = subjectId
            self.ownerId = ownerId
            self.startedBy = startedBy
            self.startedAt = startedAt
            self.messages = messages
            self.lastMessageAt = lastMessageAt
            self.lastSenderId = lastSenderId
            self.lastText = lastText
            self.unread = unread
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            subject = try r.choice("subject", ConversationSubject.self)
            subjectId = try r.string("subjectId")
            ownerId = try r.string("ownerId")
            startedBy = try r.string("startedBy")
            startedAt = try r.timestamp("startedAt")
            messages = try r.int("messages")
            lastMessageAt = try r.optionalTimestamp("lastMessageAt")
            lastSenderId = try r.optionalString("lastSenderId")
            lastText = try r.optionalString("lastText")
            unread = try r.keyed("unread", Unread.self)
        }

        public func write(to w: inout some FieldWriter) {
            w.choice("subject", subject)
            w.string("subjectId", subjectId)
            w.string("ownerId", ownerId)
            w.string("startedBy", startedBy)
            w.timestamp("startedAt", startedAt)
            w.int("messages", messages)
            w.optionalTimestamp("lastMessageAt", lastMessageAt)
            w.optionalString("lastSenderId", lastSenderId)
            w.optionalString("lastText", lastText)
            w.keyed("unread", unread)
        }

        /// Messages from staff the owner has not read.
        public var unreadByOwner: Int64 { Int64(unread.values.count { !$0.fromOwner }) }

        /// Messages from the owner no staff member has read.
        public var unreadByStaff: Int64 { Int64(unread.values.count { $0.fromOwner }) }

        /// When something last happened in it: the last message, else the start.
        public var lastActivity: Timestamp { lastMessageAt ?? startedAt }
    }

    /// The shop roles a user holds (only users holding one are kept).
    public struct Roles: FieldCodable, Hashable {
        public var staff: Bool
        public var admin: Bool

        public init(staff: Bool = false, admin: Bool = false) {
            self.staff = staff
            self.admin = admin
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            staff = try r.bool("staff")
            admin = try r.bool("admin")
        }

        public func write(to w: inout some FieldWriter) {
            w.bool("staff", staff)
            w.bool("admin", admin)
        }
    }

    /// A customer's conversation ids, in the order they were started.
    public typealias IDs = IDList

    /// One message of a thread, with the other side's first receipts: a staff message is delivered to and read by the
    /// owner; an owner's message by the first staff member whose app received or read it (the shop's shared inbox).
    public struct ThreadMessage: FieldCodable, Hashable {
        /// The message's place in its conversation, from 1.
        public var sequence: Int64
        public var senderId: String
        public var text: String
        public var sentAt: Timestamp
        public var deliveredAt: Timestamp?
        public var readAt: Timestamp?
        /// Who read it first on the other side.
        public var readBy: String?

        public init(
            sequence: Int64, senderId: String, text: String, sentAt: Timestamp, deliveredAt: Timestamp? = nil,
            readAt: Timestamp? = nil, readBy: String? = nil
        ) {
            self.sequence = sequence
            self.senderId = senderId
            self.text = text
            self.sentAt = sentAt
            self.deliveredAt = deliveredAt
            self.readAt = readAt
            self.readBy = readBy
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            sequence = try r.int("sequence")
            senderId = try r.string("senderId")
            text = try r.string("text")
            sentAt = try r.timestamp("sentAt")
            deliveredAt = try r.optionalTimestamp("deliveredAt")
            readAt = try r.optionalTimestamp("readAt")
            readBy = try r.optionalString("readBy")
        }

        public func write(to w: inout some FieldWriter) {
            w.int("sequence", sequence)
            w.string("senderId", senderId)
            w.string("text", text)
            w.timestamp("sentAt", sentAt)
            w.optionalTimestamp("deliveredAt", deliveredAt)
            w.optionalTimestamp("readAt", readAt)
            w.optionalString("readBy", readBy)
        }
    }

    public struct State: KeyedProjectionState {
        /// Conversations by id, every version kept.
        public var conversations = KeyedTable<Conversation>(id: 1, history: .exact)
        /// Staff and admins by user id, every version kept.
        public var roles = KeyedTable<Roles>(id: 2, history: .exact)
        /// Each customer's conversations, so that a customer's view reads those alone.
        public var byOwner = KeyedTable<IDs>(id: 3, history: .exact)
        /// Every conversation's messages: a group a conversation, a part a message (by message id).
        public var messages = GroupedTable<ThreadMessage>(id: 4)

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            conversations = KeyedTable(id: 1, history: .exact, rows: try r.keyed("conversations", Conversation.self))
            roles = KeyedTable(id: 2, history: .exact, rows: try r.keyed("roles", Roles.self))
            byOwner = KeyedTable(id: 3, history: .exact, rows: try r.keyed("byOwner", IDs.self))
            messages = GroupedTable(id: 4, rows: try r.keyed("messages", ThreadMessage.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("conversations", conversations.entries)
            w.keyed("roles", roles.entries)
            w.keyed("byOwner", byOwner.entries)
            w.keyed("messages", messages.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&conversations)
            visitor.visit(&roles)
            visitor.visit(&byOwner)
            visitor.visit(&messages)
        }

        /// A conversation's messages in the order they were sent.
        public func thread(_ conversationId: String) -> [(messageId: String, message: ThreadMessage)] {
            messages.parts(of: conversationId).map { (messageId: $0.key, message: $0.value) }.sorted {
                $0.message.sequence < $1.message.sequence
            }
        }

        /// Whether a user is on the shop's side (staff or admin).
        public func isStaff(_ userId: String) -> Bool {
            roles[userId].map { $0.staff || $0.admin } ?? false
        }
    }

    public static let name = "conversations"
    /// Personal values (names, emails, addresses, recipients, message texts) are kept as tokens that views open.
    public static let foldsPersonalReferences = true
    public static let schemaVersion = 4
    public static let foldCost = 220
    public static let summary =
        "Conversations per participant: subject, last message, unread counts for the owner and for staff; each thread with its receipts."
    public static let eventTypes = types(
        MessageSent.self, MessageDelivered.self, MessageRead.self, ConversationStarted.self, AdminBootstrapped.self,
        RoleGranted.self, RoleRevoked.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {
        case MessageSent.typeID:
            let x = e.event as! MessageSent
            let at = e.occurredAt
            let sequence = try conversation(&state, x.conversationId) {
                $0.messages += 1
                $0.lastMessageAt = at
                $0.lastSenderId = x.senderId
                $0.lastText = x.text
                $0.unread[x.messageId] = Unread(fromOwner: x.senderId == $0.ownerId)
                return $0.messages
            }
            state.messages[x.conversationId, x.messageId] = ThreadMessage(sequence: sequence, senderId: x.senderId, text: x.text, sentAt: at)
        case MessageDelivered.typeID:
            let x = e.event as! MessageDelivered
            let owner = try conversation(&state, x.conversationId) { $0.ownerId }
            let at = e.occurredAt
            state.messages.modify(group: x.conversationId, part: x.messageId) { m in
                // The first receipt from the other side; one from the sender's own side is not a delivery.
                guard m != nil, m!.deliveredAt == nil, (m!.senderId == owner) != (x.participantId == owner) else { return }
                m!.deliveredAt = at
            }
        case MessageRead.typeID:
            let x = e.event as! MessageRead
            let owner = try conversation(&state, x.conversationId) {
                // A receipt from the message's own side (a colleague reading a colleague's message) changes nothing;
                // one from the other side takes it off that side's unread (the first staff receipt for all staff).
                guard let unread = $0.unread[x.messageId], unread.fromOwner != (x.participantId == $0.ownerId) else { return $0.ownerId }
                $0.unread[x.messageId] = nil
                return $0.ownerId
            }
            let at = e.occurredAt
            state.messages.modify(group: x.conversationId, part: x.messageId) { m in
                guard m != nil, m!.readAt == nil, (m!.senderId == owner) != (x.participantId == owner) else { return }
                // Read implies delivered, whether or not the app sent that receipt.
                if m!.deliveredAt == nil { m!.deliveredAt = at }
                m!.readAt = at
                m!.readBy = x.participantId
            }
        case ConversationStarted.typeID:
            let x = e.event as! ConversationStarted
            state.conversations[x.conversationId] = Conversation(
                subject: x.subject, subjectId: x.subjectId, ownerId: x.ownerId, startedBy: x.startedBy, startedAt: e.occurredAt)
            state.byOwner[x.ownerId, default: IDs()].ids.append(x.conversationId)
        case AdminBootstrapped.typeID:
            let x = e.event as! AdminBootstrapped
            state.roles[x.userId, default: Roles()].admin = true
        case RoleGranted.typeID:
            let x = e.event as! RoleGranted
            switch x.role {
            case .staff: state.roles[x.userId, default: Roles()].staff = true
            case .admin: state.roles[x.userId, default: Roles()].admin = true
            }
        case RoleRevoked.typeID:
            let x = e.event as! RoleRevoked
            switch x.role {
            case .staff: state.roles[x.userId]?.staff = false
            case .admin: state.roles[x.userId]?.admin = false
            }
            if state.roles[x.userId] == Roles() { state.roles[x.userId] = nil }
        default:
            return
        }
    }

    /// Changes a conversation in place, or fails when the log never started it (the domain starts one before any
    /// message or receipt).
    private static func conversation<T>(_ state: inout State, _ id: String, _ body: (inout Conversation) -> T) throws(ProjectionError) -> T {
        try state.conversations.modify(id) { (c: inout Conversation?) throws(ProjectionError) -> T in
            guard c != nil else { throw ProjectionError("no conversation '\(id)' was started") }
            return body(&c!)
        }
    }
}
