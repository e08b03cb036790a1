public import EventLog
import Events
import PawtrailJSON

/// `pawtrail view activity --user ID [--limit N]`: one user's meaningful activity, newest first, worded in the
/// user's language (en-US or bn-BD); the `kind` and field names of the JSON stay the same in both.
public enum ActivityView: ProjectionView {
    public typealias Source = ActivityProjection
    public static let name = "activity"
    public static let summary = "A user's meaningful account activity in words, newest first, with noise filtered out."
    public static let options = [
        ViewOption("user", "id", help: "The user whose history to show.", required: true),
        ViewOption("limit", "n", help: "The most entries to show (at most 200, the history's bound).", default: "50"),
    ]

    public static func audience(_ state: ActivityProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .userAndStaff(try arguments.required("user"))
    }

    public static func render(_ state: ActivityState, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let user = try arguments.required("user")
        let limit = try arguments.int("limit", default: 50, range: 1...Int64(ActivityRules.standard.maxEntriesPerUser))
        guard let history = state.users[user], !history.entries.isEmpty else {
            throw .notFound("no activity for user '\(user)'")
        }
        // The state may hold up to `trimSlack` entries past the bound; the history is the newest `maxEntriesPerUser`.
        let kept = history.entries.suffix(ActivityRules.standard.maxEntriesPerUser)
        let shown = Array(kept.reversed().prefix(Int(limit)))
        // Worded in the user's own language (the one they chose at sign-up or since).
        let bangla = history.language == Language.bnBD.rawValue
        let texts = shown.map { bangla ? ActivityText.describeInBangla($0, user: user) : ActivityText.describe($0, user: user) }
        return ViewOutput(
            title: "Activity of \(user) (newest first)",
            header: ["WHEN", "WHAT"],
            rows: zip(shown, texts).map { [ActivityText.when($0.0), $0.1] },
            footer: shown.count < kept.count ? ["\(shown.count) of \(kept.count) entries; --limit shows more"] : [],
            json: .array(
                zip(shown, texts).map { entry, text in
                    var o: [JSONValue.Pair] = [
                        .init(key: "at", value: Format.json(entry.at)),
                        .init(key: "lastAt", value: Format.json(entry.lastAt)),
                        .init(key: "position", value: .int(entry.position)),
                        .init(key: "kind", value: .string(entry.kind.rawValue)),
                        .init(key: "text", value: .string(text)),
                    ]
                    if !entry.subject.isEmpty { o.append(.init(key: "subject", value: .string(entry.subject))) }
                    let fields = ActivityText.fields(entry)
                    if !fields.isEmpty { o.append(.init(key: "fields", value: .array(fields.map { .string($0) }))) }
                    if entry.kind == .orderPlaced {
                        o.append(.init(key: "amount", value: Format.json(Money(entry.secondary, entry.extra))))
                    }
                    return .object(o)
                }))
    }
}

/// The words of the activity history: every entry kind said in a sentence, from the data the fold kept.
public enum ActivityText {
    /// The entry in words, as its user reads it: their own actions active ("Cancelled ..."), the shop's passive
    /// ("Booking confirmed: ...").
    ///
    /// - Parameters:
    ///   - e: The entry.
    ///   - user: The user whose history it is (to tell their own actions from the shop's).
    /// - Returns: The sentence.
    public static func describe(_ e: ActivityEntry, user: String) -> String {
        let byShop = !e.by.isEmpty && e.by != user
        switch e.kind {
        case .signedUp: return "Signed up"
        case .accountDeleted: return "Deleted the account"
        case .adminBootstrapped: return "Became the first admin"
        case .roleGranted: return "Given the \(e.detail) role"
        case .roleRevoked: return byShop ? "The \(e.detail) role was taken away" : "Gave up the \(e.detail) role"
        case .session:
            switch (e.count, e.secondary) {
            case (let logins, 0): return "Logged in" + times(logins)
            case (0, let restores): return "Session restored" + times(restores)
            case (let logins, let restores):
                let kinds = "\(plural(logins, "log-in")), \(plural(restores, "session restore"))"
                return "Logged in (\(logins + restores) times: \(kinds))"
            }
        case .loggedOut: return "Logged out" + times(e.count)
        case .passwordResetRequested: return "Asked for a password reset link (sent to \(e.detail))"
        case .passwordChanged: return "Changed password"
        case .emailChanged: return "Changed email to \(e.detail)"
        case .profileUpdated: return "Updated profile (\(fields(e).joined(separator: ", ")))"
        case .languageChanged: return "Changed language to \(language(e.detail))"

        case .petAdded: return "Added pet \(e.name)"
        case .petEdited: return "Edited \(e.name)'s profile (\(fields(e).joined(separator: ", ")))"
        case .petRemoved:
            return "Removed pet \(e.name)" + (e.count > 0 ? " (\(plural(e.count, "booking")) cancelled)" : "")
        case .vaccinationRecorded:
            return "Recorded \(e.name)'s \(e.detail) vaccination" + (e.time.map { " (next due \(date($0)))" } ?? "")
        case .healthIssueOpened: return "Opened a health issue for \(e.name): \(e.detail)"
        case .healthIssueResolved:
            return e.detail.isEmpty
                ? "Resolved a health issue of \(e.name)" : "Resolved \(e.name)'s health issue: \(e.detail)"
        case .vetContactSet: return "Set \(e.name)'s vet: \(e.detail), \(e.extra)"
        case .treatmentStarted: return "Started \(e.name)'s \(e.extra): \(e.detail)"
        case .treatmentEnded:
            return e.detail.isEmpty ? "Ended a treatment of \(e.name)" : "Ended \(e.name)'s treatment: \(e.detail)"
        case .vetAppointmentSet:
            return "Set \(e.name)'s next vet appointment for \(e.time.map(slot) ?? "?")"
                + (e.detail.isEmpty ? "" : " (\(e.detail))")
        case .foodPlanSet:
            return "Set \(e.name)'s food plan: \(e.detail), \(e.count) g"
                + (e.secondary > 0 ? " \(e.secondary) times a day" : "")
        case .weightLogged: return "Logged \(e.name)'s weight: \(weight(e.count))"

        case .bookingRequested:
            return (byShop ? "The shop booked a " : "Booked a ") + "\(service(e.detail)) for \(e.name) on \(e.time.map(slot) ?? "?")"
                + (byShop ? " (booked by staff \(e.by) for you)" : "")
        case .bookingConfirmed: return "Booking confirmed: \(booking(e))"
        case .bookingCompleted: return "Grooming done: \(service(e.detail)) for \(e.name)"
        case .bookingCancelled:
            let reason = e.extra.isEmpty ? "" : " (\(e.extra))"
            return (byShop ? "Booking cancelled by the shop: " : "Cancelled the booking: ") + booking(e) + reason
        case .bookingRescheduled:
            return byShop
                ? "Booking moved by the shop: \(service(e.detail)) for \(e.name), now on \(e.time.map(slot) ?? "?")"
                : "Moved the \(service(e.detail)) for \(e.name) to \(e.time.map(slot) ?? "?")"

        case .vetRequestSubmitted:
            return (byShop ? "The shop asked the vet about " : "Asked the vet about ") + "\(e.name) (\(e.detail))"
                + (byShop ? " (submitted by staff \(e.by) for you)" : "")
        case .vetRequestAnswered: return "The vet answered about \(e.name)"
        case .vetRequestClosed: return "Vet request about \(e.name) closed"

        case .cartChanged:
            if e.secondary == 0 { return "Added " + (e.count == 1 ? "" : "\(e.count) × ") + "\(e.name) to the cart" }
            if e.count == 0 { return "Removed \(e.name) from the cart" }
            return "Changed \(e.name) in the cart from \(e.secondary) to \(e.count)"
        case .cartCleared: return "Emptied the cart" + (e.count > 0 ? " (\(plural(e.count, "product")))" : "")
        case .guestCartMerged:
            return
                "Brought in the cart filled as a guest (\(plural(e.count, "product")), \(plural(e.secondary, "unit")))"
        case .favouriteAdded: return "Added \(e.name) to favourites"
        case .favouriteRemoved: return "Removed \(e.name) from favourites"
        case .guestFavouritesMerged: return "Brought in \(plural(e.count, "favourite")) saved as a guest"

        case .orderPlaced:
            return (byShop ? "The shop placed order " : "Placed order ")
                + "\(e.subject) (\(plural(e.count, "item")), \(Format.money(Money(e.secondary, e.extra))))"
                + (byShop ? " (placed by staff \(e.by) for you)" : "")
        case .orderConfirmed: return "Order \(e.subject) confirmed"
        case .orderShipped: return "Order \(e.subject) shipped"
        case .orderDelivered: return "Order \(e.subject) delivered"
        case .orderCancelled:
            let reason = e.extra.isEmpty ? "" : " (\(e.extra))"
            return (byShop ? "Order \(e.subject) cancelled by the shop" : "Cancelled order \(e.subject)") + reason

        case .conversationStarted:
            return (byShop ? "The shop started a conversation about " : "Started a conversation about ") + about(e)
        case .messagesSent:
            return e.count == 1 ? "Sent a message about \(about(e))" : "Sent \(e.count) messages about \(about(e))"
        case .messagesReceived:
            return e.count == 1
                ? "Received a message from the shop about \(about(e))"
                : "Received \(e.count) messages from the shop about \(about(e))"
        }
    }

    /// The changed fields of a profile or pet edit, in their fixed order; empty for other kinds.
    public static func fields(_ e: ActivityEntry) -> [String] {
        switch e.kind {
        case .profileUpdated: ActivityRules.fieldNames(e.count, ActivityRules.profileFields)
        case .petEdited: ActivityRules.fieldNames(e.count, ActivityRules.petFields)
        default: []
        }
    }

    /// When an entry happened: `2026-12-01 09:00`, and the end of its span when it collapsed several events
    /// (`2026-12-01 09:00–09:20`, or the full end on another day).
    public static func when(_ e: ActivityEntry) -> String {
        let start = minute(e.at)
        let end = minute(e.lastAt)
        if end == start { return start }
        return start + "–" + (end.prefix(10) == start.prefix(10) ? String(end.dropFirst(11)) : end)
    }

    /// `2026-12-01 09:00` (UTC).
    static func minute(_ t: Timestamp) -> String {
        let s = t.iso8601
        return String(s.prefix(10)) + " " + String(s.dropFirst(11).prefix(5))
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The day and month of a time: `3 Dec`, with the month named from `names`.
    static func dayMonth(_ t: Timestamp, names: [String] = months) -> String {
        let s = Array(t.iso8601.utf8)
        let day = Int(s[8] - 48) * 10 + Int(s[9] - 48)
        let month = Int(s[5] - 48) * 10 + Int(s[6] - 48)
        return "\(day) \(names[month - 1])"
    }

    /// A slot: `3 Dec 10:00` (UTC).
    public static func slot(_ t: Timestamp) -> String {
        dayMonth(t) + " " + String(t.iso8601.dropFirst(11).prefix(5))
    }

    /// A date: `3 Dec 2027`.
    public static func date(_ t: Timestamp) -> String {
        dayMonth(t) + " " + String(t.iso8601.prefix(4))
    }

    /// A language's name in English.
    public static func language(_ raw: String) -> String {
        switch Language(rawValue: raw) {
        case .enUS: "English"
        case .bnBD: "Bangla"
        case nil: raw
        }
    }

    /// A grooming service in words: `full groom`.
    public static func service(_ raw: String) -> String {
        switch GroomingService(rawValue: raw) {
        case .bath: "bath"
        case .haircut: "haircut"
        case .nailTrim: "nail trim"
        case .fullGroom: "full groom"
        case .deShedding: "de-shedding"
        case nil: raw
        }
    }

    /// A weight: `850 g`, `12.4 kg`.
    public static func weight(_ grams: Int64) -> String {
        guard grams >= 1000 else { return "\(grams) g" }
        var fraction = String(grams % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(grams / 1000)" + (fraction.isEmpty ? "" : "." + fraction) + " kg"
    }

    static func booking(_ e: ActivityEntry) -> String {
        "\(service(e.detail)) for \(e.name) on \(e.time.map(slot) ?? "?")"
    }

    static func about(_ e: ActivityEntry) -> String {
        switch ConversationSubject(rawValue: e.detail) {
        case .booking: "booking \(e.name)"
        case .vetRequest: "vet request \(e.name)"
        case .order: "order \(e.name)"
        case nil: e.name
        }
    }

    static func times(_ n: Int64) -> String { n > 1 ? " (\(n) times)" : "" }

    static func plural(_ n: Int64, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
