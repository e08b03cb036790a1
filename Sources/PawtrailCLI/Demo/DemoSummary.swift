import EventLog
import Events
import PawtrailDomain
import PawtrailJSON

/// What happened, read back from the log (never from the script's own bookkeeping): counts of each kind of
/// event, the revenue (orders delivered, till sales and groomings done, less refunds, as the dashboard books it), and the scarce
/// product's stock folded from its inventory stream.
struct DemoSummary {
    var counts: [String: Int] = [:]
    var events = 0
    var commands = 0
    var lastPosition: UInt64?
    var guestMerges = 0
    /// Orders cancelled because their customer deleted the account.
    var cancelledByDeletion = 0
    var orderRevenue: Int64 = 0
    var saleRevenue: Int64 = 0
    var refunds: Int64 = 0
    var groomingRevenue: Int64 = 0
    var currency = "BDT"
    var scarce = InventoryState()
    var scarceName = DemoDay.scarceProduct
    var scarceUnitsReserved: Int64 = 0
    var scarceUnitsReleased: Int64 = 0
    var scarceUnitsShipped: Int64 = 0
    var scarceUnitsReturned: Int64 = 0

    /// Reads the whole log.
    static func read(_ store: any EventStore) async throws -> DemoSummary {
        var s = DemoSummary()
        var causes: Set<String> = []
        var delivered: Set<String> = []
        var bookingPrices: [String: Int64] = [:]
        var orderTotals: [String: Int64] = [:]
        let catalog = EventCatalog.domain
        try await store.forEachPage(.all) { page in
            for recorded in page {
                s.events += 1
                s.lastPosition = recorded.position
                s.counts[recorded.type, default: 0] += 1
                if let cause = recorded.metadata[EventMetadata.causationID] { causes.insert(cause) }
                guard let event = try catalog.decode(type: recorded.type, data: recorded.data) else { continue }
                switch event {
                case let e as OrderPlaced:
                    orderTotals[e.orderId] = e.total.minorUnits
                    s.currency = e.total.currency
                    for line in e.lines where line.productId == DemoDay.scarceProduct { s.scarceName = line.name }
                case let e as OrderDelivered:
                    delivered.insert(e.orderId)
                case let e as OrderRefunded:
                    s.refunds += e.amount.minorUnits
                case let e as BookingRequested:
                    bookingPrices[e.bookingId] = e.price?.minorUnits
                case let e as BookingCompleted:
                    s.groomingRevenue += bookingPrices[e.bookingId] ?? 0
                case let e as InStoreSaleCompleted:
                    s.saleRevenue += e.total.minorUnits
                case let e as CartCleared where e.reason == .merged:
                    s.guestMerges += 1
                case let e as OrderCancelled where e.reason == AccountErasure.cancelReason:
                    s.cancelledByDeletion += 1
                default:
                    break
                }
                if recorded.stream == Streams.inventory(DemoDay.scarceProduct) {
                    switch event {
                    case let e as StockReserved: s.scarceUnitsReserved += e.quantity
                    case let e as StockReleased: s.scarceUnitsReleased += e.quantity
                    case let e as StockReservationFulfilled: s.scarceUnitsShipped += e.quantity
                    case let e as StockReturned where e.restocked: s.scarceUnitsReturned += e.quantity
                    default: break
                    }
                    s.scarce = InventoryState.evolve(s.scarce, event)
                }
            }
            return true
        }
        s.commands = causes.count
        s.orderRevenue = orderTotals.filter { delivered.contains($0.key) }.values.reduce(0, +)
        return s
    }

    func count(_ type: String) -> Int { counts[type] ?? 0 }

    /// Orders delivered, till sales and groomings done, less refunds.
    var revenue: Int64 { orderRevenue + saleRevenue + groomingRevenue - refunds }

    /// A count with its noun, plural when not one: `2 vaccinations`.
    func n(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// Minor units as `12,345.00 BDT`.
    func money(_ minor: Int64) -> String {
        let whole = String(minor / 100)
        var grouped = ""
        for (n, c) in whole.reversed().enumerated() {
            if n > 0 && n % 3 == 0 { grouped.append(",") }
            grouped.append(c)
        }
        let cents = String(minor % 100)
        return String(grouped.reversed()) + "." + (cents.count == 1 ? "0" + cents : cents) + " " + currency
    }

    /// The few lines `pawtrail demo` prints.
    func lines(refusals: [String: Int]?) -> [String] {
        var out = [
            "people    \(count("AccountSignedUp")) sign-ups (\(guestMerges) guest cart merged into an account), "
                + "\(count("RoleGranted")) staff granted by the first admin, \(count("LoggedIn")) log-ins, "
                + "\(count("AccountDeleted")) account deleted and erased (\(n(cancelledByDeletion, "open order")) cancelled with it)",
            "pets      \(count("PetAdded")) pets (\(count("PetRemoved")) removed), \(n(count("VaccinationRecorded"), "vaccination")), \(count("FoodPlanSet")) food plan, "
                + "\(count("TreatmentStarted")) treatment; \(count("VetRequestSubmitted")) vet request, "
                + "\(count("VetRequestAnswered")) answered, \(count("VetRequestClosed")) closed",
            "grooming  \(count("BookingRequested")) bookings requested, \(count("BookingConfirmed")) confirmed, "
                + "\(count("BookingRescheduled")) rescheduled, \(count("BookingCompleted")) completed",
            "shop      \(count("ProductListed")) products seeded once; \(count("OrderPlaced")) orders placed, "
                + "\(count("OrderShipped")) shipped, \(count("OrderDelivered")) delivered, \(count("OrderCancelled")) cancelled; "
                + "\(n(count("InStoreSaleCompleted"), "till sale")); \(count("OrderPaymentCollected")) paid at the door, "
                + "\(count("OrderReturned")) return, \(count("OrderRefunded")) refund; revenue \(money(revenue))",
            "stock     \(scarceName): \(scarceUnitsReserved) units reserved by orders, \(scarceUnitsReleased) released by a "
                + "cancellation, \(scarceUnitsShipped) shipped, \(scarceUnitsReturned) back; now \(scarce.onHand) on hand, \(scarce.reserved) reserved, "
                + "\(scarce.available) available",
            "messages  \(count("ConversationStarted")) conversations, \(count("MessageSent")) messages (a re-send ignored), "
                + "\(count("MessageRead")) read receipts",
        ]
        if let refusals, !refusals.isEmpty {
            let total = refusals.values.reduce(0, +)
            let kinds = refusals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            out.append("refused   \(total) commands the rules turned down: \(kinds)")
        }
        let positions = lastPosition.map { "positions 0-\($0)" } ?? "no positions"
        out.append("log       \(events) events from \(commands) commands, \(positions); see 'pawtrail log stats'")
        return out
    }

    /// The same as one JSON object.
    func json(refusals: [String: Int]?) -> JSONValue {
        var pairs: [JSONValue.Pair] = [
            .init(key: "events", value: .int(Int64(events))),
            .init(key: "commands", value: .int(Int64(commands))),
            .init(key: "eventTypes", value: .object(counts.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .int(Int64($0.value))) })),
            .init(key: "revenue", value: .object(["amount": .int(revenue), "currency": .string(currency)])),
            .init(
                key: "scarceProduct",
                value: .object([
                    "productId": .string(DemoDay.scarceProduct), "onHand": .int(scarce.onHand), "reserved": .int(scarce.reserved),
                    "available": .int(scarce.available), "reservedByOrders": .int(scarceUnitsReserved),
                    "releasedByCancellations": .int(scarceUnitsReleased), "shipped": .int(scarceUnitsShipped),
                    "returned": .int(scarceUnitsReturned),
                ])),
        ]
        if let refusals {
            pairs.append(.init(key: "refusals", value: .object(refusals.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: .int(Int64($0.value))) })))
        }
        return .object(pairs)
    }
}
