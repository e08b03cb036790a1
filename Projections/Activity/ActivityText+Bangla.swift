import EventLog
import Events

/// The activity history in Bangla (bn-BD), for accounts that chose it: the same sentences as ``ActivityText``,
/// from the same data. Ids, amounts and dates stay in Western digits, as the apps show them.
extension ActivityText {
    /// The entry in Bangla words, as its user reads it.
    ///
    /// - Parameters:
    ///   - e: The entry.
    ///   - user: The user whose history it is.
    /// - Returns: The sentence.
    public static func describeInBangla(_ e: ActivityEntry, user: String) -> String {
        let byShop = !e.by.isEmpty && e.by != user
        let slotText = e.time.map(slotBangla) ?? "?"
        switch e.kind {
        case .signedUp: return "সাইন আপ করেছেন"
        case .accountDeleted: return "অ্যাকাউন্ট মুছে ফেলেছেন"
        case .adminBootstrapped: return "প্রথম অ্যাডমিন হয়েছেন"
        case .roleGranted: return "\(role(e.detail)) ভূমিকা পেয়েছেন"
        case .roleRevoked: return byShop ? "\(role(e.detail)) ভূমিকা তুলে নেওয়া হয়েছে" : "\(role(e.detail)) ভূমিকা ছেড়ে দিয়েছেন"
        case .session:
            switch (e.count, e.secondary) {
            case (let logins, 0): return "লগ ইন করেছেন" + timesBangla(logins)
            case (0, let restores): return "সেশন পুনরুদ্ধার হয়েছে" + timesBangla(restores)
            case (let logins, let restores):
                return "লগ ইন করেছেন (\(logins + restores) বার: \(logins) বার লগ ইন, \(restores) বার সেশন পুনরুদ্ধার)"
            }
        case .loggedOut: return "লগ আউট করেছেন" + timesBangla(e.count)
        case .passwordResetRequested: return "পাসওয়ার্ড রিসেট লিংক চেয়েছেন (\(e.detail)-এ পাঠানো হয়েছে)"
        case .passwordChanged: return "পাসওয়ার্ড বদলেছেন"
        case .emailChanged: return "ইমেইল বদলে \(e.detail) করেছেন"
        case .profileUpdated: return "প্রোফাইল হালনাগাদ করেছেন (\(fieldsBangla(e)))"
        case .languageChanged: return "ভাষা বদলে \(languageBangla(e.detail)) করেছেন"

        case .petAdded: return "পোষা প্রাণী \(e.name) যোগ করেছেন"
        case .petEdited: return "\(e.name)-এর প্রোফাইল সম্পাদনা করেছেন (\(fieldsBangla(e)))"
        case .petRemoved: return "পোষা প্রাণী \(e.name) সরিয়েছেন" + (e.count > 0 ? " (\(e.count)টি বুকিং বাতিল)" : "")
        case .vaccinationRecorded:
            return "\(e.name)-এর \(e.detail) টিকা লিখে রেখেছেন" + (e.time.map { " (পরবর্তী টিকা \(dateBangla($0)))" } ?? "")
        case .healthIssueOpened: return "\(e.name)-এর একটি স্বাস্থ্য সমস্যা লিখেছেন: \(e.detail)"
        case .healthIssueResolved:
            return e.detail.isEmpty ? "\(e.name)-এর একটি স্বাস্থ্য সমস্যার সমাধান হয়েছে" : "\(e.name)-এর স্বাস্থ্য সমস্যার সমাধান হয়েছে: \(e.detail)"
        case .vetContactSet: return "\(e.name)-এর পশুচিকিৎসক ঠিক করেছেন: \(e.detail), \(e.extra)"
        case .treatmentStarted:
            return "\(e.name)-এর \(e.extra == "supplement" ? "সম্পূরক" : "ওষুধ") শুরু করেছেন: \(e.detail)"
        case .treatmentEnded:
            return e.detail.isEmpty ? "\(e.name)-এর একটি চিকিৎসা শেষ করেছেন" : "\(e.name)-এর চিকিৎসা শেষ করেছেন: \(e.detail)"
        case .vetAppointmentSet:
            return "\(e.name)-এর পরবর্তী পশুচিকিৎসক সাক্ষাৎ ঠিক করেছেন: \(slotText)" + (e.detail.isEmpty ? "" : " (\(e.detail))")
        case .foodPlanSet:
            return "\(e.name)-এর খাবারের পরিকল্পনা ঠিক করেছেন: \(e.detail), \(e.count) গ্রাম" + (e.secondary > 0 ? ", দিনে \(e.secondary) বার" : "")
        case .weightLogged: return "\(e.name)-এর ওজন লিখেছেন: \(weightBangla(e.count))"

        case .bookingRequested:
            return byShop
                ? "দোকান \(e.name)-এর জন্য \(slotText)-এ \(serviceBangla(e.detail)) বুক করেছে (স্টাফ \(e.by) আপনার হয়ে বুক করেছেন)"
                : "\(e.name)-এর জন্য \(slotText)-এ \(serviceBangla(e.detail)) বুক করেছেন"
        case .bookingConfirmed: return "বুকিং নিশ্চিত: \(bookingBangla(e))"
        case .bookingCompleted: return "গ্রুমিং সম্পন্ন: \(e.name)-এর \(serviceBangla(e.detail))"
        case .bookingCancelled:
            let reason = e.extra.isEmpty ? "" : " (\(e.extra))"
            return (byShop ? "দোকান বুকিং বাতিল করেছে: " : "বুকিং বাতিল করেছেন: ") + bookingBangla(e) + reason
        case .bookingRescheduled:
            return byShop
                ? "দোকান বুকিং সরিয়েছে: \(e.name)-এর \(serviceBangla(e.detail)), এখন \(slotText)"
                : "\(e.name)-এর \(serviceBangla(e.detail)) সরিয়ে \(slotText)-এ নিয়েছেন"

        case .vetRequestSubmitted:
            return byShop
                ? "দোকান \(e.name) (\(e.detail)) নিয়ে পশুচিকিৎসকের কাছে জানতে চেয়েছে (স্টাফ \(e.by) আপনার হয়ে জমা দিয়েছেন)"
                : "\(e.name) (\(e.detail)) নিয়ে পশুচিকিৎসকের কাছে জানতে চেয়েছেন"
        case .vetRequestAnswered: return "পশুচিকিৎসক \(e.name) সম্পর্কে উত্তর দিয়েছেন"
        case .vetRequestClosed: return "\(e.name) সম্পর্কে পশুচিকিৎসকের কাছে অনুরোধ বন্ধ হয়েছে"

        case .cartChanged:
            if e.secondary == 0 { return "কার্টে " + (e.count == 1 ? "" : "\(e.count) × ") + "\(e.name) যোগ করেছেন" }
            if e.count == 0 { return "কার্ট থেকে \(e.name) সরিয়েছেন" }
            return "কার্টে \(e.name) \(e.secondary) থেকে \(e.count) করেছেন"
        case .cartCleared: return "কার্ট খালি করেছেন" + (e.count > 0 ? " (\(e.count)টি পণ্য)" : "")
        case .guestCartMerged: return "অতিথি হিসেবে ভরা কার্ট নিয়ে এসেছেন (\(e.count)টি পণ্য, \(e.secondary)টি একক)"
        case .favouriteAdded: return "\(e.name) প্রিয় তালিকায় যোগ করেছেন"
        case .favouriteRemoved: return "\(e.name) প্রিয় তালিকা থেকে সরিয়েছেন"
        case .guestFavouritesMerged: return "অতিথি হিসেবে রাখা \(e.count)টি প্রিয় নিয়ে এসেছেন"

        case .orderPlaced:
            return (byShop ? "দোকান অর্ডার \(e.subject) দিয়েছে" : "অর্ডার \(e.subject) দিয়েছেন")
                + " (\(e.count)টি আইটেম, \(Format.money(Money(e.secondary, e.extra))))"
                + (byShop ? " (স্টাফ \(e.by) আপনার হয়ে দিয়েছেন)" : "")
        case .orderConfirmed: return "অর্ডার \(e.subject) নিশ্চিত হয়েছে"
        case .orderShipped: return "অর্ডার \(e.subject) পাঠানো হয়েছে"
        case .orderDelivered: return "অর্ডার \(e.subject) পৌঁছে দেওয়া হয়েছে"
        case .orderCancelled:
            let reason = e.extra.isEmpty ? "" : " (\(e.extra))"
            return (byShop ? "দোকান অর্ডার \(e.subject) বাতিল করেছে" : "অর্ডার \(e.subject) বাতিল করেছেন") + reason

        case .conversationStarted:
            return byShop ? "দোকান \(aboutBangla(e)) নিয়ে কথোপকথন শুরু করেছে" : "\(aboutBangla(e)) নিয়ে কথোপকথন শুরু করেছেন"
        case .messagesSent:
            return e.count == 1 ? "\(aboutBangla(e)) নিয়ে একটি বার্তা পাঠিয়েছেন" : "\(aboutBangla(e)) নিয়ে \(e.count)টি বার্তা পাঠিয়েছেন"
        case .messagesReceived:
            return e.count == 1
                ? "\(aboutBangla(e)) নিয়ে দোকান থেকে একটি বার্তা পেয়েছেন" : "\(aboutBangla(e)) নিয়ে দোকান থেকে \(e.count)টি বার্তা পেয়েছেন"
        }
    }

    static let monthsBangla = ["জানু", "ফেব্রু", "মার্চ", "এপ্রিল", "মে", "জুন", "জুলাই", "আগস্ট", "সেপ্টে", "অক্টো", "নভে", "ডিসে"]

    static func slotBangla(_ t: Timestamp) -> String {
        dayMonth(t, names: monthsBangla) + " " + String(t.iso8601.dropFirst(11).prefix(5))
    }

    static func dateBangla(_ t: Timestamp) -> String { dayMonth(t, names: monthsBangla) + " " + String(t.iso8601.prefix(4)) }

    static func timesBangla(_ n: Int64) -> String { n > 1 ? " (\(n) বার)" : "" }

    static func role(_ raw: String) -> String {
        switch raw {
        case "staff": "স্টাফ"
        case "admin": "অ্যাডমিন"
        default: raw
        }
    }

    static func languageBangla(_ raw: String) -> String {
        switch Language(rawValue: raw) {
        case .enUS: "ইংরেজি"
        case .bnBD: "বাংলা"
        case nil: raw
        }
    }

    static func serviceBangla(_ raw: String) -> String {
        switch GroomingService(rawValue: raw) {
        case .bath: "গোসল"
        case .haircut: "চুল কাটা"
        case .nailTrim: "নখ কাটা"
        case .fullGroom: "পূর্ণ গ্রুমিং"
        case .deShedding: "লোম ঝরানো"
        case nil: raw
        }
    }

    static func fieldsBangla(_ e: ActivityEntry) -> String {
        let names = [
            "name": "নাম", "phone": "ফোন", "address": "ঠিকানা", "photo": "ছবি", "species": "প্রজাতি", "breed": "জাত",
            "birth date": "জন্মতারিখ", "age": "বয়স", "weight": "ওজন",
        ]
        return fields(e).map { names[$0] ?? $0 }.joined(separator: ", ")
    }

    static func weightBangla(_ grams: Int64) -> String {
        let text = weight(grams)
        return text.hasSuffix(" kg") ? text.dropLast(3) + " কেজি" : text.dropLast(2) + " গ্রাম"
    }

    static func bookingBangla(_ e: ActivityEntry) -> String {
        "\(e.name)-এর \(serviceBangla(e.detail)), \(e.time.map(slotBangla) ?? "?")"
    }

    static func aboutBangla(_ e: ActivityEntry) -> String {
        switch ConversationSubject(rawValue: e.detail) {
        case .booking: "বুকিং \(e.name)"
        case .vetRequest: "পশুচিকিৎসকের কাছে অনুরোধ \(e.name)"
        case .order: "অর্ডার \(e.name)"
        case nil: e.name
        }
    }
}
