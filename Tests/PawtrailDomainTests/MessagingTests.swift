import EventLog
import Events
import PawtrailDomain
import Testing

/// Conversations between Ann (who owns booking b-1) and staff; see `PetWorld` for the cast.
@Suite("Messaging")
struct MessagingTests {
    typealias W = PetWorld
    static let conversation = stream("conversation-c-1")
    static let slot = Timestamp(iso8601: "2026-12-05T10:00:00Z")!

    static func scenario(started: Bool = true) async throws -> DomainScenario {
        let s = try await W.scenario()
        try await s.given(stream("booking-b-1"), BookingRequested(bookingId: "b-1", petId: "rex", ownerId: W.owner, service: .bath, slot: slot))
        if started {
            try await s.given(
                conversation, ConversationStarted(conversationId: "c-1", subject: .booking, subjectId: "b-1", ownerId: W.owner, startedBy: W.owner))
        }
        return s
    }

    static func sent(_ id: String, by sender: String, _ text: String) -> MessageSent {
        MessageSent(conversationId: "c-1", messageId: id, senderId: sender, text: text, customerId: W.owner)
    }

    @Test func startingNeedsAnExistingSubjectAndANewId() async throws {
        let s = try await Self.scenario()
        try await s.then(W.owner, StartConversation(subject: .order, subjectId: "o-404"), throws: .notFound("order 'o-404' does not exist"))
        try await s.then(
            W.owner, StartConversation(subject: .booking, subjectId: "b-1", conversationId: "c-1"), throws: .alreadyExists("conversation 'c-1' exists already"))
    }

    @Test func onlyTheOwnerAndStaffTakePart() async throws {
        let s = try await Self.scenario()
        for outsider in [W.otherCustomer] {
            try await s.then(
                outsider, SendMessage(conversationId: "c-1", clientMessageId: "m-1", text: "hi"),
                throws: .forbidden("conversation 'c-1' is between 'u-ann' and staff; customer 'u-bob' is not part of it"))
            try await s.then(
                outsider, StartConversation(subject: .booking, subjectId: "b-1", conversationId: "c-9"),
                throws: .forbidden("booking 'b-1' belongs to another customer; customer 'u-bob' may not discuss it"))
        }
        for command in [SendMessage(conversationId: "c-1", clientMessageId: "m-1", text: "hi")] {
            try await s.then(W.guest, command, throws: .forbidden("guests cannot conversation.send; sign up or log in first"))
            try await s.then(W.noAccount, command, throws: .forbidden("user 'u-nobody' has no account"))
        }
        try await s.then(
            W.admin, SendMessage(conversationId: "c-1", clientMessageId: "m-a", text: "Admin here"),
            appends: [(Self.conversation, Self.sent("m-a", by: W.admin, "Admin here"))])
        try await s.then(
            W.owner, SendMessage(conversationId: "c-2", clientMessageId: "m-1", text: "hi"), throws: .notFound("conversation 'c-2' does not exist"))
    }

    @Test func aResendWithTheSameClientMessageIdIsANoOp() async throws {
        let s = try await Self.scenario()
        let send = SendMessage(conversationId: "c-1", clientMessageId: "m-1", text: " Is 10:00 still fine? ")
        try await s.then(W.owner, send, appends: [(Self.conversation, Self.sent("m-1", by: W.owner, "Is 10:00 still fine?"))])
        try await s.then(W.owner, send, appends: [])
        try await s.then(
            W.owner, SendMessage(conversationId: "c-1", clientMessageId: "m-1", text: "Something else"),
            throws: .rejected("message id 'm-1' was already used for another message in conversation 'c-1'"))
        try await s.then(
            W.staff, SendMessage(conversationId: "c-1", clientMessageId: "m-1", text: "Is 10:00 still fine?"),
            throws: .rejected("message id 'm-1' was already used for another message in conversation 'c-1'"))
    }

    @Test func messageTextIsChecked() async throws {
        let s = try await Self.scenario()
        try await s.then(
            W.owner, SendMessage(conversationId: "c-1", clientMessageId: "m-1", text: "  "), throws: .invalid(field: "text", reason: "must not be empty"))
        try await s.then(
            W.owner, SendMessage(conversationId: "c-1", clientMessageId: "m-1", text: String(repeating: "a", count: 2001)),
            throws: .invalid(field: "text", reason: "must be at most 2000 characters"))
    }

    @Test func deliveryReceiptsComeFromTheOtherSideOnce() async throws {
        let s = try await Self.scenario()
        try await s.given(Self.conversation, Self.sent("m-1", by: W.owner, "hi"))
        try await s.then(
            W.owner, MarkMessageDelivered(conversationId: "c-1", messageId: "m-1"),
            throws: .rejected("'u-ann' sent message 'm-1'; receipts come from the other side"))
        try await s.then(
            W.staff, MarkMessageDelivered(conversationId: "c-1", messageId: "m-1"),
            appends: [(Self.conversation, MessageDelivered(conversationId: "c-1", messageId: "m-1", participantId: W.staff))])
        try await s.then(W.staff, MarkMessageDelivered(conversationId: "c-1", messageId: "m-1"), appends: [])
        try await s.then(
            W.staff, MarkMessageDelivered(conversationId: "c-1", messageId: "m-9"), throws: .notFound("message 'm-9' is not in conversation 'c-1'"))
    }

    @Test func readReceiptsCoverEveryEarlierMessageFromTheOtherSide() async throws {
        let s = try await Self.scenario()
        try await s.given(
            Self.conversation, Self.sent("m-1", by: W.owner, "hi"), Self.sent("m-2", by: W.staff, "hello"),
            Self.sent("m-3", by: W.owner, "Is 10:00 fine?"), Self.sent("m-4", by: W.owner, "Or 11:00?"))
        try await s.then(
            W.staff, MarkMessagesRead(conversationId: "c-1", messageId: "m-3"),
            appends: [
                (Self.conversation, MessageRead(conversationId: "c-1", messageId: "m-1", participantId: W.staff)),
                (Self.conversation, MessageRead(conversationId: "c-1", messageId: "m-3", participantId: W.staff)),
            ])
        try await s.then(
            W.staff, MarkMessagesRead(conversationId: "c-1", messageId: "m-4"),
            appends: [(Self.conversation, MessageRead(conversationId: "c-1", messageId: "m-4", participantId: W.staff))])
        try await s.then(W.staff, MarkMessagesRead(conversationId: "c-1", messageId: "m-4"), appends: [])
        try await s.then(
            W.owner, MarkMessagesRead(conversationId: "c-1", messageId: "m-4"),
            appends: [(Self.conversation, MessageRead(conversationId: "c-1", messageId: "m-2", participantId: W.owner))])
        // A read message counts as delivered: no separate delivery receipt is needed.
        try await s.then(W.owner, MarkMessageDelivered(conversationId: "c-1", messageId: "m-2"), appends: [])
    }
}
