import EventLog
import Events
import Foundation
import PawtrailDomain
import Testing

@Suite("Checkout: order.place")
struct OrderTests {
    static let slot = Timestamp(iso8601: "2026-12-02T15:00:00Z")!

    /// A checkout with the usual delivery details.
    static func place(_ orderId: String?, payment: PaymentMethod = .cash) -> PlaceOrder {
        PlaceOrder(
            orderId: orderId, deliveryAddress: "House 12, Road 5, Dhanmondi, Dhaka", deliverySlot: slot,
            recipientName: "Ann Rahman", recipientPhone: "+880 1711-000000", payment: payment)
    }

    /// The floor with litter (620 taka, 15 in stock) and food (780 taka, 10 in stock), and Ann's cart holding 2
    /// litter and 1 food.
    static func checkout() async throws -> DomainScenario {
        let s = try await Shop.floor()
        try await s.product("litter", price: 62_000, stock: 15)
        try await s.product("food", price: 78_000, stock: 10)
        try await s.cart(Shop.ann, ("litter", 2), ("food", 1))
        return s
    }

    static func placed(_ orderId: String, customer: String = Shop.ann, lines: [PurchaseLine], payment: PaymentMethod = .cash) -> OrderPlaced {
        let total = Money(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }, "BDT")
        return OrderPlaced(
            orderId: orderId, customerId: customer, lines: lines, subtotal: total, total: total,
            deliveryAddress: "House 12, Road 5, Dhanmondi, Dhaka", deliverySlot: slot, recipientName: "Ann Rahman",
            recipientPhone: "+880 1711-000000", payment: payment)
    }

    static let annLines = [Shop.line("litter", price: 62_000, quantity: 2), Shop.line("food", price: 78_000, quantity: 1)]

    @Test func placingReservesStockCreatesTheOrderAndClearsTheCartInOneAppend() async throws {
        let s = try await Self.checkout()
        try await s.then(
            Shop.ann, Self.place("o-1", payment: .cardOnDelivery),
            appends: [
                (stream("inventory-litter"), StockReserved(productId: "litter", orderId: "o-1", quantity: 2)),
                (stream("inventory-food"), StockReserved(productId: "food", orderId: "o-1", quantity: 1)),
                (stream("order-o-1"), Self.placed("o-1", lines: Self.annLines, payment: .cardOnDelivery)),
                (stream("cart-u-ann"), CartCleared(ownerId: Shop.ann, reason: .checkedOut, reference: "o-1")),
            ])
        #expect(Self.placed("o-1", lines: Self.annLines).total == Money(202_000, "BDT"))
        let litter = try await s.state(InventoryState.self, Streams.inventory("litter"))
        #expect(litter.onHand == 15 && litter.reserved == 2 && litter.available == 13)
        #expect(try await s.state(CartState.self, Streams.cart(Shop.ann)).lines.isEmpty)
    }

    @Test func theSnapshotKeepsThePriceAtPurchase() async throws {
        let s = try await Self.checkout()
        _ = try await s.when(Shop.ann, Self.place("o-1"))
        try await s.given(Streams.product("litter"), ProductRepriced(productId: "litter", price: Money(99_000, "BDT")))
        let order = try await s.state(OrderState.self, Streams.order("o-1"))
        #expect(order.lines.first?.unitPrice == Money(62_000, "BDT"))
    }

    @Test func aReSentPlacementChangesNothingAndAnotherCustomersIdIsTaken() async throws {
        let s = try await Self.checkout()
        _ = try await s.when(Shop.ann, Self.place("o-1"))
        try await s.then(Shop.ann, Self.place("o-1"), appends: [])
        try await s.cart(Shop.bob, ("litter", 1))
        try await s.then(Shop.bob, Self.place("o-1"), throws: .alreadyExists("order 'o-1' exists already"))
    }

    @Test func withoutAnIdAnOrderGetsAFreshOne() async throws {
        let s = try await Self.checkout()
        let appended = try await s.when(Shop.ann, Self.place(nil))
        let placed = try #require(appended.compactMap { $0.1 as? OrderPlaced }.first)
        #expect(placed.orderId.hasPrefix("o-") && placed.orderId.count == "o-".count + 11)
        #expect(appended.contains { $0.0 == Streams.order(placed.orderId) })
    }

    @Test func anEmptyCartIsRejected() async throws {
        let s = try await Shop.floor()
        try await s.then(Shop.ann, Self.place("o-1"), throws: .rejected("the cart is empty; add products before placing an order"))
    }

    @Test func malformedDeliveryDetailsAreRejected() async throws {
        let s = try await Self.checkout()
        var c = Self.place("o-1")
        c.deliveryAddress = " "
        try await s.then(Shop.ann, c, throws: .invalid(field: "deliveryAddress", reason: "must not be empty"))
        c = Self.place("o-1")
        c.deliverySlot = DomainScenario.now
        try await s.then(
            Shop.ann, c,
            throws: .invalid(field: "deliverySlot", reason: "\(DomainScenario.now.iso8601) is not in the future of the command's clock (\(DomainScenario.now.iso8601))"))
        c = Self.place("o-1")
        c.recipientName = ""
        try await s.then(Shop.ann, c, throws: .invalid(field: "recipientName", reason: "must not be empty"))
        c = Self.place("o-1")
        c.recipientPhone = "call me"
        try await s.then(Shop.ann, c, throws: .invalid(field: "recipientPhone", reason: "'call me' is not a phone number; use digits, spaces, - . ( ) and an optional leading +"))
        c.recipientPhone = "12345"
        try await s.then(Shop.ann, c, throws: .invalid(field: "recipientPhone", reason: "'12345' has 5 digits; a phone number has 6 to 15"))
        c = Self.place("o 1")
        try await s.then(Shop.ann, c, throws: .invalid(field: "orderId", reason: "'o 1' may hold only letters, digits and - _ . : @"))
    }

    @Test func aDelistedProductIsNamed() async throws {
        let s = try await Self.checkout()
        try await s.given(Streams.product("food"), ProductDelisted(productId: "food"))
        try await s.then(
            Shop.ann, Self.place("o-1"),
            throws: .invalidState("product 'food' (Name of food) is delisted; it cannot be ordered (remove it from the cart)"))
    }

    @Test func aProductThatDoesNotExistIsNamed() async throws {
        let s = try await Self.checkout()
        try await s.cart(Shop.ann, ("ghost", 1))
        try await s.then(Shop.ann, Self.place("o-1"), throws: .notFound("product 'ghost' does not exist"))
    }

    @Test func shortStockNamesEveryShortProduct() async throws {
        let s = try await Shop.floor()
        try await s.product("litter", price: 62_000, stock: 5)
        try await s.product("food", price: 78_000)
        try await s.product("toy", price: 25_000, stock: 9)
        // Another order holds 4 of the 5 litter: reserved stock is not available.
        try await s.given(Streams.inventory("litter"), StockReserved(productId: "litter", orderId: "o-0", quantity: 4))
        try await s.cart(Shop.ann, ("litter", 2), ("toy", 9), ("food", 1))
        try await s.then(
            Shop.ann, Self.place("o-1"),
            throws: .stockShort([
                StockShortage(productID: "litter", available: 1, requested: 2),
                StockShortage(productID: "food", available: 0, requested: 1),
            ]))
        #expect(DomainError.stockShort([StockShortage(productID: "litter", available: 1, requested: 2)]).kind == "stock-short")
    }

    @Test func anOrderIsInOneCurrency() async throws {
        let s = try await Shop.floor()
        try await s.product("litter", price: 62_000, stock: 5)
        try await s.product("import", price: 1_500, stock: 5, currency: "USD")
        try await s.cart(Shop.ann, ("litter", 1), ("import", 1))
        try await s.then(
            Shop.ann, Self.place("o-1"), throws: .rejected("the products are priced in BDT and USD; one purchase is paid in one currency"))
    }

    @Test func staffAndAdminsOrderFromTheirOwnCartsToo() async throws {
        let s = try await Self.checkout()
        try await s.cart(Shop.staff, ("food", 1))
        try await s.then(
            Shop.staff, Self.place("o-s"),
            appends: [
                (stream("inventory-food"), StockReserved(productId: "food", orderId: "o-s", quantity: 1)),
                (stream("order-o-s"), Self.placed("o-s", customer: Shop.staff, lines: [Shop.line("food", price: 78_000, quantity: 1)])),
                (stream("cart-u-sam"), CartCleared(ownerId: Shop.staff, reason: .checkedOut, reference: "o-s")),
            ])
        // Ann's cart is hers alone: it is untouched.
        #expect(try await s.state(CartState.self, Streams.cart(Shop.ann)).lines.count == 2)
    }

    @Test func guestsAndUsersWithoutAnAccountCannotPlaceOrders() async throws {
        let s = try await Self.checkout()
        try await s.cart(Shop.guest, ("litter", 1))
        try await s.refuses(Self.place("o-1"), [
            (Shop.guest, .forbidden("guests cannot order.place; sign up or log in first")),
            (Shop.nobody, .forbidden("user 'u-nobody' has no account")),
        ])
    }

    /// Two customers decide from the same stock (the barrier holds both appends until both have decided): the
    /// loser's append conflicts on the inventory stream, its handler decides again from fresh stock and finds it
    /// short.
    @Test func aConflictIsDecidedAgainFromFreshStock() async throws {
        let floor = try await Shop.floor()
        try await floor.product("litter", price: 62_000, stock: 3)
        try await floor.cart(Shop.ann, ("litter", 2))
        try await floor.cart(Shop.bob, ("litter", 2))
        let store = BarrierStore(parties: 2)
        for event in try await floor.store.readAll() {
            _ = try await store.inner.append(AppendRequest(stream: event.stream, events: [ProposedEvent(type: event.type, data: event.data)]))
        }
        let handler = CommandHandler(store: store)
        let results = await withTaskGroup(of: (String, Result<CommandOutcome, any Error>).self) { group in
            for (customer, order) in [(Shop.ann, "o-ann"), (Shop.bob, "o-bob")] {
                group.addTask {
                    do {
                        return (customer, .success(try await handler.handle(Self.place(order), as: customer, now: DomainScenario.now)))
                    } catch {
                        return (customer, .failure(error))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let won = results.filter { if case .success = $0.1 { true } else { false } }
        #expect(won.count == 1)
        for (_, result) in results {
            if case .failure(let error) = result {
                #expect(error as? DomainError == .stockShort([StockShortage(productID: "litter", available: 1, requested: 2)]))
            }
        }
        var loader = StreamLoader(store: store)
        let stock = try await loader.load(InventoryState.self, Streams.inventory("litter"))
        #expect(stock.reserved == 2 && stock.available == 1)
    }
}

@Suite("Orders: lifecycle")
struct OrderLifecycleTests {
    /// Ann's order `o-1` (2 litter, 1 food) placed.
    static func placed() async throws -> DomainScenario {
        let s = try await OrderTests.checkout()
        _ = try await s.when(Shop.ann, OrderTests.place("o-1"))
        return s
    }

    static func given(_ s: DomainScenario, _ events: any DomainEvent...) async throws {
        for e in events { try await s.given(Streams.order("o-1"), e) }
    }

    @Test func placedConfirmedShippedDelivered() async throws {
        let s = try await Self.placed()
        try await s.then(Shop.staff, ConfirmOrder(orderId: "o-1"), appends: [(stream("order-o-1"), OrderConfirmed(orderId: "o-1", confirmedBy: Shop.staff))])
        try await s.then(Shop.staff, ConfirmOrder(orderId: "o-1"), appends: [])
        try await s.then(
            Shop.admin, ShipOrder(orderId: "o-1"),
            appends: [
                (stream("order-o-1"), OrderShipped(orderId: "o-1", shippedBy: Shop.admin)),
                (stream("inventory-litter"), StockReservationFulfilled(productId: "litter", orderId: "o-1", quantity: 2)),
                (stream("inventory-food"), StockReservationFulfilled(productId: "food", orderId: "o-1", quantity: 1)),
            ])
        let litter = try await s.state(InventoryState.self, Streams.inventory("litter"))
        #expect(litter.onHand == 13 && litter.reserved == 0 && litter.available == 13)
        try await s.then(Shop.staff, ShipOrder(orderId: "o-1"), appends: [])
        try await s.then(Shop.staff, DeliverOrder(orderId: "o-1"), appends: [(stream("order-o-1"), OrderDelivered(orderId: "o-1", deliveredBy: Shop.staff))])
        try await s.then(Shop.staff, DeliverOrder(orderId: "o-1"), appends: [])
        #expect(try await s.state(OrderState.self, Streams.order("o-1")).status == .delivered)
    }

    @Test func wrongTransitionsNameTheCurrentStatus() async throws {
        let s = try await Self.placed()
        try await s.then(Shop.staff, ShipOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is placed; only a confirmed order can be shipped"))
        try await s.then(Shop.staff, DeliverOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is placed; only a shipped order can be delivered"))
        try await Self.given(s, OrderConfirmed(orderId: "o-1", confirmedBy: Shop.staff))
        try await s.then(Shop.staff, DeliverOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is confirmed; only a shipped order can be delivered"))
        try await Self.given(s, OrderShipped(orderId: "o-1", shippedBy: Shop.staff))
        try await s.then(Shop.staff, ConfirmOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is shipped; only a placed order can be confirmed"))
        try await Self.given(s, OrderDelivered(orderId: "o-1", deliveredBy: Shop.staff))
        try await s.then(Shop.staff, ConfirmOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is delivered; only a placed order can be confirmed"))
        try await s.then(Shop.staff, ShipOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is delivered; only a confirmed order can be shipped"))
        try await s.then(
            Shop.staff, CancelOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is delivered; only an order not yet delivered can be cancelled"))
    }

    @Test func aCancelledOrderMovesNoFurther() async throws {
        let s = try await Self.placed()
        try await Self.given(s, OrderCancelled(orderId: "o-1", cancelledBy: Shop.ann))
        try await s.then(Shop.staff, ConfirmOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is cancelled; only a placed order can be confirmed"))
        try await s.then(Shop.staff, ShipOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is cancelled; only a confirmed order can be shipped"))
        try await s.then(Shop.staff, DeliverOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is cancelled; only a shipped order can be delivered"))
        try await s.then(Shop.ann, CancelOrder(orderId: "o-1"), appends: [])
    }

    @Test func missingOrdersAreNotFound() async throws {
        let s = try await Self.placed()
        try await s.then(Shop.staff, ConfirmOrder(orderId: "o-x"), throws: .notFound("order 'o-x' does not exist"))
        try await s.then(Shop.staff, ShipOrder(orderId: "o-x"), throws: .notFound("order 'o-x' does not exist"))
        try await s.then(Shop.staff, DeliverOrder(orderId: "o-x"), throws: .notFound("order 'o-x' does not exist"))
        try await s.then(Shop.ann, CancelOrder(orderId: "o-x"), throws: .notFound("order 'o-x' does not exist"))
    }

    static let released: [(StreamID, any DomainEvent)] = [
        (stream("inventory-litter"), StockReleased(productId: "litter", orderId: "o-1", quantity: 2)),
        (stream("inventory-food"), StockReleased(productId: "food", orderId: "o-1", quantity: 1)),
    ]

    @Test func theCustomerCancelsBeforeShippingAndTheStockComesBack() async throws {
        let s = try await Self.placed()
        try await s.then(
            Shop.ann, CancelOrder(orderId: "o-1", reason: " changed my mind "),
            appends: [(stream("order-o-1"), OrderCancelled(orderId: "o-1", cancelledBy: Shop.ann, reason: "changed my mind"))] + Self.released)
        let litter = try await s.state(InventoryState.self, Streams.inventory("litter"))
        #expect(litter.onHand == 15 && litter.reserved == 0 && litter.available == 15)
    }

    @Test func theCustomerCancelsAConfirmedOrder() async throws {
        let s = try await Self.placed()
        try await Self.given(s, OrderConfirmed(orderId: "o-1", confirmedBy: Shop.staff))
        try await s.then(
            Shop.ann, CancelOrder(orderId: "o-1"),
            appends: [(stream("order-o-1"), OrderCancelled(orderId: "o-1", cancelledBy: Shop.ann))] + Self.released)
    }

    @Test func aCustomerCannotCancelAShippedOrderButStaffCan() async throws {
        let s = try await Self.placed()
        _ = try await s.when(Shop.staff, ConfirmOrder(orderId: "o-1"))
        _ = try await s.when(Shop.staff, ShipOrder(orderId: "o-1"))
        try await s.then(
            Shop.ann, CancelOrder(orderId: "o-1"), throws: .invalidState("order 'o-1' is shipped; a customer can cancel an order only before it ships"))
        // The stock left the shop at shipping: nothing is reserved any more, so nothing is released; the courier
        // brings the parcel back, and its units return to the shelf.
        try await s.then(
            Shop.staff, CancelOrder(orderId: "o-1", reason: "refused at the door"),
            appends: [
                (stream("order-o-1"), OrderCancelled(orderId: "o-1", cancelledBy: Shop.staff, reason: "refused at the door")),
                (stream("inventory-litter"), StockReturned(productId: "litter", orderId: "o-1", quantity: 2, restocked: true)),
                (stream("inventory-food"), StockReturned(productId: "food", orderId: "o-1", quantity: 1, restocked: true)),
            ])
        let litter = try await s.state(InventoryState.self, Streams.inventory("litter"))
        #expect(litter.onHand == 15 && litter.reserved == 0)
    }

    @Test func staffCancelAPlacedOrderAndReleaseItsStock() async throws {
        let s = try await Self.placed()
        try await s.then(
            Shop.staff, CancelOrder(orderId: "o-1"),
            appends: [(stream("order-o-1"), OrderCancelled(orderId: "o-1", cancelledBy: Shop.staff))] + Self.released)
    }

    @Test func lifecycleCommandsAreForStaff() async throws {
        let s = try await Self.placed()
        try await s.refuses(ConfirmOrder(orderId: "o-1"), Shop.notStaff("order.confirm", "confirm orders"))
        try await Self.given(s, OrderConfirmed(orderId: "o-1", confirmedBy: Shop.staff))
        try await s.refuses(ShipOrder(orderId: "o-1"), Shop.notStaff("order.ship", "ship orders"))
        try await s.given(Streams.inventory("litter"), StockReservationFulfilled(productId: "litter", orderId: "o-1", quantity: 2))
        try await Self.given(s, OrderShipped(orderId: "o-1", shippedBy: Shop.staff))
        try await s.refuses(DeliverOrder(orderId: "o-1"), Shop.notStaff("order.deliver", "deliver orders"))
    }

    @Test func aConversationAboutAnOrderIsBetweenItsCustomerAndStaff() async throws {
        let s = try await Self.placed()
        try await s.then(
            Shop.ann, StartConversation(subject: .order, subjectId: "o-1", conversationId: "c-1"),
            appends: [(stream("conversation-c-1"), ConversationStarted(conversationId: "c-1", subject: .order, subjectId: "o-1", ownerId: Shop.ann, startedBy: Shop.ann))])
        try await s.then(
            Shop.bob, StartConversation(subject: .order, subjectId: "o-1", conversationId: "c-2"),
            throws: .forbidden("order 'o-1' belongs to another customer; customer 'u-bob' may not discuss it"))
    }

    @Test func onlyTheCustomerOrStaffCancel() async throws {
        let s = try await Self.placed()
        try await s.refuses(CancelOrder(orderId: "o-1"), [
            (Shop.bob, .forbidden("order 'o-1' belongs to another customer; customer 'u-bob' may not cancel it")),
            (Shop.guest, .forbidden("guests cannot order.cancel; sign up or log in first")),
            (Shop.nobody, .forbidden("user 'u-nobody' has no account")),
        ])
    }
}
