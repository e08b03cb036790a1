// The messaging area: conversations between an owner and staff about a booking, a vet request or an order
// (stream `conversation-<conversationId>`).

/// An event that creates something a conversation can be about, naming the customer who owns it.
public protocol OwnedSubjectCreated: DomainEvent {
    /// The user id of the owner (the customer side of a conversation about it).
    var subjectOwnerId: String { get }
}

/// What a conversation is about.
public enum ConversationSubject: String, FieldChoice {
    case booking
    case vetRequest = "vet-request"
    case order
}

/// A conversation was opened about a subject.
public struct ConversationStarted: DomainEvent {
    public static let eventType = "ConversationStarted"
    public static let area = "messaging"
    public static let summary = "A conversation between a customer and staff was opened about a booking, vet request or order."
    public var conversationId: String
    public var subject: ConversationSubject
    public var subjectId: String
    /// The customer who owns the subject.
    public var ownerId: String
    public var startedBy: String

    public init(conversationId: String, subject: ConversationSubject, subjectId: String, ownerId: String, startedBy: String) {
        self.conversationId = conversationId
        self.subject = subject
        self.subjectId = subjectId
        self.ownerId = ownerId
        self.startedBy = startedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        subject = try r.choice("subject", ConversationSubject.self)
        subjectId = try r.string("subjectId")
        ownerId = try r.string("ownerId")
        startedBy = try r.string("startedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.choice("subject", subject)
        w.string("subjectId", subjectId)
        w.string("ownerId", ownerId)
        w.string("startedBy", startedBy)
    }
}

/// A message was sent; its id is the sender's client message id, so a re-send from an offline queue is a no-op.
public struct MessageSent: DomainEvent {
    public static let eventType = "MessageSent"
    public static let area = "messaging"
    public static let summary = "A participant sent a message, identified by the client's message id."
    public var conversationId: String
    public var messageId: String
    public var senderId: String
    public var text: String

    public init(conversationId: String, messageId: String, senderId: String, text: String) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.senderId = senderId
        self.text = text
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        messageId = try r.string("messageId")
        senderId = try r.string("senderId")
        text = try r.string("text")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.string("messageId", messageId)
        w.string("senderId", senderId)
        w.string("text", text)
    }
}

/// A message reached a participant's device.
public struct MessageDelivered: DomainEvent {
    public static let eventType = "MessageDelivered"
    public static let area = "messaging"
    public static let summary = "A message was delivered to a participant (a delivery receipt)."
    public var conversationId: String
    public var messageId: String
    public var participantId: String

    public init(conversationId: String, messageId: String, participantId: String) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.participantId = participantId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        messageId = try r.string("messageId")
        participantId = try r.string("participantId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.string("messageId", messageId)
        w.string("participantId", participantId)
    }
}

/// A participant read a message.
public struct MessageRead: DomainEvent {
    public static let eventType = "MessageRead"
    public static let area = "messaging"
    public static let summary = "A participant read a message (a read receipt; reading implies delivery)."
    public var conversationId: String
    public var messageId: String
    public var participantId: String

    public init(conversationId: String, messageId: String, participantId: String) {
        self.conversationId = conversationId
        self.messageId = messageId
        self.participantId = participantId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        messageId = try r.string("messageId")
        participantId = try r.string("participantId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.string("messageId", messageId)
        w.string("participantId", participantId)
    }
}

/// The messaging area's event types, in catalog order.
public enum MessagingEvents {
    public static let all: [any DomainEvent.Type] = [
        ConversationStarted.self, MessageSent.self, MessageDelivered.self, MessageRead.self,
    ]
}
