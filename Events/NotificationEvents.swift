import EventLog

// Notifications: what an account wants to be told (stream `account-<user>`), and the outbox's record of what was
// handed to the sending channel (stream `notification-<id>`, one event, appended only if the stream is new, so a
// notification is marked sent exactly once however many workers try).

/// The kinds of notification an account can turn off. A password-reset link is always sent.
public enum NotificationKind: String, FieldChoice {
    case bookingReminders = "booking-reminders"
    case vaccinationDue = "vaccination-due"
    case orderUpdates = "order-updates"
    case messages
}

/// On or off.
public enum NotificationSetting: String, FieldChoice {
    case on, off
}

/// An account turned a kind of notification on or off.
public struct NotificationSettingChanged: DomainEvent {
    public static let eventType = "NotificationSettingChanged"
    public static let area = "accounts"
    public static let summary = "An account turned a kind of notification on or off (booking reminders, vaccination due, order updates, messages)."
    public var userId: String
    public var kind: NotificationKind
    public var setting: NotificationSetting

    public init(userId: String, kind: NotificationKind, setting: NotificationSetting) {
        self.userId = userId
        self.kind = kind
        self.setting = setting
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        userId = try r.string("userId")
        kind = try r.choice("kind", NotificationKind.self)
        setting = try r.choice("setting", NotificationSetting.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.string("userId", userId)
        w.choice("kind", kind)
        w.choice("setting", setting)
    }
}

/// A worker handed a due notification to its channel (email, push, SMS): it is not due again.
public struct NotificationSent: DomainEvent {
    public static let eventType = "NotificationSent"
    public static let area = "accounts"
    public static let summary = "A worker took a due notification from the outbox to send it; it is never due again."
    public var notificationId: String
    public var sentBy: String

    public init(notificationId: String, sentBy: String) {
        self.notificationId = notificationId
        self.sentBy = sentBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        notificationId = try r.string("notificationId")
        sentBy = try r.string("sentBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("notificationId", notificationId)
        w.string("sentBy", sentBy)
    }
}
