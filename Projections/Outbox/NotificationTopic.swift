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
