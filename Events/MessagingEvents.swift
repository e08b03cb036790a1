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
    public static let schemaVersion = 2
    public static let area = "messaging"
    public static let summary = "A participant sent a message, identified by the client's message id."
    public var conversationId: String
    public var messageId: String
    public var senderId: String
    /// The text: personal data, sealed under the conversation's customer's key.
    public var text: String
    /// The conversation's customer, whose key seals the text (from schema version 2; empty before).
    public var customerId: String

    public init(conversationId: String, messageId: String, senderId: String, text: String, customerId: String = "") {
        self.conversationId = conversationId
        self.messageId = messageId
        self.senderId = senderId
        self.text = text
        self.customerId = customerId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        messageId = try r.string("messageId")
        senderId = try r.string("senderId")
        text = try r.personal("text")
        customerId = try r.string("customerId")
    }

    /// Version 1 had no customer: its text was stored in the clear, in its place.
    public static func upcast(from version: Int, reading r: inout BinaryFieldReader) throws(FieldError) -> MessageSent {
        guard version == 1 else { throw FieldError(field: "", message: "MessageSent has no schema version \(version)") }
        return MessageSent(
            conversationId: try r.string("conversationId"), messageId: try r.string("messageId"), senderId: try r.string("senderId"),
            text: try r.personal("text"))
    }

    public var personalDataSubject: String? { customerId.isEmpty ? senderId : customerId }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.string("messageId", messageId)
        w.string("senderId", senderId)
        w.personal("text", text)
        w.string("customerId", customerId)
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
