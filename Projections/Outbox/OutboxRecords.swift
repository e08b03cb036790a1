public import EventLog
public import Events

/// What a notification tells.
public enum NotificationTopic: String, FieldChoice {
    case bookingReminder = "booking-reminder"
    case vaccinationDue = "vaccination-due"
    case orderShipped = "order-shipped"
    case newMessage = "new-message"
    case passwordReset = "password-reset"

    /// The account setting that turns it off; `nil` for one always sent.
    public var setting: NotificationKind? {
        switch self {
        case .bookingReminder: .bookingReminders
        case .vaccinationDue: .vaccinationDue
        case .orderShipped: .orderUpdates
        case .newMessage: .messages
        case .passwordReset: nil
        }
    }
}

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

/// A recipient as the outbox needs them: their language, what they turned off, whether the account is gone.
public struct Recipient: FieldCodable, Hashable, Sendable {
    public var language: Language
    public var off: [String]
    public var deleted: Bool

    public init(language: Language, off: [String] = [], deleted: Bool = false) {
        self.language = language
        self.off = off
        self.deleted = deleted
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        language = try r.choice("language", Language.self)
        off = try r.strings("off")
        deleted = try r.bool("deleted")
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("language", language)
        w.strings("off", off)
        w.bool("deleted", deleted)
    }

    /// Whether they are told of a topic now.
    public func wants(_ topic: NotificationTopic) -> Bool {
        !deleted && (topic.setting.map { !off.contains($0.rawValue) } ?? true)
    }
}

/// A pet as the outbox needs it.
public struct OutboxPet: FieldCodable, Hashable, Sendable {
    public var name: String
    public var ownerId: String
    public var removed: Bool

    public init(name: String, ownerId: String, removed: Bool = false) {
        self.name = name
        self.ownerId = ownerId
        self.removed = removed
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        name = try r.string("name")
        ownerId = try r.string("ownerId")
        removed = try r.bool("removed")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("name", name)
        w.string("ownerId", ownerId)
        w.bool("removed", removed)
    }
}

/// A booking as the outbox needs it: whose pet, which service, and its reminder while one is open.
public struct OutboxBooking: FieldCodable, Hashable, Sendable {
    public var petId: String
    public var ownerId: String
    public var service: GroomingService
    public var reminder: String

    public init(petId: String, ownerId: String, service: GroomingService, reminder: String = "") {
        self.petId = petId
        self.ownerId = ownerId
        self.service = service
        self.reminder = reminder
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        ownerId = try r.string("ownerId")
        service = try r.choice("service", GroomingService.self)
        reminder = try r.string("reminder")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("ownerId", ownerId)
        w.choice("service", service)
        w.string("reminder", reminder)
    }
}
