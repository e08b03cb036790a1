public import EventLog
public import Events

/// One notification of the outbox: to whom, when it falls due, and what it is about; its text is written in the
/// recipient's language when it is read (``NotificationText``).
public struct Notification: FieldCodable, Hashable, Sendable {
    public var topic: NotificationTopic
    public var userId: String
    public var dueAt: Timestamp
    /// The booking, pet, order, conversation or account it is about.
    public var subject: String
    /// The pet it is about, when one (a removed pet's notifications are not sent).
    public var petId: String
    /// The pet's name, the order's id or the sender: what the text names.
    public var name: String
    /// The service, the vaccine or the message's first words.
    public var detail: String
    /// The booking's slot or the vaccination's due date.
    public var at: Timestamp?
    /// Whether a worker took it to send.
    public var sent = false

    public init(
        topic: NotificationTopic, userId: String, dueAt: Timestamp, subject: String, petId: String = "", name: String = "", detail: String = "",
        at: Timestamp? = nil
    ) {
        self.topic = topic
        self.userId = userId
        self.dueAt = dueAt
        self.subject = subject
        self.petId = petId
        self.name = name
        self.detail = detail
        self.at = at
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        topic = try r.choice("topic", NotificationTopic.self)
        userId = try r.string("userId")
        dueAt = try r.timestamp("dueAt")
        subject = try r.string("subject")
        petId = try r.string("petId")
        name = try r.string("name")
        detail = try r.string("detail")
        at = try r.optionalTimestamp("at")
        sent = try r.bool("sent")
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("topic", topic)
        w.string("userId", userId)
        w.timestamp("dueAt", dueAt)
        w.string("subject", subject)
        w.string("petId", petId)
        w.string("name", name)
        w.string("detail", detail)
        w.optionalTimestamp("at", at)
        w.bool("sent", sent)
    }
}
