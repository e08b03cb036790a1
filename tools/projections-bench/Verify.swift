import BenchSupport
import EventLog
import EventLogFile
import EventLogSealing
import Events
import PawtrailDomain

/// `pawtrail-projections-bench verify`: reads the generated store back and checks every event against the domain's
/// rules, with the domain's own stream states (`evolve`) and checks: each event must be one the command handler
/// could have appended at that point of the log (accounts and sessions exist and are open, emails are claimed once,
/// pets are active, slots are held once, lifecycles move in order, stock is reserved only when available and never
/// drops below what is reserved, receipts come from the other side once, staff commands come from staff), and the
/// metadata must be the handler's, with business time never going backwards.
enum WorkloadVerifier {
    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    static func run(storePath: String) async throws -> Int {
        var accounts: [String: AccountState] = [:]
        var emails: [String: EmailClaimState] = [:]
        var pets: [String: PetState] = [:]
        var bookings: [String: BookingState] = [:]
        var schedules: [String: PetScheduleState] = [:]
        var vet: [String: VetRequestState] = [:]
        var products: [String: ProductState] = [:]
        var inventory: [String: InventoryState] = [:]
        var carts: [String: CartState] = [:]
        var favourites: [String: Set<String>] = [:]
        var orders: [String: OrderState] = [:]
        var conversations: [String: ConversationState] = [:]
        var subjects: [String: SubjectOwnerState] = [:]
        var sales: Set<String> = []
        var lastOccurred = Timestamp(microsecondsSinceEpoch: 0)
        var count = 0
        let staffOnly: Set<String> = [
            "booking.confirm", "booking.complete", "order.confirm", "order.ship", "order.deliver", "vet.answer", "vet.close",
            "inventory.receive", "inventory.adjust", "pos.sell",
        ]
        let adminOnly: Set<String> = ["catalog.seed", "product.add", "product.reprice", "product.delist", "product.relist", "role.grant"]

        let file = try FileEventStore.open(path: storePath)
        defer { file.close() }
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: storePath))
        try await store.forEachPage(.all, pageSize: 16_384) { page in
            for recorded in page {
                count += 1
                func fail(_ message: String) -> Violation {
                    Violation(description: "event \(recorded.position) (\(recorded.stream), \(recorded.type)): \(message)")
                }
                func check(_ ok: Bool, _ message: @autoclosure () -> String) throws {
                    if !ok { throw fail(message()) }
                }
                func domain(_ body: () throws(DomainError) -> Void) throws {
                    do { try body() } catch { throw fail("\(error)") }
                }
                guard let event = try EventCatalog.domain.decode(type: recorded.type, data: recorded.data) else {
                    throw fail("not a domain event")
                }
                let m = recorded.metadata
                guard let actorID = m[EventMetadata.actor], let roleText = m["role"], let role = Role(rawValue: roleText),
                    let command = m["command"], m[EventMetadata.correlationID] != nil, m[EventMetadata.causationID] != nil,
                    let occurred = m["occurredAt"].flatMap({ Timestamp(iso8601: $0) })
                else { throw fail("metadata is not the handler's: \(m.dictionary)") }
                try check(occurred >= lastOccurred, "business time went back from \(lastOccurred) to \(occurred)")
                lastOccurred = occurred
                try check(!staffOnly.contains(command) || role >= .staff, "\(command) by \(role)")
                try check(!adminOnly.contains(command) || role == .admin, "\(command) by \(role)")
                let actor = Actor(userID: actorID, role: role)
                let key = recorded.stream.rawValue
                func account(_ id: String) throws {
                    let a = accounts[Streams.account(id).rawValue] ?? AccountState()
                    try check(a.exists && !a.deleted, "account \(id) does not exist or is deleted")
                }
                func pet(_ id: String) throws {
                    let p = pets[Streams.pet(id).rawValue] ?? PetState()
                    try check(p.exists && !p.removed, "pet \(id) does not exist or is removed")
                }
                func onSale(_ productId: String) throws {
                    try domain { () throws(DomainError) in try (products[Streams.product(productId).rawValue] ?? ProductState()).checkOnSale(productId, refusal: "sold") }
                }
                switch event {
                // Accounts
                case is AccountSignedUp:
                    try check(!(accounts[key]?.exists ?? false), "account exists")
                case let e as EmailClaimed:
                    try check(emails[key]?.holder == nil, "\(e.email) is claimed by \(emails[key]?.holder ?? "")")
                case let e as EmailReleased:
                    try check(emails[key]?.holder == e.userId, "\(e.email) is not held by \(e.userId)")
                case let e as SessionRestored:
                    try domain { () throws(DomainError) in try (accounts[key] ?? AccountState()).checkOpenSession(e.sessionId, of: e.userId, action: "restored") }
                case let e as LoggedOut:
                    try domain { () throws(DomainError) in try (accounts[key] ?? AccountState()).checkOpenSession(e.sessionId, of: e.userId, action: "logged out") }
                case let e as LoggedIn: try account(e.userId)
                case let e as ProfileUpdated: try account(e.userId)
                case let e as AccountDeleted: try account(e.userId)
                case let e as EmailChanged: try account(e.userId)
                // Pets
                case let e as PetAdded:
                    try check(!(pets[key]?.exists ?? false), "pet exists")
                    try account(e.ownerId)
                case let e as HealthIssueResolved:
                    try pet(e.petId)
                    try check(pets[key]?.healthIssues[e.issueId].map { !$0.resolved } ?? false, "issue \(e.issueId) is not open")
                case let e as TreatmentEnded:
                    try pet(e.petId)
                    try check(pets[key]?.treatments[e.planId].map { !$0.ended } ?? false, "plan \(e.planId) is not active")
                case let e as VaccinationRecorded:
                    try pet(e.petId)
                    try check(e.givenOn <= occurred && (e.nextDue.map { $0 > e.givenOn } ?? true), "vaccination dates")
                case let e as WeightLogged:
                    try pet(e.petId)
                    try check(e.measuredAt <= occurred, "weighed in the future")
                case let e as PetRemoved: try pet(e.petId)
                case let e as PetEdited: try pet(e.petId)
                case let e as FoodPlanSet: try pet(e.petId)
                case let e as HealthIssueOpened: try pet(e.petId)
                case let e as TreatmentStarted: try pet(e.petId)
                case let e as VetContactSet: try pet(e.petId)
                case let e as NextVetAppointmentSet:
                    try pet(e.petId)
                    try check(e.at > occurred, "appointment in the past")
                // Bookings
                case let e as BookingRequested:
                    try check(!(bookings[key]?.exists ?? false), "booking exists")
                    try pet(e.petId)
                    try domain { () throws(DomainError) in try BookingSlot.check(e.slot, now: occurred) }
                case let e as PetSlotHeld:
                    try domain { () throws(DomainError) in try (schedules[key] ?? PetScheduleState()).checkFree(e.slot, until: e.until, petId: e.petId, for: e.bookingId) }
                case let e as PetSlotReleased:
                    try check(schedules[key]?.holds[e.bookingId]?.slot == e.slot, "slot \(e.slot) is not held by \(e.bookingId)")
                case let e as BookingConfirmed:
                    try domain { () throws(DomainError) in try (bookings[key] ?? BookingState()).checkStatus(e.bookingId, in: [.requested], toBe: "confirmed") }
                    try check(e.slot > occurred && e.slot == bookings[key]?.slot, "confirmed a passed or other slot")
                case let e as BookingCompleted:
                    try domain { () throws(DomainError) in try (bookings[key] ?? BookingState()).checkStatus(e.bookingId, in: [.confirmed], toBe: "completed") }
                case let e as BookingCancelled:
                    try domain { () throws(DomainError) in
                        let b = bookings[key] ?? BookingState()
                        try b.checkStatus(e.bookingId, in: [.requested, .confirmed], toBe: "cancelled")
                        try b.checkOwnerOrStaff(e.bookingId, actor: actor)
                    }
                case let e as BookingRescheduled:
                    try domain { () throws(DomainError) in
                        let b = bookings[key] ?? BookingState()
                        try b.checkStatus(e.bookingId, in: [.requested, .confirmed], toBe: "rescheduled")
                        try BookingSlot.check(e.slot, now: occurred)
                    }
                // Vet requests
                case let e as VetRequestSubmitted:
                    try check(!(vet[key]?.exists ?? false), "request exists")
                    try pet(e.petId)
                case let e as VetRequestAnswered:
                    try domain { () throws(DomainError) in try (vet[key] ?? VetRequestState()).check(e.requestId, in: [.submitted, .answered], toBe: "answered") }
                case let e as VetRequestClosed:
                    try domain { () throws(DomainError) in try (vet[key] ?? VetRequestState()).check(e.requestId, in: [.submitted, .answered], toBe: "closed") }
                // Catalog and inventory
                case is ProductListed:
                    try check(!(products[key]?.exists ?? false), "product exists")
                case let e as ProductRepriced:
                    try check(products[key]?.exists ?? false, "no product \(e.productId)")
                case is ProductDelisted:
                    try check(products[key].map { $0.exists && !$0.delisted } ?? false, "not listed")
                case is ProductRelisted:
                    try check(products[key].map { $0.exists && $0.delisted } ?? false, "not delisted")
                case let e as StockReceived:
                    try check(products[Streams.product(e.productId).rawValue]?.exists ?? false, "no product \(e.productId)")
                case let e as StockAdjusted:
                    let s = inventory[key] ?? InventoryState()
                    try check(s.onHand + e.delta >= s.reserved, "adjusted below the reserved stock")
                case let e as StockReserved:
                    try onSale(e.productId)
                    try check((inventory[key] ?? InventoryState()).available >= e.quantity, "reserved \(e.quantity), \(inventory[key]?.available ?? 0) available")
                case let e as StockReleased:
                    try check(inventory[key]?.reserved(for: e.orderId) == e.quantity, "released what \(e.orderId) did not reserve")
                case let e as StockReservationFulfilled:
                    try check(inventory[key]?.reserved(for: e.orderId) == e.quantity, "fulfilled what \(e.orderId) did not reserve")
                case let e as StockSoldInStore:
                    try onSale(e.productId)
                    try check((inventory[key] ?? InventoryState()).available >= e.quantity, "sold \(e.quantity), \(inventory[key]?.available ?? 0) available")
                // Carts and favourites
                case let e as CartItemAdded:
                    try onSale(e.productId)
                    try check((carts[key] ?? CartState()).quantity(of: e.productId) + e.quantity <= CartState.maxQuantity, "over the cart's quantity limit")
                case let e as CartItemQuantityChanged:
                    try check((carts[key] ?? CartState()).quantity(of: e.productId) > 0, "not in the cart")
                case let e as CartItemRemoved:
                    try check((carts[key] ?? CartState()).quantity(of: e.productId) > 0, "not in the cart")
                case is CartCleared:
                    try check(!(carts[key] ?? CartState()).lines.isEmpty, "cleared an empty cart")
                case let e as FavouriteAdded:
                    try check(!(favourites[key]?.contains(e.productId) ?? false), "already a favourite")
                    favourites[key, default: []].insert(e.productId)
                case let e as FavouriteRemoved:
                    try check(favourites[key]?.remove(e.productId) != nil, "not a favourite")
                // Orders and sales
                case let e as OrderPlaced:
                    try check(!(orders[key]?.exists ?? false), "order exists")
                    try check(e.total.minorUnits == e.lines.reduce(0) { $0 + $1.lineTotal.minorUnits }, "total is not the sum of the lines")
                case is OrderConfirmed:
                    try check(orders[key].map { $0.exists && $0.status == .placed } ?? false, "confirmed an order not placed")
                case is OrderShipped:
                    try check(orders[key].map { $0.exists && $0.status == .confirmed } ?? false, "shipped an order not confirmed")
                case is OrderDelivered:
                    try check(orders[key].map { $0.exists && $0.status == .shipped } ?? false, "delivered an order not shipped")
                case is OrderCancelled:
                    try check(orders[key].map { $0.exists && [.placed, .confirmed, .shipped].contains($0.status) } ?? false, "cancelled a finished order")
                    try check(orders[key]?.status != .shipped || actor.isStaff, "a customer cancelled a shipped order")
                case is InStoreSaleCompleted:
                    try check(sales.insert(key).inserted, "sale exists")
                // Messaging
                case let e as ConversationStarted:
                    try check(!(conversations[key]?.exists ?? false), "conversation exists")
                    let owner = subjects[Streams.subject(e.subject, e.subjectId).rawValue]?.ownerId
                    try check(owner == e.ownerId && (actor.userID == owner || actor.isStaff), "subject \(e.subjectId) is not \(e.ownerId)'s")
                case let e as MessageSent:
                    try domain { () throws(DomainError) in try (conversations[key] ?? ConversationState()).checkParticipant(e.conversationId, actor) }
                case let e as MessageDelivered:
                    let c = conversations[key] ?? ConversationState()
                    guard let i = c.index(of: e.messageId) else { throw fail("no message \(e.messageId)") }
                    try check(c.messages[i].senderId != e.participantId && !c.messages[i].deliveredTo.contains(e.participantId) && c.admits(actor), "receipt from the sender, twice or from outside")
                case let e as MessageRead:
                    let c = conversations[key] ?? ConversationState()
                    guard let i = c.index(of: e.messageId) else { throw fail("no message \(e.messageId)") }
                    try check(c.messages[i].senderId != e.participantId && !c.messages[i].readBy.contains(e.participantId) && c.admits(actor), "read receipt from the sender, twice or from outside")
                default:
                    break
                }
                // Evolve the stream's state the domain's way.
                switch recorded.stream.category {
                case "account": accounts[key] = AccountState.evolve(accounts.removeValue(forKey: key) ?? AccountState(), event)
                case "email": emails[key] = EmailClaimState.evolve(emails.removeValue(forKey: key) ?? EmailClaimState(), event)
                case "pet": pets[key] = PetState.evolve(pets.removeValue(forKey: key) ?? PetState(), event)
                case "booking":
                    bookings[key] = BookingState.evolve(bookings.removeValue(forKey: key) ?? BookingState(), event)
                    subjects[key] = SubjectOwnerState.evolve(subjects.removeValue(forKey: key) ?? SubjectOwnerState(), event)
                case "petschedule": schedules[key] = PetScheduleState.evolve(schedules.removeValue(forKey: key) ?? PetScheduleState(), event)
                case "vet":
                    vet[key] = VetRequestState.evolve(vet.removeValue(forKey: key) ?? VetRequestState(), event)
                    subjects[key] = SubjectOwnerState.evolve(subjects.removeValue(forKey: key) ?? SubjectOwnerState(), event)
                case "product": products[key] = ProductState.evolve(products.removeValue(forKey: key) ?? ProductState(), event)
                case "inventory":
                    let s = InventoryState.evolve(inventory.removeValue(forKey: key) ?? InventoryState(), event)
                    try check(s.reserved >= 0 && s.onHand >= s.reserved, "stock below what is reserved: on hand \(s.onHand), reserved \(s.reserved)")
                    inventory[key] = s
                case "cart": carts[key] = CartState.evolve(carts.removeValue(forKey: key) ?? CartState(), event)
                case "order":
                    orders[key] = OrderState.evolve(orders.removeValue(forKey: key) ?? OrderState(), event)
                    subjects[key] = SubjectOwnerState.evolve(subjects.removeValue(forKey: key) ?? SubjectOwnerState(), event)
                case "conversation": conversations[key] = ConversationState.evolve(conversations.removeValue(forKey: key) ?? ConversationState(), event)
                default: break
                }
            }
            return true
        }
        return count
    }
}
