public import EventLog
public import Events

/// The outbox: every notification the shop owes its customers, from the moment it falls due until a worker takes it
/// (`outbox mark-sent`). Booking reminders (due 24 h before a confirmed slot), vaccinations due (a week before the
/// next dose), an order shipped, a message from the shop and a password-reset link. A notification is made only for
/// a recipient who has not turned its kind off; a booking reminder leaves when its booking is cancelled, moved,
/// completed or missed; a deleted account's and a removed pet's are not sent.
///
/// Open notifications are one group of a ``GroupedTable``, so taking one stores one row; sent ones move to the group
/// of the day they fell due. Recipients and pets keep every version, so the outbox reads right as of any moment.
public enum OutboxProjection: KeyedProjection {
    public struct State: KeyedProjectionState {
        /// Open notifications: the group `open`, a part a notification id.
        public var open = GroupedTable<Notification>(id: 1)
        /// Sent notifications: a group a UTC day they fell due, a part a notification id.
        public var sent = GroupedTable<Notification>(id: 2)
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
            open = GroupedTable(id: 1, rows: try r.keyed("open", Notification.self))
            sent = GroupedTable(id: 2, rows: try r.keyed("sent", Notification.self))
            recipients = KeyedTable(id: 3, history: .exact, rows: try r.keyed("recipients", Recipient.self))
            pets = KeyedTable(id: 4, history: .exact, rows: try r.keyed("pets", OutboxPet.self))
            bookings = KeyedTable(id: 5, history: .current, rows: try r.keyed("bookings", OutboxBooking.self))
            owners = KeyedTable(id: 6, history: .current, rows: try r.keyed("owners", TextRow.self))
            clock = KeyedTable(id: 7, history: .exact, rows: try r.keyed("clock", TimeRow.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("open", open.entries)
            w.keyed("sent", sent.entries)
            w.keyed("recipients", recipients.entries)
            w.keyed("pets", pets.entries)
            w.keyed("bookings", bookings.entries)
            w.keyed("owners", owners.entries)
            w.keyed("clock", clock.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&open)
            visitor.visit(&sent)
            visitor.visit(&recipients)
            visitor.visit(&pets)
            visitor.visit(&bookings)
            visitor.visit(&owners)
            visitor.visit(&clock)
        }

        /// Whether a notification is still to be sent: its account is not deleted and its pet not removed.
        public func deliverable(_ n: Notification) -> Bool {
            guard recipients[n.userId]?.deleted != true else { return false }
            return n.petId.isEmpty || pets[n.petId]?.removed != true
        }

        /// Open notifications due at or before `now`, the earliest first.
        public func due(by now: Timestamp) -> [(id: String, notification: Notification)] {
            open.parts(of: OutboxProjection.openGroup).filter { $0.value.dueAt <= now && deliverable($0.value) }
                .map { (id: $0.key, notification: $0.value) }.sorted { ($0.notification.dueAt, $0.id) < ($1.notification.dueAt, $1.id) }
        }

        /// Adds a notification for its recipient, unless they turned its kind off or are gone.
        mutating func notify(_ id: String, _ n: Notification) {
            guard recipients[n.userId]?.wants(n.topic) == true else { return }
            open[OutboxProjection.openGroup, id] = n
        }
    }

    static let openGroup = "open"
    /// Vaccinations are announced this long before the dose is due.
    static let vaccinationLead: Int64 = 7 * 86_400_000_000

    public static let name = "outbox"
    public static let schemaVersion = 1
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
                Notification(topic: .newMessage, userId: owner, dueAt: e.occurredAt, subject: x.conversationId, name: x.senderId, detail: String(x.text.prefix(80))))
        case NotificationSent.typeID:
            let id = (e.event as! NotificationSent).notificationId
            guard let n = state.open[openGroup, id] else { return }
            state.open[openGroup, id] = nil
            state.sent[Format.day(n.dueAt), id] = n
        default:
            return
        }
    }

    /// A booking's open reminder is withdrawn: the booking ended or moved (a moved one is reminded of anew when it is
    /// confirmed again).
    private static func withdrawReminder(_ state: inout State, _ bookingId: String) {
        guard var booking = state.bookings[bookingId], !booking.reminder.isEmpty else { return }
        state.open[openGroup, booking.reminder] = nil
        booking.reminder = ""
        state.bookings[bookingId] = booking
    }
}
