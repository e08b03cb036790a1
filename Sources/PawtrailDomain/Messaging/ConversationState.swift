public import EventLog
public import Events

/// A conversation as decisions see it (stream `conversation-<conversationId>`).
public struct ConversationState: Aggregate, Hashable {
    /// One message and its receipts.
    public struct Message: Hashable, Sendable {
        public var id: String
        public var senderId: String
        public var text: String
        /// Participants it was delivered to (readers included).
        public var deliveredTo: Set<String> = []
        /// Participants who read it.
        public var readBy: Set<String> = []
    }

    /// Whether the conversation was started.
    public var exists = false
    /// The customer who owns the subject.
    public var ownerId = ""
    /// What it is about.
    public var subject: ConversationSubject = .booking
    /// The subject's id.
    public var subjectId = ""
    /// The messages, in the order sent.
    public var messages: [Message] = []

    public init() {}

    public static let snapshotKind = "conversation"

    /// The customer: the messages' texts are theirs (sealed under their key in the log).
    public var personalDataSubject: String? { ownerId.isEmpty ? nil : ownerId }
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        exists = try r.bool("exists")
        ownerId = try r.string("ownerId")
        subject = try r.choice("subject", ConversationSubject.self)
        subjectId = try r.string("subjectId")
        messages = try r.records("messages", Message.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("exists", exists)
        w.string("ownerId", ownerId)
        w.choice("subject", subject)
        w.string("subjectId", subjectId)
        w.records("messages", messages)
    }

    /// The index of a message.
    public func index(of messageId: String) -> Int? {
        messages.firstIndex { $0.id == messageId }
    }

    /// Whether an actor takes part: the subject's owner, or any staff member or admin (the shop's side).
    public func admits(_ actor: Actor) -> Bool {
        actor.userID == ownerId || actor.isStaff
    }

    public static func evolve(_ state: ConversationState, _ event: any DomainEvent) -> ConversationState {
        var s = state
        switch event {
        case let e as ConversationStarted:
            s.exists = true
            s.ownerId = e.ownerId
            s.subject = e.subject
            s.subjectId = e.subjectId
        case let e as MessageSent:
            s.messages.append(Message(id: e.messageId, senderId: e.senderId, text: e.text))
        case let e as MessageDelivered:
            if let i = s.index(of: e.messageId) { s.messages[i].deliveredTo.insert(e.participantId) }
        case let e as MessageRead:
            if let i = s.index(of: e.messageId) {
                s.messages[i].deliveredTo.insert(e.participantId)
                s.messages[i].readBy.insert(e.participantId)
            }
        default:
            break
        }
        return s
    }

    /// Checks that the conversation exists and the actor takes part in it.
    ///
    /// - Throws: ``DomainError/notFound(_:)`` or ``DomainError/forbidden(_:)``.
    public func checkParticipant(_ conversationId: String, _ actor: Actor) throws(DomainError) {
        guard exists else { throw .notFound("conversation '\(conversationId)' does not exist") }
        guard admits(actor) else {
            throw .forbidden("conversation '\(conversationId)' is between '\(ownerId)' and staff; \(actor) is not part of it")
        }
    }
}

/// Who owns the subject of a conversation: the first event of its stream that names an owner.
public struct SubjectOwnerState: Aggregate, Hashable {
    /// The owner, `nil` when the subject does not exist.
    public var ownerId: String?

    public init() {}

    public static let snapshotKind = "subject-owner"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ownerId = try r.optionalString("ownerId")
    }

    public func write(to w: inout some FieldWriter) {
        w.optionalString("ownerId", ownerId)
    }

    public static func evolve(_ state: SubjectOwnerState, _ event: any DomainEvent) -> SubjectOwnerState {
        guard state.ownerId == nil, let created = event as? any OwnedSubjectCreated else { return state }
        return SubjectOwnerState(ownerId: created.subjectOwnerId)
    }

    private init(ownerId: String?) {
        self.ownerId = ownerId
    }
}

extension Streams {
    /// A conversation's stream.
    public static func conversation(_ id: String) -> StreamID { named("conversation", id) }

    /// The stream of a conversation's subject: `booking-<id>`, `vet-<id>` or `order-<id>`.
    public static func subject(_ kind: ConversationSubject, _ id: String) -> StreamID {
        switch kind {
        case .booking: named("booking", id)
        case .vetRequest: named("vet", id)
        case .order: named("order", id)
        }
    }
}

extension ConversationState.Message: FieldCodable {
    public init(reading r: inout some FieldReader) throws(FieldError) {
        self.init(
            id: try r.string("id"), senderId: try r.string("senderId"), text: try r.string("text"),
            deliveredTo: Set(try r.strings("deliveredTo")), readBy: Set(try r.strings("readBy")))
    }

    public func write(to w: inout some FieldWriter) {
        w.string("id", id)
        w.string("senderId", senderId)
        w.string("text", text)
        w.strings("deliveredTo", deliveredTo.sorted())
        w.strings("readBy", readBy.sorted())
    }
}
