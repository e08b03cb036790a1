public import Events

/// `conversation.start`: open a conversation about a booking, vet request or order, by its owner or by staff.
public struct StartConversation: DomainCommand, Hashable {
    public static let name = "conversation.start"
    public static let summary = "Open a conversation with staff about your booking, vet request or order."

    public var subject: ConversationSubject
    public var subjectId: String
    public var conversationId: String?

    public init(subject: ConversationSubject, subjectId: String, conversationId: String? = nil) {
        self.subject = subject
        self.subjectId = subjectId
        self.conversationId = conversationId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        subject = try r.choice("subject", ConversationSubject.self)
        subjectId = try r.string("subjectId")
        conversationId = try r.optionalString("conversationId")
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("subject", subject)
        w.string("subjectId", subjectId)
        w.optionalString("conversationId", conversationId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(subjectId, field: "subjectId")
        let id = conversationId ?? context.newID("c")
        try Validate.id(id, field: "conversationId")
        let owner = try await loader.load(SubjectOwnerState.self, Streams.subject(subject, subjectId))
        let conversation = try await loader.load(ConversationState.self, Streams.conversation(id))
        return try decide(context, conversationId: id, subjectOwner: owner, conversation: conversation)
    }

    /// The pure decision.
    public func decide(
        _ context: DecisionContext, conversationId id: String, subjectOwner: SubjectOwnerState, conversation: ConversationState
    ) throws(DomainError) -> Decision {
        guard let ownerId = subjectOwner.ownerId else {
            throw .notFound("\(subject.rawValue) '\(subjectId)' does not exist")
        }
        guard context.actor.userID == ownerId || context.actor.isStaff else {
            throw .forbidden("\(subject.rawValue) '\(subjectId)' belongs to another customer; \(context.actor) may not discuss it")
        }
        guard !conversation.exists else { throw .alreadyExists("conversation '\(id)' exists already") }
        return .append(
            Streams.conversation(id),
            ConversationStarted(
                conversationId: id, subject: subject, subjectId: subjectId, ownerId: ownerId, startedBy: context.actor.userID))
    }
}

/// `conversation.send`: send a message; a re-send with the same client message id (an offline queue flushing
/// twice) changes nothing. Client message ids are unique within a conversation, across both sides (apps use
/// UUIDs), because receipts name a message by that id alone; reusing one for another message is rejected.
public struct SendMessage: DomainCommand, Hashable {
    public static let name = "conversation.send"
    public static let summary = "Send a message; re-sending the same client message id is a no-op."
    /// The longest message.
    public static let maxLength = 2000

    public var conversationId: String
    public var clientMessageId: String
    public var text: String

    public init(conversationId: String, clientMessageId: String, text: String) {
        self.conversationId = conversationId
        self.clientMessageId = clientMessageId
        self.text = text
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        clientMessageId = try r.string("clientMessageId")
        text = try r.string("text")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.string("clientMessageId", clientMessageId)
        w.string("text", text)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(conversationId, field: "conversationId")
        try Validate.id(clientMessageId, field: "clientMessageId")
        return try decide(context, try await loader.load(ConversationState.self, Streams.conversation(conversationId)))
    }

    /// The pure decision.
    public func decide(_ context: DecisionContext, _ conversation: ConversationState) throws(DomainError) -> Decision {
        try conversation.checkParticipant(conversationId, context.actor)
        let body = try Validate.text(text, field: "text", max: Self.maxLength)
        if let i = conversation.index(of: clientMessageId) {
            let sent = conversation.messages[i]
            guard sent.senderId == context.actor.userID, sent.text == body else {
                throw .rejected("message id '\(clientMessageId)' was already used for another message in conversation '\(conversationId)'")
            }
            return .nothing
        }
        return .append(
            Streams.conversation(conversationId),
            MessageSent(
                conversationId: conversationId, messageId: clientMessageId, senderId: context.actor.userID, text: body,
                customerId: conversation.ownerId))
    }
}

/// `conversation.mark-delivered`: a delivery receipt from a participant who did not send the message.
public struct MarkMessageDelivered: DomainCommand, Hashable {
    public static let name = "conversation.mark-delivered"
    public static let summary = "Record that a message reached your device."

    public var conversationId: String
    public var messageId: String

    public init(conversationId: String, messageId: String) {
        self.conversationId = conversationId
        self.messageId = messageId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        messageId = try r.string("messageId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.string("messageId", messageId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(conversationId, field: "conversationId")
        return try decide(context, try await loader.load(ConversationState.self, Streams.conversation(conversationId)))
    }

    /// The pure decision; a receipt already recorded changes nothing.
    public func decide(_ context: DecisionContext, _ conversation: ConversationState) throws(DomainError) -> Decision {
        try conversation.checkParticipant(conversationId, context.actor)
        guard let i = conversation.index(of: messageId) else {
            throw .notFound("message '\(messageId)' is not in conversation '\(conversationId)'")
        }
        let me = context.actor.userID
        guard conversation.messages[i].senderId != me else {
            throw .rejected("'\(me)' sent message '\(messageId)'; receipts come from the other side")
        }
        guard !conversation.messages[i].deliveredTo.contains(me) else { return .nothing }
        return .append(
            Streams.conversation(conversationId),
            MessageDelivered(conversationId: conversationId, messageId: messageId, participantId: me))
    }
}

/// `conversation.mark-read`: read receipts for every message from the other side up to and including one.
public struct MarkMessagesRead: DomainCommand, Hashable {
    public static let name = "conversation.mark-read"
    public static let summary = "Record that you read the messages up to and including one."

    public var conversationId: String
    public var messageId: String

    public init(conversationId: String, messageId: String) {
        self.conversationId = conversationId
        self.messageId = messageId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        conversationId = try r.string("conversationId")
        messageId = try r.string("messageId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("conversationId", conversationId)
        w.string("messageId", messageId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(conversationId, field: "conversationId")
        return try decide(context, try await loader.load(ConversationState.self, Streams.conversation(conversationId)))
    }

    /// The pure decision; messages already read, and the reader's own, get no receipt.
    public func decide(_ context: DecisionContext, _ conversation: ConversationState) throws(DomainError) -> Decision {
        try conversation.checkParticipant(conversationId, context.actor)
        guard let last = conversation.index(of: messageId) else {
            throw .notFound("message '\(messageId)' is not in conversation '\(conversationId)'")
        }
        let me = context.actor.userID
        let receipts: [any DomainEvent] = conversation.messages[...last]
            .filter { $0.senderId != me && !$0.readBy.contains(me) }
            .map { MessageRead(conversationId: conversationId, messageId: $0.id, participantId: me) }
        guard !receipts.isEmpty else { return .nothing }
        return Decision([StreamWrite(Streams.conversation(conversationId), receipts)])
    }
}
