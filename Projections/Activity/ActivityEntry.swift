public import EventLog
public import Events

/// One line of a user's activity history: one meaningful event, or several noisy ones the rules folded together
/// (see ``ActivityRules``).
///
/// The entry keeps data, not text: the fold copies what it knows then (a pet's name, a product's name, a slot) and
/// the view words it (``ActivityText``), so `apply` never formats a string and the history reads as it was when it
/// happened even after a pet is renamed. The fields are a small common bag; what each means depends on ``kind``
/// (documented on each ``Kind`` case), so one record shape serves every kind and encodes without a tag per kind.
/// It is kept small (144 bytes) because a history holds up to 250 of them per user: changed fields are bits, and
/// an order's total is its minor units and currency.
public struct ActivityEntry: FieldCodable, Hashable {
    /// What happened. The raw values are the `kind` scripts see in the view's JSON.
    public enum Kind: String, FieldChoice {
        // Account.
        /// Signed up. `name`: the name given, `detail`: the email.
        case signedUp = "signed-up"
        /// Deleted the account.
        case accountDeleted = "account-deleted"
        /// Became the first admin.
        case adminBootstrapped = "admin-bootstrapped"
        /// Given a role. `detail`: the role, `by`: the admin.
        case roleGranted = "role-granted"
        /// A role taken away. `detail`: the role, `by`: the admin.
        case roleRevoked = "role-revoked"
        /// Log-ins and session restores, collapsed. `count`: log-ins, `secondary`: session restores.
        case session
        /// Log-outs, collapsed. `count`: how many.
        case loggedOut = "logged-out"
        /// Asked for a password reset link. `detail`: the address it went to.
        case passwordResetRequested = "password-reset-requested"
        /// Changed the password.
        case passwordChanged = "password-changed"
        /// Changed the email. `detail`: the new address, `extra`: the old one.
        case emailChanged = "email-changed"
        /// Profile edits, coalesced. `count`: the union of changed fields as bits of
        /// ``ActivityRules/profileFields`` (name, phone, address, photo).
        case profileUpdated = "profile-updated"
        /// The net language change. `extra`: the language before, `detail`: after (raw values, `bn-BD`).
        case languageChanged = "language-changed"

        // Pets. `subject`: the pet id, `name`: the pet's name then.
        /// Added a pet.
        case petAdded = "pet-added"
        /// Pet edits, coalesced. `count`: the union of changed fields as bits of ``ActivityRules/petFields``.
        case petEdited = "pet-edited"
        /// Removed a pet. `count`: the bookings its removal cancelled.
        case petRemoved = "pet-removed"
        /// Recorded a vaccination. `detail`: the vaccine, `time`: next due.
        case vaccinationRecorded = "vaccination-recorded"
        /// Opened a health issue. `detail`: its title.
        case healthIssueOpened = "health-issue-opened"
        /// Resolved a health issue. `detail`: its title.
        case healthIssueResolved = "health-issue-resolved"
        /// Set the pet's vet. `detail`: the vet, `extra`: the clinic.
        case vetContactSet = "vet-contact-set"
        /// Started a treatment. `detail`: its name, `extra`: `medication` or `supplement`.
        case treatmentStarted = "treatment-started"
        /// Ended a treatment. `detail`: its name.
        case treatmentEnded = "treatment-ended"
        /// Set the next vet appointment. `time`: when, `detail`: the reason.
        case vetAppointmentSet = "vet-appointment-set"
        /// Set the food plan. `detail`: the food, `count`: grams per portion, `secondary`: feedings a day.
        case foodPlanSet = "food-plan-set"
        /// Logged a weight. `count`: grams.
        case weightLogged = "weight-logged"

        // Grooming. `subject`: the booking id, `name`: the pet's name, `detail`: the service, `time`: the slot,
        // `by`: who did it.
        /// Requested a booking.
        case bookingRequested = "booking-requested"
        /// The shop confirmed a booking.
        case bookingConfirmed = "booking-confirmed"
        /// The shop completed a booking.
        case bookingCompleted = "booking-completed"
        /// A booking was cancelled. `extra`: the reason.
        case bookingCancelled = "booking-cancelled"
        /// A booking moved to another slot (`time`).
        case bookingRescheduled = "booking-rescheduled"

        // Vet. `subject`: the request id, `name`: the pet's name.
        /// Asked the vet. `detail`: the urgency.
        case vetRequestSubmitted = "vet-request-submitted"
        /// The vet answered. `by`: who.
        case vetRequestAnswered = "vet-request-answered"
        /// The vet request was closed. `by`: who.
        case vetRequestClosed = "vet-request-closed"

        // Carts and favourites. `subject`: the product id, `name`: the product's name.
        /// The net change of one product's cart line inside the cart window: `secondary` units before, `count` after.
        case cartChanged = "cart-changed"
        /// Emptied the cart. `count`: the products it held.
        case cartCleared = "cart-cleared"
        /// A guest's cart moved into the account. `count`: products, `secondary`: units.
        case guestCartMerged = "guest-cart-merged"
        /// Added a favourite.
        case favouriteAdded = "favourite-added"
        /// Removed a favourite.
        case favouriteRemoved = "favourite-removed"
        /// A guest's favourites moved into the account. `count`: how many were new.
        case guestFavouritesMerged = "guest-favourites-merged"

        // Orders. `subject`: the order id, `by`: who did it.
        /// Placed an order. `count`: units, `secondary`: the total in minor units, `extra`: its currency.
        case orderPlaced = "order-placed"
        /// The shop confirmed an order.
        case orderConfirmed = "order-confirmed"
        /// The shop shipped an order.
        case orderShipped = "order-shipped"
        /// An order was delivered.
        case orderDelivered = "order-delivered"
        /// An order was cancelled. `extra`: the reason.
        case orderCancelled = "order-cancelled"

        // Messaging. `subject`: the conversation id, `detail`: what it is about (`order`, `booking`,
        // `vet-request`), `name`: that thing's id, `by`: who.
        /// A conversation was started.
        case conversationStarted = "conversation-started"
        /// Messages the user sent, collapsed. `count`: how many.
        case messagesSent = "messages-sent"
        /// Messages the shop sent the user, collapsed. `count`: how many.
        case messagesReceived = "messages-received"
    }

    public var kind: Kind
    /// The business time of the first event folded into the entry (the command's clock).
    public var at: Timestamp
    /// The business time of the last event folded into the entry (equals `at` for a single event).
    public var lastAt: Timestamp
    /// The log position of the first event folded into the entry.
    public var position: Int64
    /// The id the entry is about (a pet, booking, product, order, conversation), or empty.
    public var subject: String
    public var name: String
    public var detail: String
    public var extra: String
    public var count: Int64
    public var secondary: Int64
    public var time: Timestamp?
    /// Who acted, when the event names it (staff on a customer's booking or order; empty otherwise).
    public var by: String

    /// Creates an entry; `lastAt` starts at `at`.
    public init(
        _ kind: Kind, at: Timestamp, position: Int64, subject: String = "", name: String = "", detail: String = "",
        extra: String = "", count: Int64 = 0, secondary: Int64 = 0, time: Timestamp? = nil, by: String = "",
        lastAt: Timestamp? = nil
    ) {
        self.kind = kind
        self.at = at
        self.lastAt = lastAt ?? at
        self.position = position
        self.subject = subject
        self.name = name
        self.detail = detail
        self.extra = extra
        self.count = count
        self.secondary = secondary
        self.time = time
        self.by = by
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        kind = try r.choice("kind", Kind.self)
        at = try r.timestamp("at")
        lastAt = try r.timestamp("lastAt")
        position = try r.int("position")
        subject = try r.string("subject")
        name = try r.string("name")
        detail = try r.string("detail")
        extra = try r.string("extra")
        count = try r.int("count")
        secondary = try r.int("secondary")
        time = try r.optionalTimestamp("time")
        by = try r.string("by")
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("kind", kind)
        w.timestamp("at", at)
        w.timestamp("lastAt", lastAt)
        w.int("position", position)
        w.string("subject", subject)
        w.string("name", name)
        w.string("detail", detail)
        w.string("extra", extra)
        w.int("count", count)
        w.int("secondary", secondary)
        w.optionalTimestamp("time", time)
        w.string("by", by)
    }
}
