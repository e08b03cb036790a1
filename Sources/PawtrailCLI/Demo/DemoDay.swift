import EventLog
import Events
import PawtrailDomain

/// A day at the shop, 2026-12-01: the script `pawtrail demo` plays. Everyone's ids are fixed and the clock is the
/// script's, so the day is the same on every run; only the checkout race is a real race, and which buyers win it
/// may differ between runs (never how many carrier bags are sold).
enum DemoDay {
    /// The scarce product the customers race for: the Ventilated Pet Carrier Bag, 5 in stock.
    static let scarceProduct = "product_acc_003"

    /// The customers, with their names and languages.
    static let customers: [(id: String, name: String, language: Language)] = [
        ("u-ann", "Ann Chowdhury", .enUS), ("u-bob", "Bob Das", .enUS), ("u-chloe", "Chloe Islam", .enUS),
        ("u-dev", "Dev Sarkar", .bnBD), ("u-emi", "Emi Tanaka", .enUS), ("u-grace", "Grace Roy", .enUS),
        ("u-hasan", "Hasan Mahmud", .bnBD),
    ]

    static func place(_ n: Int, _ name: String) -> PlaceOrder {
        PlaceOrder(
            orderId: "o-\(n)", deliveryAddress: "House \(n * 7), Road \(n + 2), Dhanmondi, Dhaka", deliverySlot: DemoRunner.on("2026-12-02T1\(n % 8):00"),
            recipientName: name, recipientPhone: "+880 1711 \(100_000 + n * 37)", payment: n % 2 == 0 ? .cash : .cardOnDelivery)
    }

    /// Plays the day.
    static func play(_ r: DemoRunner) async throws {
        // 08:00 The admin opens the shop: first admin, the bundled catalog, two staff.
        try await r.run("u-ada", SignUp(name: "Ada Rahman", email: "ada@pawtrail.example"), at: "08:00")
        try await r.run("u-ada", BootstrapAdmin(), at: "08:00")
        try await r.run("u-ada", SetTimeZone(timeZone: "Asia/Dhaka"), at: "08:00")  // the shop's days are Dhaka's
        try await r.run("u-ada", SeedCatalog(), at: "08:01")
        try await r.run("u-ada", SeedCatalog(), at: "08:01")  // a second seed adds nothing
        for (n, (id, name)) in [("u-sam", "Samir Hossain"), ("u-rina", "Rina Akter")].enumerated() {
            try await r.run(id, SignUp(name: name, email: "\(id.dropFirst(2))@pawtrail.example", language: .bnBD), at: "08:0\(5 + 2 * n)")
            try await r.run("u-ada", GrantRole(userId: id, role: .staff), at: "08:0\(6 + 2 * n)")
        }
        try await r.run("u-ada", ReceiveStock(productId: "product_cat_001", quantity: 10), at: "08:10")
        try await r.run(
            "u-ada", RepriceProduct(productId: "product_dog_004", price: Money(28_000, "BDT"), compareAtPrice: Money(32_000, "BDT")),
            at: "08:12")
        try await r.run(
            "u-ada",
            EditProduct(
                productId: "product_dog_003", newName: "Reflective Nylon Dog Leash 1.5m",
                description: "Reflective stitching for evening walks. Nylon webbing, 1.5 m, steel clip.", addTags: ["night"]),
            at: "08:13")

        // 08:30 Customers sign up; Farhan browsed as a guest first, and his cart and favourites follow him in.
        try await r.run("guest-farhan", AddToCart(productId: "product_cat_003", quantity: 2), at: "08:20")
        try await r.run("guest-farhan", AddFavourite(productId: "product_cat_006"), at: "08:21")
        for (n, c) in customers.enumerated() {
            try await r.run(c.id, SignUp(name: c.name, email: "\(c.id.dropFirst(2))@mail.example", language: c.language), at: "08:3\(n)")
        }
        try await r.run(
            "u-farhan", SignUp(name: "Farhan Kabir", email: "farhan@mail.example", language: .bnBD, guestId: "guest-farhan"), at: "08:38")
        try await r.run("u-bob", SignUp(name: "Bob again", email: "ann@mail.example"), at: "08:39")  // email taken, and he has an account
        var sessions: [String: String] = [:]
        for c in customers {
            if let outcome = try await r.run(c.id, Login(), at: "08:40"),
                let login = outcome.events.first(where: { $0.event is LoggedIn })?.event as? LoggedIn
            {
                sessions[c.id] = login.sessionId
            }
        }
        if let s = sessions["u-bob"] { try await r.run("u-bob", RestoreSession(sessionId: s), at: "08:45") }

        // 09:00 Pets, their health and food.
        try await r.run("u-ann", AddPet(petId: "rex", name: "Rex", species: .dog, breed: "Beagle", ageMonths: 30, weightGrams: 11_200), at: "09:00")
        try await r.run("u-ann", AddPet(petId: "miso", name: "Miso", species: .cat, birthDate: DemoRunner.on("2023-05-14T00:00")), at: "09:01")
        try await r.run("u-bob", AddPet(petId: "luna", name: "Luna", species: .cat, breed: "Persian", ageMonths: 48, weightGrams: 4_100), at: "09:02")
        try await r.run("u-chloe", AddPet(petId: "clover", name: "Clover", species: .rabbit, ageMonths: 14), at: "09:03")
        try await r.run("u-dev", AddPet(petId: "bruno", name: "Bruno", species: .dog, breed: "Labrador", ageMonths: 60, weightGrams: 31_000), at: "09:04")
        try await r.run("u-emi", AddPet(petId: "kiwi", name: "Kiwi", species: .bird, breed: "Budgerigar", ageMonths: 8), at: "09:05")
        try await r.run(
            "u-ann", RecordVaccination(petId: "rex", vaccine: "Rabies", givenOn: DemoRunner.on("2026-03-10T00:00"), nextDue: DemoRunner.on("2027-03-10T00:00")),
            at: "09:06")
        try await r.run("u-ann", SetFoodPlan(petId: "rex", food: "Pedigree Adult", portionGrams: 180, feedingTimes: ["18:00", "07:30"]), at: "09:07")
        try await r.run("u-ann", LogWeight(petId: "rex", weightGrams: 11_400), at: "09:08")
        try await r.run("u-ann", OpenHealthIssue(petId: "miso", title: "Itchy skin", notes: "Scratching behind the ears"), at: "09:09")
        try await r.run(
            "u-ann",
            StartTreatment(
                petId: "miso", kind: .supplement, name: "Omega-3 oil", dosage: "1 ml", schedule: "daily with dinner",
                startDate: DemoRunner.at("09:10")),
            at: "09:10")
        try await r.run("u-ann", SetVet(petId: "miso", vetName: "Dr. Nusrat Jahan", clinic: "Gulshan Pet Clinic"), at: "09:11")
        try await r.run("u-bob", EditPet(petId: "rex", name: "Max"), at: "09:12")  // not Bob's dog
        try await r.run(
            "u-dev", SubmitVetRequest(petId: "bruno", symptoms: "Limping on the front left leg since this morning", urgency: .urgent, requestId: "v-bruno"),
            at: "09:15")

        // 09:30 Grooming bookings: requests, a clash, confirmations, a reschedule.
        try await r.run("u-ann", RequestBooking(petId: "rex", service: .fullGroom, slot: DemoRunner.on("2026-12-03T10:00"), bookingId: "b-rex"), at: "09:30")
        try await r.run("u-ann", RequestBooking(petId: "rex", service: .bath, slot: DemoRunner.on("2026-12-03T10:00"), bookingId: "b-rex-2"), at: "09:31")
        try await r.run("u-bob", RequestBooking(petId: "luna", service: .bath, slot: DemoRunner.on("2026-12-03T10:00"), bookingId: "b-luna"), at: "09:32")
        try await r.run("u-chloe", RequestBooking(petId: "clover", service: .nailTrim, slot: DemoRunner.at("15:30"), bookingId: "b-clover"), at: "09:33")
        try await r.run("u-bob", ConfirmBooking(bookingId: "b-luna"), at: "09:34")  // customers do not confirm
        for b in ["b-rex", "b-luna"] { try await r.run("u-sam", ConfirmBooking(bookingId: b), at: "09:40") }
        try await r.run("u-chloe", RescheduleBooking(bookingId: "b-clover", slot: DemoRunner.at("16:00")), at: "09:45")
        try await r.run("u-sam", ConfirmBooking(bookingId: "b-clover"), at: "09:50")
        // Dev phones in: Sam books Bruno's nail trim for him, and records the vaccination the clinic gave.
        try await r.run("u-sam", RequestBooking(petId: "bruno", service: .nailTrim, slot: DemoRunner.on("2026-12-03T11:00"), bookingId: "b-bruno"), at: "09:52", for: "u-dev")
        try await r.run("u-sam", RecordVaccination(petId: "bruno", vaccine: "Rabies", givenOn: DemoRunner.on("2026-11-28T00:00")), at: "09:53", for: "u-dev")
        try await r.run("u-sam", AnswerVetRequest(requestId: "v-bruno", answer: "Please bring Bruno in today at 14:00 and keep him rested."), at: "10:00")

        // 10:15 Browsing: carts and favourites.
        try await r.run("u-ann", AddToCart(productId: "product_cat_005", quantity: 1), at: "10:15")
        try await r.run("u-bob", AddToCart(productId: "product_cat_001", quantity: 2), at: "10:16")
        try await r.run("u-bob", AddToCart(productId: "product_dog_004", quantity: 1), at: "10:16")
        try await r.run("u-grace", AddToCart(productId: "product_dog_001", quantity: 1), at: "10:17")
        try await r.run("u-hasan", AddToCart(productId: "product_bird_001", quantity: 1), at: "10:18")
        try await r.run("u-hasan", ChangeCartQuantity(productId: "product_bird_001", quantity: 2), at: "10:19")
        try await r.run("u-emi", AddToCart(productId: "product_fish_001", quantity: 1), at: "10:20")
        try await r.run("u-emi", RemoveFromCart(productId: "product_fish_001"), at: "10:21")
        try await r.run("u-emi", AddToCart(productId: "product_bird_001", quantity: 1), at: "10:21")
        for (id, product) in [("u-ann", "product_acc_001"), ("u-chloe", "product_cat_007"), ("u-grace", "product_acc_004")] {
            try await r.run(id, AddFavourite(productId: product), at: "10:22")
        }

        // 10:30 Flash sale: six customers want the last 5 carrier bags, and all check out at the same moment.
        let racers: [(String, Int64)] = [("u-ann", 1), ("u-bob", 2), ("u-chloe", 1), ("u-dev", 2), ("u-grace", 1), ("u-hasan", 1)]
        for (id, qty) in racers { try await r.run(id, AddToCart(productId: scarceProduct, quantity: qty), at: "10:30") }
        let names = Dictionary(uniqueKeysWithValues: customers.map { ($0.id, $0.name) })
        let orders = racers.enumerated().map { (n, racer) in (user: racer.0, command: place(n + 1, names[racer.0]!)) }
        let results = try await r.race(orders, at: "10:31")
        var placed = zip(orders, results).compactMap { $1 == nil ? nil : ($0.user, $0.command.orderId!) }
        // The refused buyers drop the bag and check out the rest of their cart.
        for (n, (order, result)) in zip(orders, results).enumerated() where result == nil {
            try await r.run(order.user, RemoveFromCart(productId: scarceProduct), at: "10:35")
            if try await r.run(order.user, place(n + 11, names[order.user]!), at: "10:36") != nil {
                placed.append((order.user, "o-\(n + 11)"))
            }
        }
        if try await r.run("u-emi", place(20, "Emi Tanaka"), at: "10:40") != nil { placed.append(("u-emi", "o-20")) }

        // 11:00 The till: in-store sales from the same stock, one for a walk-in, one for Grace, who has an account.
        try await r.run("u-rina", SellInStore(lines: [SaleItem(productId: "product_care_001", quantity: 2), SaleItem(productId: "product_acc_001", quantity: 1)], payment: .cash), at: "11:00")
        try await r.run("u-rina", SellInStore(lines: [SaleItem(productId: "product_dog_004", quantity: 1)], payment: .card, customerId: "u-grace"), at: "11:05")

        // 11:15 Staff work through the orders; the first winner cancels, which puts a bag back on the shelf.
        for (_, orderId) in placed { try await r.run("u-sam", ConfirmOrder(orderId: orderId), at: "11:15") }
        if let (customer, orderId) = placed.first {
            try await r.run(customer, CancelOrder(orderId: orderId, reason: "Bought one at the market"), at: "11:20")
        }
        for (_, orderId) in placed.dropFirst().prefix(3) { try await r.run("u-sam", ShipOrder(orderId: orderId), at: "11:30") }

        // 11:35 Messages about Rex's grooming, with an offline re-send and receipts.
        try await r.run("u-ann", StartConversation(subject: .booking, subjectId: "b-rex", conversationId: "c-rex"), at: "11:35")
        let question = SendMessage(conversationId: "c-rex", clientMessageId: "m-ann-1", text: "Can Rex get a nail trim too?")
        try await r.run("u-ann", question, at: "11:36")
        try await r.run("u-ann", question, at: "11:38")  // the phone's offline queue sends it again: a no-op
        try await r.run("u-sam", MarkMessageDelivered(conversationId: "c-rex", messageId: "m-ann-1"), at: "11:39")
        try await r.run("u-sam", MarkMessagesRead(conversationId: "c-rex", messageId: "m-ann-1"), at: "11:40")
        try await r.run(
            "u-sam", SendMessage(conversationId: "c-rex", clientMessageId: "m-sam-1", text: "Yes, we will add it at no charge."), at: "11:41")
        try await r.run("u-ann", MarkMessagesRead(conversationId: "c-rex", messageId: "m-sam-1"), at: "11:44")
        try await r.run("u-dev", StartConversation(subject: .vetRequest, subjectId: "v-bruno", conversationId: "c-bruno"), at: "11:45")
        try await r.run(
            "u-dev", SendMessage(conversationId: "c-bruno", clientMessageId: "m-dev-1", text: "We will be there at 14:00."), at: "11:46")
        try await r.run(
            "u-bob", SendMessage(conversationId: "c-rex", clientMessageId: "m-bob-1", text: "Hello?"), at: "11:47")  // not his

        // 12:00 Accounts: language, profile, email, image, logouts.
        try await r.run("u-bob", ChangeLanguage(language: .bnBD), at: "12:00")
        try await r.run("u-grace", UpdateProfile(phone: "+880 1819 555 010", address: "Flat 4B, Road 11, Banani, Dhaka"), at: "12:01")
        try await r.run("u-hasan", ChangeEmail(newEmail: "hasan.mahmud@mail.example", reauthenticatedAt: DemoRunner.at("12:00")), at: "12:02")
        try await r.run("u-emi", ChangeProfileImage(contentHash: String(repeating: "3f", count: 32), byteSize: 184_320), at: "12:03")
        try await r.run("u-chloe", ChangePassword(reauthenticatedAt: DemoRunner.at("12:03")), at: "12:04")
        try await r.run("u-hasan", SetNotifications(kind: .orderUpdates, setting: .off), at: "12:05")
        for c in customers.prefix(3) {
            if let s = sessions[c.id] { try await r.run(c.id, Logout(sessionId: s), at: "12:10") }
        }

        // 12:30 A delivery, and a cancellation that comes too late.
        if let (_, orderId) = placed.dropFirst().first {
            try await r.run("u-sam", DeliverOrder(orderId: orderId), at: "12:30")
            try await r.run("u-sam", DeliverOrder(orderId: orderId), at: "12:31")  // already delivered: nothing to change
        }
        if let (customer, orderId) = placed.dropFirst().first {
            try await r.run(customer, CancelOrder(orderId: orderId), at: "12:40")  // too late: delivered
            // The courier brought back the cash; the customer returns the carrier bag, which is refunded.
            try await r.run("u-sam", CollectOrderPayment(orderId: orderId), at: "12:45")
            try await r.run(
                "u-sam", ReturnOrder(orderId: orderId, lines: [SaleItem(productId: scarceProduct, quantity: 1)], reason: "The zip is broken"),
                at: "12:50")
            try await r.run("u-sam", RefundOrder(orderId: orderId, amount: Money(240_000, "BDT"), reason: "Returned carrier bag"), at: "12:51")
        }
        // A parcel refused at the door: cancelled after shipping, its units back on the shelf.
        if let (_, orderId) = placed.dropFirst(2).first {
            try await r.run("u-sam", CancelOrder(orderId: orderId, reason: "Refused at the door"), at: "12:55")
        }

        // 13:00 The admin restocks the bags and takes the fish flakes off sale; grooming and vet close the day.
        try await r.run("u-ada", ReceiveStock(productId: scarceProduct, quantity: 20), at: "13:00")
        try await r.run("u-ada", DelistProduct(productId: "product_fish_001"), at: "13:01")
        try await r.run("u-sam", CloseVetRequest(requestId: "v-bruno"), at: "15:00")
        try await r.run("u-sam", CompleteBooking(bookingId: "b-clover"), at: "16:45")
        try await r.run("u-sam", CompleteBooking(bookingId: "b-clover"), at: "16:46")  // completed already

        // 17:00 Emi deletes her account; `pawtrail demo` then winds down what she left open and erases her data.
        try await r.run("u-emi", DeleteAccount(reauthenticatedAt: DemoRunner.at("16:58")), at: "17:00")
    }

    /// Who deletes their account in the day.
    static let deleted = ["u-emi"]
}
