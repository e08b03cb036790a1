import EventLog
public import Events

/// The noise rules of the activity history and their windows.
///
/// The history should read like a person's account of what they did, not like the log: a phone that restores its
/// session ten times an hour, a profile saved field by field, a product put in the cart and taken out again are
/// noise. Every rule below is applied by ``ActivityProjection/apply(_:_:)`` as the event arrives, looking only at
/// the user's newest entries (never rescanning the history), so rebuilding, catching up and time travel give the
/// same history. Windows are measured on business time (`occurredAt`, the command's clock) from the **first**
/// event of the entry being extended, so an entry never spans more than its window; a negative gap (clocks of two
/// processes slightly apart) counts as inside. Rules that extend "the latest entry" are broken by any other entry
/// in between; the cart and favourite rules look back across other entries (shopping interleaves products), up
/// to ``lookBack`` entries and never past the window. The rules read what is left after earlier noise was
/// removed: when a language round trip vanishes, the log-in before it is the latest entry again.
///
/// 1. **Sessions** (``sessionWindow``, 30 min): a log-in or session restore while the latest entry is a log-in
///    entry begun within the window adds to it: "Logged in (3 times)".
/// 2. **Log-out right after a log-in** (``logoutAfterLogin``, 1 min): a log-out within a minute of the latest
///    entry's last log-in or restore adds nothing; the log-in stays, because who got into an account is what a
///    person checks their history for. Log-outs otherwise collapse like log-ins ("Logged out (2 times)").
/// 3. **Profile edits** (``profileWindow``, 10 min): a profile or photo change while the latest entry is a
///    profile entry begun within the window joins it, listing the union of changed fields in a fixed order
///    (name, phone, address, photo).
/// 4. **Language round trips** (``languageWindow``, 10 min): a language change while the latest entry is a
///    language change begun within the window keeps only the net change (from the first language to the last);
///    when that is back where it started the entry disappears.
/// 5. **Cart churn** (``cartWindow``, 5 min): every change to one product's cart line (add, quantity, removal)
///    within the window of a cart entry for that product updates that entry to the net change; an add followed by
///    its removal nets to nothing and disappears (no entry for either). A checkout, an emptied cart or a guest
///    merge ends the look-back, so an add after an order is a new entry.
/// 6. **Favourite churn** (``favouriteWindow``, 5 min): a favourite removed within the window of adding it (or
///    added back within the window of removing it) disappears together with the earlier entry.
/// 7. **Pet edits and settings** (``petWindow``, 10 min): edits of the same pet coalesce like profile edits; a
///    vet contact, food plan or next appointment set again for the same pet replaces the latest entry's values.
/// 8. **Messages** (``messageWindow``, 10 min): messages of one conversation sent the same way (by the user, or
///    by the shop to the user) collapse: "Sent 3 messages about order o-1".
/// 9. **Guest merges**: the cart lines and favourites a guest brings in on sign-up or log-in (events caused by
///    `account.signup`/`account.login`) make one entry each, not one per product.
/// 10. **Consequences of one action**: bookings cancelled because their pet was removed are counted on the
///    removal ("Removed pet Rex (1 booking cancelled)"); roles revoked because the account was deleted add
///    nothing after "Deleted the account".
///
/// Never filtered: sign-up, deletion, password, email and role changes, and password reset requests (security
/// matters); pets added and removed and their care records (vaccinations, health issues, treatments, weights),
/// bookings, vet requests and orders (business); and anything staff did to the user's things.
///
/// Bounds: each user keeps the newest ``maxEntriesPerUser`` (200) entries. The state trims only once a history
/// has grown ``trimSlack`` (50) past that, dropping the oldest in one move, so trimming costs a constant per event
/// on average; the view never shows more than the newest 200. A change to any value here changes the fold: bump
/// ``ActivityProjection/schemaVersion``.
public struct ActivityRules: Sendable, Hashable {
    /// Log-ins and session restores inside this window collapse (microseconds).
    public var sessionWindow: Int64
    /// A log-out this soon after a log-in adds nothing (microseconds).
    public var logoutAfterLogin: Int64
    /// Consecutive profile edits inside this window coalesce (microseconds).
    public var profileWindow: Int64
    /// Language changes inside this window keep only the net change (microseconds).
    public var languageWindow: Int64
    /// Cart changes of one product inside this window net out (microseconds).
    public var cartWindow: Int64
    /// A favourite added and removed inside this window disappears (microseconds).
    public var favouriteWindow: Int64
    /// Consecutive edits and settings of one pet inside this window coalesce (microseconds).
    public var petWindow: Int64
    /// Consecutive messages of one conversation inside this window collapse (microseconds).
    public var messageWindow: Int64
    /// How many entries each user keeps.
    public var maxEntriesPerUser: Int
    /// How far past ``maxEntriesPerUser`` a history grows before the oldest are dropped in one move.
    public var trimSlack: Int
    /// The most entries the cart and favourite rules look back over.
    public var lookBack: Int

    /// One minute in microseconds.
    public static let minute: Int64 = 60_000_000

    /// The rules the projection applies.
    public static let standard = ActivityRules(
        sessionWindow: 30 * minute, logoutAfterLogin: 1 * minute, profileWindow: 10 * minute,
        languageWindow: 10 * minute, cartWindow: 5 * minute, favouriteWindow: 5 * minute, petWindow: 10 * minute,
        messageWindow: 10 * minute, maxEntriesPerUser: 200, trimSlack: 50, lookBack: 16)

    /// Creates rules.
    public init(
        sessionWindow: Int64, logoutAfterLogin: Int64, profileWindow: Int64, languageWindow: Int64, cartWindow: Int64,
        favouriteWindow: Int64, petWindow: Int64, messageWindow: Int64, maxEntriesPerUser: Int, trimSlack: Int,
        lookBack: Int
    ) {
        self.sessionWindow = sessionWindow
        self.logoutAfterLogin = logoutAfterLogin
        self.profileWindow = profileWindow
        self.languageWindow = languageWindow
        self.cartWindow = cartWindow
        self.favouriteWindow = favouriteWindow
        self.petWindow = petWindow
        self.messageWindow = messageWindow
        self.maxEntriesPerUser = maxEntriesPerUser
        self.trimSlack = trimSlack
        self.lookBack = lookBack
    }

    /// Whether `t` lies within `window` of `start`; a negative gap counts as inside.
    @inline(__always)
    static func within(_ t: Timestamp, _ start: Timestamp, _ window: Int64) -> Bool {
        t.microsecondsSinceEpoch - start.microsecondsSinceEpoch <= window
    }

    /// The profile fields, bit 0 first, in the order entries list them.
    public static let profileFields = ["name", "phone", "address", "photo"]
    /// The pet fields, bit 0 first, in the order entries list them.
    public static let petFields = ["name", "species", "breed", "birth date", "age", "weight"]

    /// The names of the fields whose bits are set, in bit order.
    public static func fieldNames(_ bits: Int64, _ names: [String]) -> [String] {
        names.indices.filter { bits & (1 << $0) != 0 }.map { names[$0] }
    }
}

/// One user's history and what the rules need to know about the account.
public struct UserActivity: FieldCodable, Hashable {
    /// The preferred language now (raw value), so a change can name where it came from.
    public var language: String
    /// Units per product in the user's cart now, so a cart entry can hold the net change of a line.
    public var cart: [String: Int64]
    /// The entries, oldest first (the view shows them newest first).
    public var entries: EntryList

    /// Creates an empty history.
    public init(language: String = "", cart: [String: Int64] = [:], entries: [ActivityEntry] = []) {
        self.language = language
        self.cart = cart
        self.entries = EntryList(entries)
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        language = try r.string("language")
        cart = try r.counts("cart")
        entries = EntryList(try r.records("entries", ActivityEntry.self))
    }

    public func write(to w: inout some FieldWriter) {
        w.string("language", language)
        w.counts("cart", cart)
        w.records("entries", entries.elements)
    }
}

// The rules, one function each, applied as events arrive. Each looks at the newest entries only.
extension UserActivity {
    /// Adds an entry, dropping the oldest once the history is `trimSlack` past its bound.
    mutating func append(_ entry: ActivityEntry, _ rules: ActivityRules) {
        entries.append(entry)
        if entries.count > rules.maxEntriesPerUser + rules.trimSlack {
            entries.removeFirst(entries.count - rules.maxEntriesPerUser)
        }
    }

    /// The index of the latest entry when it is of `kind`, about `subject` (when given), and begun within
    /// `window` of `t`.
    func latest(_ kind: ActivityEntry.Kind, subject: String? = nil, within window: Int64, of t: Timestamp) -> Int? {
        // Fields are read in place: copying an entry would retain every string in it.
        let i = entries.count - 1
        guard i >= 0, entries[i].kind == kind, ActivityRules.within(t, entries[i].at, window) else { return nil }
        if let subject, entries[i].subject != subject { return nil }
        return i
    }

    /// Rule 1: a log-in or a session restore.
    mutating func session(restore: Bool, at t: Timestamp, position: Int64, _ rules: ActivityRules) {
        if let i = latest(.session, within: rules.sessionWindow, of: t) {
            if restore { entries[i].secondary += 1 } else { entries[i].count += 1 }
            entries[i].lastAt = t
        } else {
            append(
                ActivityEntry(.session, at: t, position: position, count: restore ? 0 : 1, secondary: restore ? 1 : 0),
                rules)
        }
    }

    /// Rule 2: a log-out.
    mutating func loggedOut(at t: Timestamp, position: Int64, _ rules: ActivityRules) {
        if let last = entries.last, last.kind == .session, ActivityRules.within(t, last.lastAt, rules.logoutAfterLogin)
        {
            return
        }
        if let i = latest(.loggedOut, within: rules.sessionWindow, of: t) {
            entries[i].count += 1
            entries[i].lastAt = t
        } else {
            append(ActivityEntry(.loggedOut, at: t, position: position, count: 1), rules)
        }
    }

    /// Rules 3 and 7: changed fields of the profile or of one pet (bits of ``ActivityRules/profileFields`` or
    /// ``ActivityRules/petFields``), joined to the latest entry of the same kind and subject inside the window.
    mutating func edited(
        _ kind: ActivityEntry.Kind, subject: String = "", name: String = "", fields: Int64, window: Int64,
        at t: Timestamp, position: Int64, _ rules: ActivityRules
    ) {
        if let i = latest(kind, subject: subject, within: window, of: t) {
            entries[i].count |= fields
            entries[i].lastAt = t
        } else {
            append(ActivityEntry(kind, at: t, position: position, subject: subject, name: name, count: fields), rules)
        }
    }

    /// Rule 4: a change of the preferred language.
    mutating func languageChanged(to new: String, at t: Timestamp, position: Int64, _ rules: ActivityRules) {
        let from = language
        language = new
        guard from != new else { return }
        if let i = latest(.languageChanged, within: rules.languageWindow, of: t) {
            if entries[i].extra == new {
                entries.remove(at: i)
            } else {
                entries[i].detail = new
                entries[i].lastAt = t
            }
        } else {
            append(ActivityEntry(.languageChanged, at: t, position: position, detail: new, extra: from), rules)
        }
    }

    /// The index of the newest entry about `product` among `kinds`, looking back at most `lookBack` entries, not
    /// past the window, and not past an entry of a `barrier` kind.
    func recent(
        _ kinds: [ActivityEntry.Kind], product: String, barriers: [ActivityEntry.Kind] = [], window: Int64,
        of t: Timestamp, _ rules: ActivityRules
    ) -> Int? {
        var i = entries.count - 1
        let stop = max(0, entries.count - rules.lookBack)
        while i >= stop {
            let kind = entries[i].kind
            if !ActivityRules.within(t, entries[i].at, window) || barriers.contains(kind) { return nil }
            if kinds.contains(kind) && entries[i].subject == product { return i }
            i -= 1
        }
        return nil
    }

    // The kinds the look-back matches and those that end it (static: no array built per event).
    static let cartKinds: [ActivityEntry.Kind] = [.cartChanged]
    static let cartBarriers: [ActivityEntry.Kind] = [.orderPlaced, .cartCleared, .guestCartMerged]
    static let favouriteKinds: [ActivityEntry.Kind] = [.favouriteAdded, .favouriteRemoved]
    static let favouriteBarriers: [ActivityEntry.Kind] = [.guestFavouritesMerged]

    /// Rule 5: one product's cart line changed: `adding` units more, or set to `units` (0: removed). The product's
    /// name is looked up only when a new entry is made.
    mutating func cartLine(
        product: String, name: @autoclosure () -> String, adding: Int64 = 0, units set: Int64? = nil, at t: Timestamp,
        position: Int64, _ rules: ActivityRules
    ) {
        let before = cart[product] ?? 0
        let units = set ?? before + adding
        cart[product] = units == 0 ? nil : units
        guard before != units else { return }
        if let i = recent(
            Self.cartKinds, product: product, barriers: Self.cartBarriers, window: rules.cartWindow, of: t, rules)
        {
            if entries[i].secondary == units {
                entries.remove(at: i)
            } else {
                entries[i].count = units
                entries[i].lastAt = t
            }
        } else {
            append(
                ActivityEntry(
                    .cartChanged, at: t, position: position, subject: product, name: name(), count: units,
                    secondary: before),
                rules)
        }
    }

    /// Rule 6: a favourite added or removed.
    mutating func favourite(
        added: Bool, product: String, name: @autoclosure () -> String, at t: Timestamp, position: Int64,
        _ rules: ActivityRules
    ) {
        let kind: ActivityEntry.Kind = added ? .favouriteAdded : .favouriteRemoved
        if let i = recent(
            Self.favouriteKinds, product: product, barriers: Self.favouriteBarriers, window: rules.favouriteWindow,
            of: t,
            rules), entries[i].kind != kind
        {
            entries.remove(at: i)
        } else {
            append(ActivityEntry(kind, at: t, position: position, subject: product, name: name()), rules)
        }
    }

    /// Rule 7: a pet setting that replaces the earlier one, set again for the same pet inside the window.
    mutating func petSetting(_ entry: ActivityEntry, _ rules: ActivityRules) {
        if let i = latest(entry.kind, subject: entry.subject, within: rules.petWindow, of: entry.at) {
            let (at, position) = (entries[i].at, entries[i].position)
            entries[i] = entry
            entries[i].lastAt = entry.at
            entries[i].at = at
            entries[i].position = position
        } else {
            append(entry, rules)
        }
    }

    /// Rule 8: a message in a conversation, sent by the user (`kind` ``ActivityEntry/Kind/messagesSent``) or to them.
    mutating func message(
        _ kind: ActivityEntry.Kind, conversation: String, about subject: String, id: String, by sender: String,
        at t: Timestamp, position: Int64, _ rules: ActivityRules
    ) {
        if let i = latest(kind, subject: conversation, within: rules.messageWindow, of: t) {
            entries[i].count += 1
            entries[i].lastAt = t
        } else {
            append(
                ActivityEntry(
                    kind, at: t, position: position, subject: conversation, name: id, detail: subject, count: 1,
                    by: sender),
                rules)
        }
    }

    /// Rule 10: a booking cancelled at `t`, counted on the latest entry when that is the removal of its pet by the
    /// same command (the same clock).
    ///
    /// - Returns: Whether it was counted (and needs no entry of its own).
    mutating func countedOnPetRemoval(pet: String, at t: Timestamp) -> Bool {
        let i = entries.count - 1
        guard i >= 0, entries[i].kind == .petRemoved, entries[i].subject == pet, entries[i].lastAt == t else {
            return false
        }
        entries[i].count += 1
        return true
    }

    /// Rule 9: one product of a guest's cart or favourites brought in by the same sign-up or log-in.
    mutating func guestMerged(
        _ kind: ActivityEntry.Kind, units: Int64, at t: Timestamp, position: Int64, _ rules: ActivityRules
    ) {
        if let i = entries.indices.last, entries[i].kind == kind, entries[i].lastAt == t {
            entries[i].count += 1
            entries[i].secondary += units
        } else {
            append(ActivityEntry(kind, at: t, position: position, count: 1, secondary: units), rules)
        }
    }
}
