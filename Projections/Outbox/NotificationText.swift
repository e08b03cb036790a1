public import Events

/// A notification's text in its recipient's language (en-US or bn-BD): what the sending channel delivers. Dates and
/// times are UTC, as every time the shop records.
public enum NotificationText {
    /// The text of a notification for a reader of `language`.
    ///
    /// - Parameters:
    ///   - n: The notification.
    ///   - language: The recipient's language.
    /// - Returns: One sentence.
    public static func text(_ n: Notification, _ language: Language) -> String {
        let day = n.at.map(Format.day) ?? ""
        let time = n.at.map(Format.clock) ?? ""
        switch (n.topic, language) {
        case (.bookingReminder, .enUS):
            return "Reminder: \(n.name)'s \(serviceName(n.detail, language)) is at \(time) on \(day) (UTC)."
        case (.bookingReminder, .bnBD):
            return "মনে করিয়ে দিচ্ছি: \(n.name)-এর \(serviceName(n.detail, language)) \(day) তারিখে \(time)-এ (UTC)।"
        case (.vaccinationDue, .enUS):
            return "\(n.name)'s \(n.detail) vaccination is due on \(day)."
        case (.vaccinationDue, .bnBD):
            return "\(n.name)-এর \(n.detail) টিকা \(day) তারিখে দিতে হবে।"
        case (.orderShipped, .enUS):
            return "Your order \(n.name) is on its way."
        case (.orderShipped, .bnBD):
            return "আপনার অর্ডার \(n.name) পাঠানো হয়েছে।"
        case (.newMessage, .enUS):
            return "New message from the shop: \(n.detail)"
        case (.newMessage, .bnBD):
            return "দোকান থেকে নতুন বার্তা: \(n.detail)"
        case (.passwordReset, .enUS):
            return "Use the link in this message to choose a new password. If you did not ask for it, ignore it."
        case (.passwordReset, .bnBD):
            return "নতুন পাসওয়ার্ড বেছে নিতে এই বার্তার লিংকটি ব্যবহার করুন। আপনি না চাইলে এটি উপেক্ষা করুন।"
        }
    }

    /// A grooming service's name in a language.
    static func serviceName(_ raw: String, _ language: Language) -> String {
        let names: [String: (String, String)] = [
            "bath": ("bath", "গোসল"), "haircut": ("haircut", "চুল কাটা"), "nail-trim": ("nail trim", "নখ কাটা"),
            "full-groom": ("full groom", "সম্পূর্ণ গ্রুমিং"), "de-shedding": ("de-shedding", "লোম ঝরানোর চিকিৎসা"),
        ]
        guard let pair = names[raw] else { return raw }
        return language == .bnBD ? pair.1 : pair.0
    }
}
