public import EventLog
public import Events

/// A notification to be read: its id, and the language of its recipient.
public struct OutboxItem: Sendable {
    public var id: String
    public var notification: Notification
    public var language: Language

    /// Its text in the recipient's language.
    public var text: String { NotificationText.text(notification, language) }
}

/// The outbox: every notification the shop owes its customers, from the moment it falls due until a worker takes it
/// (`outbox mark-sent`). Booking reminders (due 24 h before a confirmed slot), vaccinations due (a week before the
/// next dose), an order shipped, a message from the shop and a password-reset link. A notification is made only for
/// a recipient who has not turned its kind off; a booking reminder leaves when its booking is cancelled, moved,
/// completed or missed; a deleted account's and a removed pet's are not sent.
///
/// Notifications are grouped by the UTC day they fall due (a ``GroupedTable``), so taking one stores one row, and what
/// is due now is read from the groups of the last ``window`` only, however long the shop's history: a notification
/// not taken within a week of falling due has expired (a shipment notice a month late helps no one). Recipients and
/// pets keep every version, so the outbox reads right as of any moment.
public enum OutboxProjection: KeyedProjection {
    public struct State: KeyedProjectionState {
        /// Notifications: a group a UTC day they fall due, a part a notification id.
        public var notifications = GroupedTable<Notification>(id: 1)
        /// The day each notification falls due, to find its row again, for the fold.
        public var dayOf = KeyedTable<TextRow>(id: 2, history: .current)
        public var recipients = KeyedTable<Recipient>(id: 3, history: .exact)
        public var pets = KeyedTable<OutboxPet>(id: 4, history: .exact)
        /// Bookings, for the fold.
        public var bookings = KeyedTable<OutboxBooking>(id: 5, history: .current)
        /// The customer of each order (`order:<id>`) and conversation (`conversation:<id>`), for the fold.
        public var owners = KeyedTable<TextRow>(id: 6, history: .current)
        /// The business time of the last event folded (under `latest`, to the minute), every version kept: what
        /// "due by now" means by default, live and as of any moment.
        public var clock = KeyedTable<TimeRow>(id: 7, history: .exact)

        /// The business time of the last event folded, to the minute.
        public var latest: Timestamp? { clock["latest"]?.at }

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            notifications = GroupedTable(id: 1, rows: try r.keyed("notifications", Notification.self))
            dayOf = KeyedTable(id: 2, history: .current, rows: try r.keyed("dayOf", TextRow.self))
            recipients = KeyedTable(id: 3, history: .exact, rows: try r.keyed("recipients", Recipient.self))
            pets = KeyedTable(id: 4, history: .exact, rows: try r.keyed("pets", OutboxPet.self))
            bookings = KeyedTable(id: 5, history: .current, rows: try r.keyed("bookings", OutboxBooking.self))
            owners = KeyedTable(id: 6, history: .current, rows: try r.keyed("owners", TextRow.self))
            clock = KeyedTable(id: 7, history: .exact, rows: try r.keyed("clock", TimeRow.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("notifications", notifications.entries)
            w.keyed("dayOf", dayOf.entries)
            w.keyed("recipients", recipients.entries)
            w.keyed("pets", pets.entries)
            w.keyed("bookings", bookings.entries)
            w.keyed("owners", owners.entries)
            w.keyed("clock", clock.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&notifications)
            visitor.visit(&dayOf)
            visitor.visit(&recipients)
            visitor.visit(&pets)
            visitor.visit(&bookings)
            visitor.visit(&owners)
            visitor.visit(&clock)
        }

        /// A notification's recipient when it is still to be sent (the account is not deleted, the pet not removed),
        /// `nil` otherwise.
        public func recipient(_ n: Notification) -> Recipient? {
            let recipient = recipients[n.userId] ?? Recipient(language: .enUS)
            guard !recipient.deleted, n.petId.isEmpty || pets[n.petId]?.removed != true else { return nil }
            return recipient
        }

        /// The notifications falling due within the ``OutboxProjection/window`` up to `now`, the earliest first, that
        /// `keep` keeps, at most `limit`: the days are read oldest first, and reading stops once the limit is reached.
        public func recent(by now: Timestamp, limit: Int = .max, keep: (Notification) -> Bool = { _ in true }) -> [OutboxItem] {
            let last = Format.dayNumber(now)
            var out: [OutboxItem] = []
            for day in (last - OutboxProjection.window)...last where out.count < limit {
                let parts = notifications.parts(of: Format.date(dayNumber: day)).filter { $0.value.dueAt <= now && keep($0.value) }
                // A day's notifications name recipients and pets all over their tables: read together, in stored
                // order, each block of rows is decompressed once instead of once a notification.
                recipients.prefetch(Set(parts.values.map(\.userId)))
                pets.prefetch(Set(parts.values.lazy.map(\.petId).filter { !$0.isEmpty }))
                for (id, n) in parts.sorted(by: { ($0.value.dueAt, $0.key) < ($1.value.dueAt, $1.key) }) where out.count < limit {
                    if let recipient = recipient(n) { out.append(OutboxItem(id: id, notification: n, language: recipient.language)) }
                }
            }
            return out
        }

        /// Notifications due at or before `now`, within the window, not yet taken, the earliest first, at most `limit`.
        public func due(by now: Timestamp, limit: Int = .max) -> [OutboxItem] {
            recent(by: now, limit: limit) { !$0.sent }
        }

        /// Adds a notification for its recipient, unless they turned its kind off or are gone.
        mutating func notify(_ id: String, _ n: Notification) {
            guard recipients[n.userId]?.wants(n.topic) == true else { return }
            let day = Format.day(n.dueAt)
            notifications[day, id] = n
            dayOf[id] = TextRow(day)
        }

        /// Changes a notification in place, found by its id.
        mutating func change(_ id: String, _ body: (inout Notification?) -> Void) {
            guard let day = dayOf[id]?.text else { return }
            notifications.modify(group: day, part: id, body)
        }
    }

    /// Days after falling due that a notification may still be taken; older ones have expired.
    public static let window: Int64 = 7
    /// Vaccinations are announced this long before the dose is due.
    static let vaccinationLead: Int64 = 7 * 86_400_000_000

    public static let name = "outbox"
    /// Personal values (names, emails, addresses, recipients, message texts) are kept as tokens that views open.
    public static let foldsPersonalReferences = true
    public static let schemaVersion = 2
    public static let foldCost = 120
    public static let summary = "Notifications owed to customers (reminders, vaccinations due, shipments, messages, reset links) until sent."
    public static let eventTypes = types(
        AccountSignedUp.self, LanguageChanged.self, NotificationSettingChanged.self, AccountDeleted.self, PasswordResetRequested.self,
        PetAdded.self, PetEdited.self, PetRemoved.self, VaccinationRecorded.self,
        BookingRequested.self, BookingConfirmed.self, BookingRescheduled.self, BookingCancelled.self, BookingCompleted.self, BookingNoShow.self,
        OrderPlaced.self, OrderShipped.self, ConversationStarted.self, MessageSent.self, NotificationSent.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        // To the minute, so that a busy minute stores one version of the clock.
        let minute = Timestamp(microsecondsSinceEpoch: e.occurredAt.microsecondsSinceEpoch / 60_000_000 * 60_000_000)
        if state.latest.map({ $0 < minute }) ?? true { state.clock["latest"] = TimeRow(minute) }
        switch e.typeID {
        case AccountSignedUp.typeID:
            let x = e.event as! AccountSignedUp
            state.recipients[x.userId] = Recipient(language: x.language)
        case LanguageChanged.typeID:
            let x = e.event as! LanguageChanged
            state.recipients.modify(x.userId) { r in r?.language = x.language }
        case NotificationSettingChanged.typeID:
            let x = e.event as! NotificationSettingChanged
            state.recipients.modify(x.userId) { r in
                guard r != nil else { return }
                r!.off.removeAll { $0 == x.kind.rawValue }
                if x.setting == .off { r!.off = (r!.off + [x.kind.rawValue]).sorted() }
            }
        case AccountDeleted.typeID:
            state.recipients.modify((e.event as! AccountDeleted).userId) { r in r?.deleted = true }
        case PasswordResetRequested.typeID:
            let x = e.event as! PasswordResetRequested
            state.notify("reset.\(x.userId).\(e.position)", Notification(topic: .passwordReset, userId: x.userId, dueAt: e.occurredAt, subject: x.userId))
        case PetAdded.typeID:
            let x = e.event as! PetAdded
            state.pets[x.petId] = OutboxPet(name: x.name, ownerId: x.ownerId)
        case PetEdited.typeID:
            let x = e.event as! PetEdited
            if let name = x.name { state.pets.modify(x.petId) { p in p?.name = name } }
        case PetRemoved.typeID:
            state.pets.modify((e.event as! PetRemoved).petId) { p in p?.removed = true }
        case VaccinationRecorded.typeID:
            let x = e.event as! VaccinationRecorded
            guard let next = x.nextDue, let pet = state.pets[x.petId] else { return }
            let due = Timestamp(microsecondsSinceEpoch: next.microsecondsSinceEpoch - vaccinationLead)
            state.notify(
                "vaccination.\(x.petId).\(Format.day(next))",
                Notification(topic: .vaccinationDue, userId: pet.ownerId, dueAt: due, subject: x.petId, petId: x.petId, name: pet.name, detail: x.vaccine, at: next))
        default:
            try applyShop(&state, e)
        }
    }

    /// Bookings, orders, messages and the outbox's own record of what was sent.
    private static func applyShop(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {
        case BookingRequested.typeID:
            let x = e.event as! BookingRequested
            state.bookings[x.bookingId] = OutboxBooking(petId: x.petId, ownerId: x.ownerId, service: x.service)
        case BookingConfirmed.typeID:
            let x = e.event as! BookingConfirmed
            guard var booking = state.bookings[x.bookingId] else { return }
            let id = "reminder.\(x.bookingId).\(String(x.slot.iso8601.prefix(16).filter(\.isNumber)))"
            state.notify(
                id,
                Notification(
                    topic: .bookingReminder, userId: booking.ownerId, dueAt: x.reminderDueAt, subject: x.bookingId, petId: booking.petId,
                    name: state.pets[booking.petId]?.name ?? booking.petId, detail: booking.service.rawValue, at: x.slot))
            booking.reminder = id
            state.bookings[x.bookingId] = booking
        case BookingRescheduled.typeID:
            withdrawReminder(&state, (e.event as! BookingRescheduled).bookingId)
        case BookingCancelled.typeID:
            withdrawReminder(&state, (e.event as! BookingCancelled).bookingId)
        case BookingCompleted.typeID:
            withdrawReminder(&state, (e.event as! BookingCompleted).bookingId)
        case BookingNoShow.typeID:
            withdrawReminder(&state, (e.event as! BookingNoShow).bookingId)
        case OrderPlaced.typeID:
            let x = e.event as! OrderPlaced
            state.owners["order:\(x.orderId)"] = TextRow(x.customerId)
        case OrderShipped.typeID:
            let x = e.event as! OrderShipped
            guard let customer = state.owners["order:\(x.orderId)"]?.text else { return }
            state.notify("shipped.\(x.orderId)", Notification(topic: .orderShipped, userId: customer, dueAt: e.occurredAt, subject: x.orderId, name: x.orderId))
        case ConversationStarted.typeID:
            let x = e.event as! ConversationStarted
            state.owners["conversation:\(x.conversationId)"] = TextRow(x.ownerId)
        case MessageSent.typeID:
            let x = e.event as! MessageSent
            // The shop's replies reach the customer; a customer's own messages wait in the staff's queues.
            guard let owner = state.owners["conversation:\(x.conversationId)"]?.text, owner != x.senderId else { return }
            state.notify(
                "message.\(x.conversationId).\(x.messageId)",
                Notification(topic: .newMessage, userId: owner, dueAt: e.occurredAt, subject: x.conversationId, name: x.senderId, detail: PersonalReference.preview(x.text, 80)))
        case NotificationSent.typeID:
            state.change((e.event as! NotificationSent).notificationId) { n in n?.sent = true }
        default:
            return
        }
    }

    /// A booking's open reminder is withdrawn: the booking ended or moved (a moved one is reminded of anew when it is
    /// confirmed again).
    private static func withdrawReminder(_ state: inout State, _ bookingId: String) {
        guard var booking = state.bookings[bookingId], !booking.reminder.isEmpty else { return }
        // A reminder taken already stays as it was sent.
        state.change(booking.reminder) { n in if n?.sent == false { n = nil } }
        booking.reminder = ""
        state.bookings[bookingId] = booking
    }
}
