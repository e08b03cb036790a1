public import EventLog
public import Events

/// The shop's customer directory: each account's profile (name, email, phone, address, language, role) with what the
/// shop does with them (pets, orders, open bookings, last log-in). One row a customer; the last log-in and the fold's
/// own tables of who owns each pet and booking keep their newest version only.
public enum CustomersProjection: KeyedProjection {
    /// One account as the directory shows it.
    public struct Customer: FieldCodable, Hashable {
        public var name: String
        public var email: String
        public var phone: String
        public var address: String
        public var language: Language
        /// Holds the staff role.
        public var staff: Bool
        /// Holds the admin role.
        public var admin: Bool
        public var signedUpAt: Timestamp
        public var deleted: Bool
        public var pets: Int64
        public var orders: Int64
        public var openBookings: Int64
        public var lastOrderAt: Timestamp?
        /// Messages from the shop they have no read receipt for.
        public var unread: Int64 = 0
        /// The kinds of notification they turned off.
        public var notificationsOff: [String] = []

        public init(name: String, email: String, language: Language, signedUpAt: Timestamp) {
            self.name = name
            self.email = email
            phone = ""
            address = ""
            self.language = language
            staff = false
            admin = false
            self.signedUpAt = signedUpAt
            deleted = false
            pets = 0
            orders = 0
            openBookings = 0
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            name = try r.string("name")
            email = try r.string("email")
            phone = try r.string("phone")
            address = try r.string("address")
            language = try r.choice("language", Language.self)
            staff = try r.bool("staff")
            admin = try r.bool("admin")
            signedUpAt = try r.timestamp("signedUpAt")
            deleted = try r.bool("deleted")
            pets = try r.int("pets")
            orders = try r.int("orders")
            openBookings = try r.int("openBookings")
            lastOrderAt = try r.optionalTimestamp("lastOrderAt")
            unread = try r.int("unread")
            notificationsOff = try r.strings("notificationsOff")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("name", name)
            w.string("email", email)
            w.string("phone", phone)
            w.string("address", address)
            w.choice("language", language)
            w.bool("staff", staff)
            w.bool("admin", admin)
            w.timestamp("signedUpAt", signedUpAt)
            w.bool("deleted", deleted)
            w.int("pets", pets)
            w.int("orders", orders)
            w.int("openBookings", openBookings)
            w.optionalTimestamp("lastOrderAt", lastOrderAt)
            w.int("unread", unread)
            w.strings("notificationsOff", notificationsOff)
        }

        /// The highest role held: `admin`, `staff` or `customer`.
        public var role: String { admin ? "admin" : staff ? "staff" : "customer" }
    }

    public struct State: KeyedProjectionState {
        /// Accounts by user id, every version kept.
        public var customers = KeyedTable<Customer>(id: 1, history: .exact)
        /// Each pet's owner, for the fold.
        public var petOwner = KeyedTable<TextRow>(id: 2, history: .current)
        /// Each open booking's owner, for the fold (a booking leaves when completed or cancelled).
        public var bookingOwner = KeyedTable<TextRow>(id: 3, history: .current)
        /// Each account's last log-in, newest version only: log-ins are the most frequent account events, and a
        /// version of the account's row for each would cost more than the directory is worth; so the last log-in
        /// shows for the present only, not as of a past moment.
        public var lastLogIn = KeyedTable<TimeRow>(id: 4, history: .current)
        /// Each conversation's customer, for the fold.
        public var conversationOwner = KeyedTable<TextRow>(id: 5, history: .current)
        /// The shop's messages a customer has not read (`conversation\u{1F}message`, the customer), for the fold.
        public var unreadMessages = KeyedTable<TextRow>(id: 6, history: .current)
        /// When each user last did anything the directory follows, newest only (as the last log-in).
        public var lastActive = KeyedTable<TimeRow>(id: 7, history: .current)

        public init() {}

        public init(reading r: inout some FieldReader) throws(FieldError) {
            customers = KeyedTable(id: 1, history: .exact, rows: try r.keyed("customers", Customer.self))
            petOwner = KeyedTable(id: 2, history: .current, rows: try r.keyed("petOwner", TextRow.self))
            bookingOwner = KeyedTable(id: 3, history: .current, rows: try r.keyed("bookingOwner", TextRow.self))
            lastLogIn = KeyedTable(id: 4, history: .current, rows: try r.keyed("lastLogIn", TimeRow.self))
            conversationOwner = KeyedTable(id: 5, history: .current, rows: try r.keyed("conversationOwner", TextRow.self))
            unreadMessages = KeyedTable(id: 6, history: .current, rows: try r.keyed("unreadMessages", TextRow.self))
            lastActive = KeyedTable(id: 7, history: .current, rows: try r.keyed("lastActive", TimeRow.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("customers", customers.entries)
            w.keyed("petOwner", petOwner.entries)
            w.keyed("bookingOwner", bookingOwner.entries)
            w.keyed("lastLogIn", lastLogIn.entries)
            w.keyed("conversationOwner", conversationOwner.entries)
            w.keyed("unreadMessages", unreadMessages.entries)
            w.keyed("lastActive", lastActive.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&customers)
            visitor.visit(&petOwner)
            visitor.visit(&bookingOwner)
            visitor.visit(&lastLogIn)
            visitor.visit(&conversationOwner)
            visitor.visit(&unreadMessages)
            visitor.visit(&lastActive)
        }

        /// Changes a known account in place; an event about an account the log never signed up changes nothing.
        fileprivate mutating func update(_ userId: String, _ body: (inout Customer) -> Void) {
            customers.modify(userId) { c in
                guard c != nil else { return }
                body(&c!)
            }
        }
    }

    public static let name = "customers"
    /// Names, emails, phones and addresses are kept as tokens that views open; the directory's order and search come
    /// from the personal index (``CustomersDirectory``).
    public static let foldsPersonalReferences = true
    public static let schemaVersion = 4
    public static let foldCost = 90
    public static let summary = "The customer directory: profile, role, pets, orders, open bookings, last log-in."
    public static let eventTypes = types(
        AccountSignedUp.self, AccountDeleted.self, ProfileUpdated.self, EmailChanged.self, LanguageChanged.self,
        AdminBootstrapped.self, RoleGranted.self, RoleRevoked.self, LoggedIn.self, SessionRestored.self,
        PetAdded.self, PetRemoved.self, OrderPlaced.self,
        BookingRequested.self, BookingCompleted.self, BookingCancelled.self, BookingNoShow.self,
        NotificationSettingChanged.self, ConversationStarted.self, MessageSent.self, MessageRead.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        let at = e.occurredAt
        if let actor = e.actor { state.lastActive[actor] = TimeRow(at) }
        switch e.typeID {
        case AccountSignedUp.typeID:
            let x = e.event as! AccountSignedUp
            state.customers[x.userId] = Customer(name: x.name, email: x.email, language: x.language, signedUpAt: at)
        case AccountDeleted.typeID:
            state.update((e.event as! AccountDeleted).userId) { $0.deleted = true }
        case ProfileUpdated.typeID:
            let x = e.event as! ProfileUpdated
            state.update(x.userId) {
                if let name = x.name { $0.name = name }
                if let phone = x.phone { $0.phone = phone }
                if let address = x.address { $0.address = address }
            }
        case EmailChanged.typeID:
            let x = e.event as! EmailChanged
            state.update(x.userId) { $0.email = x.newEmail }
        case LanguageChanged.typeID:
            let x = e.event as! LanguageChanged
            state.update(x.userId) { $0.language = x.language }
        case AdminBootstrapped.typeID:
            state.update((e.event as! AdminBootstrapped).userId) { $0.admin = true }
        case RoleGranted.typeID:
            let x = e.event as! RoleGranted
            state.update(x.userId) { if x.role == .admin { $0.admin = true } else { $0.staff = true } }
        case RoleRevoked.typeID:
            let x = e.event as! RoleRevoked
            state.update(x.userId) { if x.role == .admin { $0.admin = false } else { $0.staff = false } }
        case LoggedIn.typeID:
            state.lastLogIn[(e.event as! LoggedIn).userId] = TimeRow(at)
        case SessionRestored.typeID:
            state.lastLogIn[(e.event as! SessionRestored).userId] = TimeRow(at)
        case PetAdded.typeID:
            let x = e.event as! PetAdded
            state.petOwner[x.petId] = TextRow(x.ownerId)
            state.update(x.ownerId) { $0.pets += 1 }
        case PetRemoved.typeID:
            let x = e.event as! PetRemoved
            guard let owner = state.petOwner[x.petId]?.text else { return }
            state.petOwner[x.petId] = nil
            state.update(owner) { $0.pets -= 1 }
        case OrderPlaced.typeID:
            let x = e.event as! OrderPlaced
            state.update(x.customerId) {
                $0.orders += 1
                $0.lastOrderAt = at
            }
        case BookingRequested.typeID:
            let x = e.event as! BookingRequested
            state.bookingOwner[x.bookingId] = TextRow(x.ownerId)
            state.update(x.ownerId) { $0.openBookings += 1 }
        case BookingCompleted.typeID:
            closeBooking(&state, (e.event as! BookingCompleted).bookingId)
        case BookingCancelled.typeID:
            closeBooking(&state, (e.event as! BookingCancelled).bookingId)
        case BookingNoShow.typeID:
            closeBooking(&state, (e.event as! BookingNoShow).bookingId)
        case NotificationSettingChanged.typeID:
            let x = e.event as! NotificationSettingChanged
            state.update(x.userId) { c in
                c.notificationsOff.removeAll { $0 == x.kind.rawValue }
                if x.setting == .off { c.notificationsOff = (c.notificationsOff + [x.kind.rawValue]).sorted() }
            }
        default:
            applyMessage(&state, e)
        }
    }

    /// Messages: one from the shop is unread by the conversation's customer until they read it.
    private static func applyMessage(_ state: inout State, _ e: ProjectedEvent) {
        switch e.typeID {
        case ConversationStarted.typeID:
            let x = e.event as! ConversationStarted
            state.conversationOwner[x.conversationId] = TextRow(x.ownerId)
        case MessageSent.typeID:
            let x = e.event as! MessageSent
            guard let owner = state.conversationOwner[x.conversationId]?.text, owner != x.senderId else { return }
            state.unreadMessages[x.conversationId + "\u{1F}" + x.messageId] = TextRow(owner)
            state.update(owner) { $0.unread += 1 }
        case MessageRead.typeID:
            let x = e.event as! MessageRead
            let key = x.conversationId + "\u{1F}" + x.messageId
            guard let owner = state.unreadMessages[key]?.text, owner == x.participantId else { return }
            state.unreadMessages[key] = nil
            state.update(owner) { $0.unread -= 1 }
        default:
            return
        }
    }

    private static func closeBooking(_ state: inout State, _ bookingId: String) {
        guard let owner = state.bookingOwner[bookingId]?.text else { return }
        state.bookingOwner[bookingId] = nil
        state.update(owner) { $0.openBookings -= 1 }
    }
}
