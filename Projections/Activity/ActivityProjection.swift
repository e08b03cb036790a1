import EventLog
public import Events

/// The activity history of each account: the meaningful events of the account in words ("Signed up", "Added pet
/// Rex", "Booking confirmed", "Placed order o-1"), with the noise filtered out by the rules of ``ActivityRules``.
///
/// Each entry goes to the user whose account it concerns: the actor for their own actions, and the owner for what
/// staff do to a customer's booking, vet request, order or conversation. Events about a booking or order name only
/// its id, so the state folds the creating events into small maps (booking, order, pet, vet request and
/// conversation -> owner and the names the words need); finished bookings, vet requests and orders leave them.
/// An event about something whose creation was never folded has no owner and adds nothing. Guests (`guest-...`)
/// have no history: their carts and favourites show up, once merged, in the account they merge into. Catalog,
/// stock and till sales are the business's doings, not an account's, and are not read.
public enum ActivityProjection: KeyedProjection {
    public typealias State = ActivityState

    public static let name = "activity"
    /// Personal values (names, emails, addresses, recipients, message texts) are kept as tokens that views open.
    public static let foldsPersonalReferences = true
    public static let schemaVersion = 5
    // Alone it folds about as long as the other eight together; set so that the spread puts fulfilment (order events,
    // which this fold decodes anyway) beside it, which ends both threads of a rebuild --all together.
    public static let foldCost = 2545
    public static let summary =
        "Each user's meaningful account activity in words, with noise filtered by written rules."
    public static let eventTypes = types(
        AccountSignedUp.self, AccountDeleted.self, AdminBootstrapped.self, RoleGranted.self, RoleRevoked.self,
        LoggedIn.self, LoggedOut.self, SessionRestored.self, PasswordResetRequested.self, PasswordChanged.self,
        EmailChanged.self, ProfileUpdated.self, ProfileImageChanged.self, LanguageChanged.self,
        PetAdded.self, PetEdited.self, PetRemoved.self, VaccinationRecorded.self, HealthIssueOpened.self,
        HealthIssueResolved.self, VetContactSet.self, TreatmentStarted.self, TreatmentEnded.self,
        NextVetAppointmentSet.self, FoodPlanSet.self, WeightLogged.self,
        BookingRequested.self, BookingConfirmed.self, BookingCompleted.self, BookingCancelled.self,
        BookingRescheduled.self,
        VetRequestSubmitted.self, VetRequestAnswered.self, VetRequestClosed.self,
        ProductListed.self, ProductDetailsChanged.self,
        CartItemAdded.self, CartItemQuantityChanged.self, CartItemRemoved.self, CartCleared.self,
        FavouriteAdded.self, FavouriteRemoved.self,
        OrderPlaced.self, OrderConfirmed.self, OrderShipped.self, OrderDelivered.self, OrderCancelled.self,
        ConversationStarted.self, MessageSent.self)

    /// The commands whose cart and favourite additions are a guest's being brought in (rule 9).
    static let mergingCommands: Set<String> = ["account.login", "account.signup"]

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        state.fold(e, ActivityRules.standard)
    }
}

/// Every user's history, and the maps that attribute events naming only a booking, order or pet to its owner.
public struct ActivityState: KeyedProjectionState {
    /// Each user's history, by user id, every entry's versions kept.
    public var users = ActivityUsers()
    /// Pets not removed, by id.
    public var pets = KeyedTable<Pet>(id: 3, history: .current)
    /// Bookings not completed or cancelled, by id.
    public var bookings = KeyedTable<Booking>(id: 4, history: .current)
    /// Vet requests not closed, by id (name: the pet's).
    public var vetRequests = KeyedTable<Owned>(id: 5, history: .current)
    /// Orders not delivered or cancelled, by id.
    public var orders = KeyedTable<Owned>(id: 6, history: .current)
    /// Conversations, by id.
    public var conversations = KeyedTable<Conversation>(id: 7, history: .current)
    /// Product names, by id, for cart and favourite entries.
    public var products = KeyedTable<Label>(id: 8, history: .current)

    public init() {}

    public init(reading r: inout some FieldReader) throws(FieldError) {
        users = ActivityUsers(try r.keyed("users", UserActivity.self))
        pets = KeyedTable(id: 3, history: .current, rows: try r.keyed("pets", Pet.self))
        bookings = KeyedTable(id: 4, history: .current, rows: try r.keyed("bookings", Booking.self))
        vetRequests = KeyedTable(id: 5, history: .current, rows: try r.keyed("vetRequests", Owned.self))
        orders = KeyedTable(id: 6, history: .current, rows: try r.keyed("orders", Owned.self))
        conversations = KeyedTable(id: 7, history: .current, rows: try r.keyed("conversations", Conversation.self))
        products = KeyedTable(id: 8, history: .current, rows: try r.keyed("products", Label.self))
    }

    public func write(to w: inout some FieldWriter) {
        w.keyed("users", users.all)
        w.keyed("pets", pets.entries)
        w.keyed("bookings", bookings.entries)
        w.keyed("vetRequests", vetRequests.entries)
        w.keyed("orders", orders.entries)
        w.keyed("conversations", conversations.entries)
        w.keyed("products", products.entries)
    }

    public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
        visitor.visit(&users)
        visitor.visit(&pets)
        visitor.visit(&bookings)
        visitor.visit(&vetRequests)
        visitor.visit(&orders)
        visitor.visit(&conversations)
        visitor.visit(&products)
    }

    /// A user's history, `nil` when they have none.
    public func history(of user: String) -> UserActivity? { users[user] }
}

extension ActivityState {
    /// The event types the fold reads, by Swift type: one hash lookup instead of a chain of casts per event.
    private enum Route {
        case signedUp, deleted, bootstrapped, granted, revoked, loggedIn, loggedOut, restored, resetRequested
        case passwordChanged, emailChanged, profileUpdated, imageChanged, languageChanged
        case petAdded, petEdited, petRemoved, vaccination, issueOpened, issueResolved, vetContact, treatmentStarted
        case treatmentEnded, appointment, foodPlan, weight
        case bookingRequested, bookingConfirmed, bookingCompleted, bookingCancelled, bookingRescheduled
        case vetSubmitted, vetAnswered, vetClosed
        case productListed, productDetailsChanged, cartAdded, cartQuantity, cartRemoved, cartCleared, favouriteAdded, favouriteRemoved
        case orderPlaced, orderConfirmed, orderShipped, orderDelivered, orderCancelled
        case conversationStarted, messageSent
    }

    private static let routes: [ObjectIdentifier: Route] = {
        let pairs: [(any DomainEvent.Type, Route)] = [
            (AccountSignedUp.self, .signedUp), (AccountDeleted.self, .deleted), (AdminBootstrapped.self, .bootstrapped),
            (RoleGranted.self, .granted), (RoleRevoked.self, .revoked), (LoggedIn.self, .loggedIn),
            (LoggedOut.self, .loggedOut), (SessionRestored.self, .restored),
            (PasswordResetRequested.self, .resetRequested), (PasswordChanged.self, .passwordChanged),
            (EmailChanged.self, .emailChanged), (ProfileUpdated.self, .profileUpdated),
            (ProfileImageChanged.self, .imageChanged), (LanguageChanged.self, .languageChanged),
            (PetAdded.self, .petAdded), (PetEdited.self, .petEdited), (PetRemoved.self, .petRemoved),
            (VaccinationRecorded.self, .vaccination), (HealthIssueOpened.self, .issueOpened),
            (HealthIssueResolved.self, .issueResolved), (VetContactSet.self, .vetContact),
            (TreatmentStarted.self, .treatmentStarted), (TreatmentEnded.self, .treatmentEnded),
            (NextVetAppointmentSet.self, .appointment), (FoodPlanSet.self, .foodPlan), (WeightLogged.self, .weight),
            (BookingRequested.self, .bookingRequested), (BookingConfirmed.self, .bookingConfirmed),
            (BookingCompleted.self, .bookingCompleted), (BookingCancelled.self, .bookingCancelled),
            (BookingRescheduled.self, .bookingRescheduled),
            (VetRequestSubmitted.self, .vetSubmitted), (VetRequestAnswered.self, .vetAnswered),
            (VetRequestClosed.self, .vetClosed),
            (ProductListed.self, .productListed), (ProductDetailsChanged.self, .productDetailsChanged),
            (CartItemAdded.self, .cartAdded), (CartItemQuantityChanged.self, .cartQuantity),
            (CartItemRemoved.self, .cartRemoved), (CartCleared.self, .cartCleared),
            (FavouriteAdded.self, .favouriteAdded), (FavouriteRemoved.self, .favouriteRemoved),
            (OrderPlaced.self, .orderPlaced), (OrderConfirmed.self, .orderConfirmed),
            (OrderShipped.self, .orderShipped),
            (OrderDelivered.self, .orderDelivered), (OrderCancelled.self, .orderCancelled),
            (ConversationStarted.self, .conversationStarted), (MessageSent.self, .messageSent),
        ]
        var routes: [ObjectIdentifier: Route] = [:]
        for (type, route) in pairs { routes[ObjectIdentifier(type)] = route }
        return routes
    }()

    /// Whether an id is a guest's, who has no history.
    @inline(__always)
    private static func isGuest(_ id: String) -> Bool { id.utf8.starts(with: "guest-".utf8) }

    /// Whether an addition to a cart or favourites at `t` may be part of a guest merge: only when the user's latest
    /// entry is the sign-up, log-in or merge of the same command (the same clock). Reading the event's metadata for
    /// the command costs more than the rest of the fold, so it is read only then.
    @inline(__always)
    private static func mayMerge(_ history: UserActivity?, at t: Timestamp) -> Bool {
        guard let history, let i = history.entries.indices.last, history.entries[i].lastAt == t else { return false }
        switch history.entries[i].kind {
        case .signedUp, .session, .guestCartMerged, .guestFavouritesMerged: return true
        default: return false
        }
    }

    /// Applies one event under `rules`.
    ///
    /// - Parameters:
    ///   - e: The event.
    ///   - rules: The noise rules and the history's bound.
    public mutating func fold(_ e: ProjectedEvent, _ rules: ActivityRules) {
        guard let route = Self.routes[ObjectIdentifier(type(of: e.event))] else { return }
        let t = e.occurredAt
        let p = Int64(e.position)

        /// Adds a plain entry (no rule applies) to a user's history.
        func add(_ user: String, _ entry: ActivityEntry) {
            users[user, default: UserActivity()].append(entry, rules)
        }

        switch route {
        // Account.
        case .signedUp:
            let x = e.event as! AccountSignedUp
            users[x.userId, default: UserActivity()].language = x.language.rawValue
            add(x.userId, ActivityEntry(.signedUp, at: t, position: p, name: x.name, detail: x.email))
        case .deleted:
            let x = e.event as! AccountDeleted
            add(x.userId, ActivityEntry(.accountDeleted, at: t, position: p))
        case .bootstrapped:
            let x = e.event as! AdminBootstrapped
            add(x.userId, ActivityEntry(.adminBootstrapped, at: t, position: p))
        case .granted:
            let x = e.event as! RoleGranted
            add(x.userId, ActivityEntry(.roleGranted, at: t, position: p, detail: x.role.rawValue, by: x.grantedBy))
        case .revoked:
            let x = e.event as! RoleRevoked
            // Rule 10: the roles a deleted account loses in the same append say nothing more.
            if x.revokedBy == x.userId, users[x.userId]?.entries.last?.kind == .accountDeleted { return }
            add(x.userId, ActivityEntry(.roleRevoked, at: t, position: p, detail: x.role.rawValue, by: x.revokedBy))
        case .loggedIn:
            let x = e.event as! LoggedIn
            users[x.userId, default: UserActivity()].session(restore: false, at: t, position: p, rules)
        case .restored:
            let x = e.event as! SessionRestored
            users[x.userId, default: UserActivity()].session(restore: true, at: t, position: p, rules)
        case .loggedOut:
            let x = e.event as! LoggedOut
            users[x.userId, default: UserActivity()].loggedOut(at: t, position: p, rules)
        case .resetRequested:
            let x = e.event as! PasswordResetRequested
            add(x.userId, ActivityEntry(.passwordResetRequested, at: t, position: p, detail: x.email))
        case .passwordChanged:
            let x = e.event as! PasswordChanged
            add(x.userId, ActivityEntry(.passwordChanged, at: t, position: p))
        case .emailChanged:
            let x = e.event as! EmailChanged
            add(x.userId, ActivityEntry(.emailChanged, at: t, position: p, detail: x.newEmail, extra: x.oldEmail))
        case .profileUpdated:
            let x = e.event as! ProfileUpdated
            // Bits of ActivityRules.profileFields.
            let fields: Int64 = (x.name != nil ? 1 : 0) | (x.phone != nil ? 2 : 0) | (x.address != nil ? 4 : 0)
            guard fields != 0 else { return }
            users[x.userId, default: UserActivity()].edited(
                .profileUpdated, fields: fields, window: rules.profileWindow, at: t, position: p, rules)
        case .imageChanged:
            let x = e.event as! ProfileImageChanged
            users[x.userId, default: UserActivity()].edited(
                .profileUpdated, fields: 8, window: rules.profileWindow, at: t, position: p, rules)
        case .languageChanged:
            let x = e.event as! LanguageChanged
            users[x.userId, default: UserActivity()].languageChanged(to: x.language.rawValue, at: t, position: p, rules)

        // Pets.
        case .petAdded:
            let x = e.event as! PetAdded
            pets[x.petId] = Pet(owner: x.ownerId, name: x.name)
            add(x.ownerId, ActivityEntry(.petAdded, at: t, position: p, subject: x.petId, name: x.name))
        case .petEdited:
            let x = e.event as! PetEdited
            guard let pet = pets[x.petId] else { return }
            // Bits of ActivityRules.petFields.
            let fields: Int64 =
                (x.name != nil ? 1 : 0) | (x.species != nil ? 2 : 0) | (x.breed != nil ? 4 : 0)
                | (x.birthDate != nil ? 8 : 0) | (x.ageMonths != nil ? 16 : 0) | (x.weightGrams != nil ? 32 : 0)
            guard fields != 0 else { return }
            if let newName = x.name { pets[x.petId]!.name = newName }
            // The entry names the pet as it was called before the edit, as the owner knew it.
            users[pet.owner, default: UserActivity()].edited(
                .petEdited, subject: x.petId, name: pet.name, fields: fields, window: rules.petWindow, at: t,
                position: p, rules)
        case .petRemoved:
            let x = e.event as! PetRemoved
            guard let pet = pets.removeValue(forKey: x.petId) else { return }
            add(pet.owner, ActivityEntry(.petRemoved, at: t, position: p, subject: x.petId, name: pet.name))
        case .vaccination:
            let x = e.event as! VaccinationRecorded
            guard let pet = pets[x.petId] else { return }
            add(
                pet.owner,
                ActivityEntry(
                    .vaccinationRecorded, at: t, position: p, subject: x.petId, name: pet.name, detail: x.vaccine,
                    time: x.nextDue))
        case .issueOpened:
            let x = e.event as! HealthIssueOpened
            guard let pet = pets[x.petId] else { return }
            pets[x.petId]!.issues[x.issueId] = x.title
            add(
                pet.owner,
                ActivityEntry(.healthIssueOpened, at: t, position: p, subject: x.petId, name: pet.name, detail: x.title)
            )
        case .issueResolved:
            let x = e.event as! HealthIssueResolved
            guard let pet = pets[x.petId] else { return }
            let title = pets[x.petId]!.issues.removeValue(forKey: x.issueId) ?? ""
            add(
                pet.owner,
                ActivityEntry(.healthIssueResolved, at: t, position: p, subject: x.petId, name: pet.name, detail: title)
            )
        case .vetContact:
            let x = e.event as! VetContactSet
            guard let pet = pets[x.petId] else { return }
            users[pet.owner, default: UserActivity()].petSetting(
                ActivityEntry(
                    .vetContactSet, at: t, position: p, subject: x.petId, name: pet.name, detail: x.vetName,
                    extra: x.clinic),
                rules)
        case .treatmentStarted:
            let x = e.event as! TreatmentStarted
            guard let pet = pets[x.petId] else { return }
            pets[x.petId]!.plans[x.planId] = x.name
            add(
                pet.owner,
                ActivityEntry(
                    .treatmentStarted, at: t, position: p, subject: x.petId, name: pet.name, detail: x.name,
                    extra: x.kind.rawValue))
        case .treatmentEnded:
            let x = e.event as! TreatmentEnded
            guard let pet = pets[x.petId] else { return }
            let plan = pets[x.petId]!.plans.removeValue(forKey: x.planId) ?? ""
            add(
                pet.owner,
                ActivityEntry(.treatmentEnded, at: t, position: p, subject: x.petId, name: pet.name, detail: plan))
        case .appointment:
            let x = e.event as! NextVetAppointmentSet
            guard let pet = pets[x.petId] else { return }
            users[pet.owner, default: UserActivity()].petSetting(
                ActivityEntry(
                    .vetAppointmentSet, at: t, position: p, subject: x.petId, name: pet.name, detail: x.reason ?? "",
                    time: x.at),
                rules)
        case .foodPlan:
            let x = e.event as! FoodPlanSet
            guard let pet = pets[x.petId] else { return }
            users[pet.owner, default: UserActivity()].petSetting(
                ActivityEntry(
                    .foodPlanSet, at: t, position: p, subject: x.petId, name: pet.name, detail: x.food,
                    count: x.portionGrams,
                    secondary: Int64(x.feedingTimes.count)),
                rules)
        case .weight:
            let x = e.event as! WeightLogged
            guard let pet = pets[x.petId] else { return }
            add(
                pet.owner,
                ActivityEntry(.weightLogged, at: t, position: p, subject: x.petId, name: pet.name, count: x.weightGrams)
            )

        // Grooming.
        case .bookingRequested:
            let x = e.event as! BookingRequested
            let petName = pets[x.petId]?.name ?? x.petId
            bookings[x.bookingId] = Booking(
                owner: x.ownerId, petId: x.petId, petName: petName, service: x.service.rawValue, slot: x.slot)
            add(
                x.ownerId,
                ActivityEntry(
                    .bookingRequested, at: t, position: p, subject: x.bookingId, name: petName,
                    detail: x.service.rawValue,
                    time: x.slot, by: e.actor ?? x.ownerId))
        case .bookingConfirmed:
            let x = e.event as! BookingConfirmed
            guard let b = bookings[x.bookingId] else { return }
            add(b.owner, bookingEntry(.bookingConfirmed, b, x.bookingId, t, p, slot: x.slot, by: x.confirmedBy))
        case .bookingCompleted:
            let x = e.event as! BookingCompleted
            guard let b = bookings.removeValue(forKey: x.bookingId) else { return }
            add(b.owner, bookingEntry(.bookingCompleted, b, x.bookingId, t, p, slot: b.slot, by: x.completedBy))
        case .bookingCancelled:
            let x = e.event as! BookingCancelled
            guard let b = bookings.removeValue(forKey: x.bookingId) else { return }
            if users[b.owner] != nil, users[b.owner, default: UserActivity()].countedOnPetRemoval(pet: b.petId, at: t) { return }
            var entry = bookingEntry(.bookingCancelled, b, x.bookingId, t, p, slot: b.slot, by: x.cancelledBy)
            entry.extra = x.reason ?? ""
            add(b.owner, entry)
        case .bookingRescheduled:
            let x = e.event as! BookingRescheduled
            guard bookings[x.bookingId] != nil else { return }
            bookings[x.bookingId]!.slot = x.slot
            add(
                bookings[x.bookingId]!.owner,
                bookingEntry(
                    .bookingRescheduled, bookings[x.bookingId]!, x.bookingId, t, p, slot: x.slot, by: x.rescheduledBy))

        // Vet.
        case .vetSubmitted:
            let x = e.event as! VetRequestSubmitted
            let petName = pets[x.petId]?.name ?? x.petId
            vetRequests[x.requestId] = Owned(owner: x.ownerId, name: petName)
            add(
                x.ownerId,
                ActivityEntry(
                    .vetRequestSubmitted, at: t, position: p, subject: x.requestId, name: petName,
                    detail: x.urgency.rawValue, by: e.actor ?? x.ownerId))
        case .vetAnswered:
            let x = e.event as! VetRequestAnswered
            guard let r = vetRequests[x.requestId] else { return }
            add(
                r.owner,
                ActivityEntry(
                    .vetRequestAnswered, at: t, position: p, subject: x.requestId, name: r.name, by: x.answeredBy))
        case .vetClosed:
            let x = e.event as! VetRequestClosed
            guard let r = vetRequests.removeValue(forKey: x.requestId) else { return }
            add(
                r.owner,
                ActivityEntry(.vetRequestClosed, at: t, position: p, subject: x.requestId, name: r.name, by: x.closedBy)
            )

        // Carts and favourites.
        case .productListed:
            let x = e.event as! ProductListed
            products[x.productId] = Label(x.name)
        case .productDetailsChanged:
            // Entries from now on name the product as it is called now; earlier entries keep the name of their time.
            let x = e.event as! ProductDetailsChanged
            products[x.productId] = Label(x.name)
        case .cartAdded:
            let x = e.event as! CartItemAdded
            guard !Self.isGuest(x.ownerId) else { return }
            if Self.mayMerge(users[x.ownerId], at: t), let command = e.command,
                ActivityProjection.mergingCommands.contains(command)
            {
                users[x.ownerId, default: UserActivity()].cart[x.productId, default: 0] += x.quantity
                users[x.ownerId, default: UserActivity()].guestMerged(.guestCartMerged, units: x.quantity, at: t, position: p, rules)
                return
            }
            users[x.ownerId, default: UserActivity()].cartLine(
                product: x.productId, name: products[x.productId]?.text ?? x.productId, adding: x.quantity, at: t,
                position: p, rules)
        case .cartQuantity:
            let x = e.event as! CartItemQuantityChanged
            guard !Self.isGuest(x.ownerId) else { return }
            users[x.ownerId, default: UserActivity()].cartLine(
                product: x.productId, name: products[x.productId]?.text ?? x.productId, units: x.quantity, at: t, position: p,
                rules)
        case .cartRemoved:
            let x = e.event as! CartItemRemoved
            guard !Self.isGuest(x.ownerId) else { return }
            users[x.ownerId, default: UserActivity()].cartLine(
                product: x.productId, name: products[x.productId]?.text ?? x.productId, units: 0, at: t, position: p, rules)
        case .cartCleared:
            let x = e.event as! CartCleared
            guard !Self.isGuest(x.ownerId), users[x.ownerId] != nil else { return }
            let lines = Int64(users[x.ownerId]!.cart.count)
            users[x.ownerId, default: UserActivity()].cart = [:]
            // A checkout's clearing is told by the order; a merge empties only a guest's cart.
            if x.reason == .cleared {
                users[x.ownerId, default: UserActivity()].append(ActivityEntry(.cartCleared, at: t, position: p, count: lines), rules)
            }
        case .favouriteAdded:
            let x = e.event as! FavouriteAdded
            guard !Self.isGuest(x.ownerId) else { return }
            if Self.mayMerge(users[x.ownerId], at: t), let command = e.command,
                ActivityProjection.mergingCommands.contains(command)
            {
                users[x.ownerId, default: UserActivity()].guestMerged(
                    .guestFavouritesMerged, units: 1, at: t, position: p, rules)
                return
            }
            users[x.ownerId, default: UserActivity()].favourite(
                added: true, product: x.productId, name: products[x.productId]?.text ?? x.productId, at: t, position: p, rules
            )
        case .favouriteRemoved:
            let x = e.event as! FavouriteRemoved
            guard !Self.isGuest(x.ownerId) else { return }
            users[x.ownerId, default: UserActivity()].favourite(
                added: false, product: x.productId, name: products[x.productId]?.text ?? x.productId, at: t, position: p,
                rules)

        // Orders.
        case .orderPlaced:
            let x = e.event as! OrderPlaced
            orders[x.orderId] = Owned(owner: x.customerId)
            var units: Int64 = 0
            for line in x.lines { units += line.quantity }
            add(
                x.customerId,
                ActivityEntry(
                    .orderPlaced, at: t, position: p, subject: x.orderId, extra: x.total.currency, count: units,
                    secondary: x.total.minorUnits, by: e.actor ?? x.customerId))
        case .orderConfirmed:
            let x = e.event as! OrderConfirmed
            guard let o = orders[x.orderId] else { return }
            add(o.owner, ActivityEntry(.orderConfirmed, at: t, position: p, subject: x.orderId, by: x.confirmedBy))
        case .orderShipped:
            let x = e.event as! OrderShipped
            guard let o = orders[x.orderId] else { return }
            add(o.owner, ActivityEntry(.orderShipped, at: t, position: p, subject: x.orderId, by: x.shippedBy))
        case .orderDelivered:
            let x = e.event as! OrderDelivered
            guard let o = orders.removeValue(forKey: x.orderId) else { return }
            add(o.owner, ActivityEntry(.orderDelivered, at: t, position: p, subject: x.orderId, by: x.deliveredBy))
        case .orderCancelled:
            let x = e.event as! OrderCancelled
            guard let o = orders.removeValue(forKey: x.orderId) else { return }
            add(
                o.owner,
                ActivityEntry(
                    .orderCancelled, at: t, position: p, subject: x.orderId, extra: x.reason ?? "", by: x.cancelledBy))

        // Messaging.
        case .conversationStarted:
            let x = e.event as! ConversationStarted
            conversations[x.conversationId] = Conversation(
                owner: x.ownerId, subject: x.subject.rawValue, subjectId: x.subjectId)
            add(
                x.ownerId,
                ActivityEntry(
                    .conversationStarted, at: t, position: p, subject: x.conversationId, name: x.subjectId,
                    detail: x.subject.rawValue, by: x.startedBy))
        case .messageSent:
            let x = e.event as! MessageSent
            guard let c = conversations[x.conversationId] else { return }
            users[c.owner, default: UserActivity()].message(
                x.senderId == c.owner ? .messagesSent : .messagesReceived, conversation: x.conversationId,
                about: c.subject, id: c.subjectId, by: x.senderId, at: t, position: p, rules)
        }
    }

    /// An entry about a booking.
    private func bookingEntry(
        _ kind: ActivityEntry.Kind, _ b: Booking, _ id: String, _ t: Timestamp, _ p: Int64, slot: Timestamp, by: String
    ) -> ActivityEntry {
        ActivityEntry(kind, at: t, position: p, subject: id, name: b.petName, detail: b.service, time: slot, by: by)
    }
}
