import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

/// The activity history: Given events, Then the exact entries (newest first, as the view shows them), one test per
/// noise rule with the edges of its window and the interleavings that break "consecutive".
@Suite("Activity projection")
struct ActivityProjectionTests {
    /// `2026-12-01T<hms>Z`.
    static func t(_ hms: String) -> String { "2026-12-01T\(hms)Z" }
    static func ts(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

    /// Ann signed up at 08:00 (in English) and the catalog knows two products.
    static func ann() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given(
            "product-litter",
            ProductListed(
                productId: "litter", name: "Cat Litter 10L", price: Money(62_000, "BDT"), category: "cat", imageRef: "i"
            ), at: t("07:00:00"))
        s.given(
            "product-bowl",
            ProductListed(
                productId: "bowl", name: "Steel Bowl", price: Money(35_000, "BDT"), category: "acc", imageRef: "i"),
            at: t("07:00:00"))
        s.given(
            "account-u-ann", AccountSignedUp(userId: "u-ann", name: "Ann", email: "ann@mail.example", language: .enUS),
            at: t("08:00:00"))
        return s
    }

    /// The view's rows for Ann, newest first: [WHEN, WHAT].
    static func rows(_ s: ProjectionScenario, _ user: String = "u-ann", limit: Int = 200) throws -> [[String]] {
        try s.view(ActivityView.self, ["user": user, "limit": String(limit)]).rows
    }

    /// Only the words, newest first.
    static func texts(_ s: ProjectionScenario, _ user: String = "u-ann") throws -> [String] {
        try rows(s, user).map { $0[1] }
    }

    // MARK: Plain entries and words

    @Test func accountEventsReadAsSentences() throws {
        var s = Self.ann()
        s.given(
            "account-u-ann", PasswordResetRequested(userId: "u-ann", email: "ann@mail.example"), at: Self.t("09:00:00"))
        s.given("account-u-ann", PasswordChanged(userId: "u-ann", reauthenticatedAt: nil), at: Self.t("09:01:00"))
        s.given(
            "account-u-ann",
            EmailChanged(
                userId: "u-ann", oldEmail: "ann@mail.example", newEmail: "ann@new.example",
                reauthenticatedAt: Self.ts(Self.t("09:00:30"))), at: Self.t("09:02:00"))
        s.given("roles", RoleGranted(userId: "u-ann", role: .staff, grantedBy: "u-ada"), at: Self.t("09:03:00"))
        s.given("roles", RoleRevoked(userId: "u-ann", role: .staff, revokedBy: "u-ada"), at: Self.t("09:04:00"))
        #expect(
            try Self.rows(s) == [
                ["2026-12-01 09:04", "The staff role was taken away"],
                ["2026-12-01 09:03", "Given the staff role"],
                ["2026-12-01 09:02", "Changed email to ann@new.example"],
                ["2026-12-01 09:01", "Changed password"],
                ["2026-12-01 09:00", "Asked for a password reset link (sent to ann@mail.example)"],
                ["2026-12-01 08:00", "Signed up"],
            ])
    }

    @Test func staffActionsGoToTheCustomerWhoOwnsTheBookingOrOrder() throws {
        var s = Self.ann()
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: Self.t("09:00:00"))
        s.given(
            "booking-b-1",
            BookingRequested(
                bookingId: "b-1", petId: "rex", ownerId: "u-ann", service: .fullGroom,
                slot: Self.ts("2026-12-03T10:00:00Z")), at: Self.t("09:01:00"), actor: "u-ann")
        s.given(
            "booking-b-1",
            BookingConfirmed(
                bookingId: "b-1", slot: Self.ts("2026-12-03T10:00:00Z"), reminderDueAt: Self.ts("2026-12-02T10:00:00Z"),
                confirmedBy: "u-sam"), at: Self.t("09:30:00"), actor: "u-sam")
        let line = { (id: String, name: String, units: Int64, price: Int64) in
            PurchaseLine(
                productId: id, name: name, category: "c", imageRef: "i", unitPrice: Money(price, "BDT"),
                quantity: units, lineTotal: Money(price * units, "BDT"))
        }
        s.given(
            "order-o-1",
            OrderPlaced(
                orderId: "o-1", customerId: "u-ann",
                lines: [line("litter", "Cat Litter 10L", 1, 62_000), line("bowl", "Steel Bowl", 1, 94_000)],
                subtotal: Money(156_000, "BDT"), total: Money(156_000, "BDT"), deliveryAddress: "Dhaka",
                deliverySlot: Self.ts("2026-12-04T11:00:00Z"), recipientName: "Ann", recipientPhone: "+880 1711 100037",
                payment: .cash), at: Self.t("10:00:00"))
        s.given("order-o-1", OrderConfirmed(orderId: "o-1", confirmedBy: "u-sam"), at: Self.t("10:10:00"))
        s.given("order-o-1", OrderShipped(orderId: "o-1", shippedBy: "u-sam"), at: Self.t("11:00:00"))
        s.given("order-o-1", OrderDelivered(orderId: "o-1", deliveredBy: "u-sam"), at: Self.t("12:00:00"))
        s.given("booking-b-1", BookingCompleted(bookingId: "b-1", completedBy: "u-sam"), at: Self.t("12:30:00"))
        #expect(
            try Self.texts(s) == [
                "Grooming done: full groom for Rex",
                "Order o-1 delivered",
                "Order o-1 shipped",
                "Order o-1 confirmed",
                "Placed order o-1 (2 items, 1,560.00 BDT)",
                "Booking confirmed: full groom for Rex on 3 Dec 10:00",
                "Booked a full groom for Rex on 3 Dec 10:00",
                "Added pet Rex",
                "Signed up",
            ])
        #expect(
            throws: ViewError.notFound("no activity for user 'u-sam'"),
            "staff work on a customer's things is the customer's history"
        ) {
            try s.view(ActivityView.self, ["user": "u-sam"])
        }
        let state = try s.state(ActivityProjection.self)
        #expect(state.bookings.isEmpty && state.orders.isEmpty, "finished bookings and orders leave the owner maps")
    }

    @Test func cancellationsSayWhoCancelled() throws {
        var s = Self.ann()
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: Self.t("09:00:00"))
        s.given(
            "booking-b-1",
            BookingRequested(
                bookingId: "b-1", petId: "rex", ownerId: "u-ann", service: .bath, slot: Self.ts("2026-12-03T10:00:00Z")),
            at: Self.t("09:01:00"))
        s.given(
            "booking-b-1",
            BookingRescheduled(
                bookingId: "b-1", previousSlot: Self.ts("2026-12-03T10:00:00Z"), slot: Self.ts("2026-12-04T11:30:00Z"),
                rescheduledBy: "u-ann"), at: Self.t("09:20:00"))
        s.given(
            "booking-b-1", BookingCancelled(bookingId: "b-1", cancelledBy: "u-sam", reason: "groomer ill"),
            at: Self.t("10:00:00"))
        s.given(
            "booking-b-2",
            BookingRequested(
                bookingId: "b-2", petId: "rex", ownerId: "u-ann", service: .nailTrim,
                slot: Self.ts("2026-12-05T09:00:00Z")), at: Self.t("10:30:00"))
        s.given("booking-b-2", BookingCancelled(bookingId: "b-2", cancelledBy: "u-ann"), at: Self.t("11:00:00"))
        let placed = OrderPlaced(
            orderId: "o-2", customerId: "u-ann", lines: [], subtotal: Money(0, "BDT"), total: Money(0, "BDT"),
            deliveryAddress: "Dhaka", deliverySlot: Self.ts("2026-12-04T11:00:00Z"), recipientName: "Ann",
            recipientPhone: "1", payment: .cash)
        s.given("order-o-2", placed, at: Self.t("12:00:00"))
        s.given("order-o-2", OrderCancelled(orderId: "o-2", cancelledBy: "u-ann"), at: Self.t("12:10:00"))
        #expect(
            try Self.texts(s).prefix(6) == [
                "Cancelled order o-2",
                "Placed order o-2 (0 items, 0.00 BDT)",
                "Cancelled the booking: nail trim for Rex on 5 Dec 09:00",
                "Booked a nail trim for Rex on 5 Dec 09:00",
                "Booking cancelled by the shop: bath for Rex on 4 Dec 11:30 (groomer ill)",
                "Moved the bath for Rex to 4 Dec 11:30",
            ])
    }

    @Test func petCareAndVetRequestsReadAsSentences() throws {
        var s = Self.ann()
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: Self.t("09:00:00"))
        s.given(
            "pet-rex",
            VaccinationRecorded(
                petId: "rex", vaccine: "rabies", givenOn: Self.ts(Self.t("08:00:00")),
                nextDue: Self.ts("2027-12-01T00:00:00Z")), at: Self.t("09:20:00"))
        s.given("pet-rex", HealthIssueOpened(petId: "rex", issueId: "i-1", title: "Limping"), at: Self.t("09:40:00"))
        s.given(
            "pet-rex",
            TreatmentStarted(
                petId: "rex", planId: "p-1", kind: .medication, name: "Carprofen", dosage: "25 mg", schedule: "daily",
                startDate: Self.ts(Self.t("00:00:00"))), at: Self.t("10:00:00"))
        s.given(
            "pet-rex", WeightLogged(petId: "rex", weightGrams: 12_450, measuredAt: Self.ts(Self.t("10:00:00"))),
            at: Self.t("10:20:00"))
        s.given("pet-rex", TreatmentEnded(petId: "rex", planId: "p-1"), at: Self.t("10:40:00"))
        s.given("pet-rex", HealthIssueResolved(petId: "rex", issueId: "i-1"), at: Self.t("11:00:00"))
        s.given(
            "vet-v-1",
            VetRequestSubmitted(requestId: "v-1", petId: "rex", ownerId: "u-ann", symptoms: "cough", urgency: .urgent),
            at: Self.t("11:20:00"))
        s.given(
            "vet-v-1", VetRequestAnswered(requestId: "v-1", answer: "rest", answeredBy: "u-vet"), at: Self.t("11:40:00")
        )
        s.given("vet-v-1", VetRequestClosed(requestId: "v-1", closedBy: "u-vet"), at: Self.t("12:00:00"))
        #expect(
            try Self.texts(s).prefix(10) == [
                "Vet request about Rex closed",
                "The vet answered about Rex",
                "Asked the vet about Rex (urgent)",
                "Resolved Rex's health issue: Limping",
                "Ended Rex's treatment: Carprofen",
                "Logged Rex's weight: 12.45 kg",
                "Started Rex's medication: Carprofen",
                "Opened a health issue for Rex: Limping",
                "Recorded Rex's rabies vaccination (next due 1 Dec 2027)",
                "Added pet Rex",
            ])
        let state = try s.state(ActivityProjection.self)
        #expect(
            state.pets["rex"] == ActivityState.Pet(owner: "u-ann", name: "Rex"),
            "resolved issues and ended plans leave the pet")
        #expect(state.vetRequests.isEmpty)
    }

    // MARK: Rule 1: sessions

    @Test func logInsAndRestoresInsideTheWindowCollapse() throws {
        var s = Self.ann()
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s1"), at: Self.t("09:00:00"))
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s2"), at: Self.t("09:10:00"))
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s3"), at: Self.t("09:20:00"))
        #expect(try Self.rows(s).first == ["2026-12-01 09:00–09:20", "Logged in (3 times)"])
        s.given("account-u-ann", SessionRestored(userId: "u-ann", sessionId: "s3"), at: Self.t("09:25:00"))
        #expect(try Self.texts(s) == ["Logged in (4 times: 3 log-ins, 1 session restore)", "Signed up"])

        var r = Self.ann()
        r.given("account-u-ann", SessionRestored(userId: "u-ann", sessionId: "s1"), at: Self.t("09:00:00"))
        r.given("account-u-ann", SessionRestored(userId: "u-ann", sessionId: "s1"), at: Self.t("09:05:00"))
        #expect(try Self.texts(r) == ["Session restored (2 times)", "Signed up"])
        let entry = try r.state(ActivityProjection.self).users["u-ann"]!.entries.last!
        #expect(
            entry
                == ActivityEntry(
                    .session, at: Self.ts(Self.t("09:00:00")), position: 3, secondary: 2,
                    lastAt: Self.ts(Self.t("09:05:00"))))
    }

    @Test func theSessionWindowIsMeasuredFromTheEntrysFirstLogIn() throws {
        var s = Self.ann()
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s1"), at: Self.t("09:00:00"))
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s2"), at: Self.t("09:30:00"))
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s3"), at: Self.t("09:30:01"))
        #expect(
            try Self.rows(s) == [
                ["2026-12-01 09:30", "Logged in"],
                ["2026-12-01 09:00–09:30", "Logged in (2 times)"],
                ["2026-12-01 08:00", "Signed up"],
            ], "exactly 30 minutes is inside; a second more starts a new entry")
    }

    @Test func aClockThatRunsBackwardsCountsAsInsideTheWindow() throws {
        var s = Self.ann()
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s1"), at: Self.t("09:10:00"))
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s2"), at: Self.t("09:05:00"))
        #expect(try Self.rows(s).first == ["2026-12-01 09:10–09:05", "Logged in (2 times)"])
    }

    @Test func anotherEntryBetweenLogInsKeepsThemApart() throws {
        var s = Self.ann()
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s1"), at: Self.t("09:00:00"))
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: Self.t("09:02:00"))
        s.given("account-u-ann", SessionRestored(userId: "u-ann", sessionId: "s1"), at: Self.t("09:05:00"))
        #expect(try Self.texts(s) == ["Session restored", "Added pet Rex", "Logged in", "Signed up"])
    }

    // MARK: Rule 2: log-outs

    @Test func aLogOutWithinAMinuteOfTheLogInAddsNothing() throws {
        var s = Self.ann()
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s1"), at: Self.t("09:00:00"))
        s.given("account-u-ann", LoggedOut(userId: "u-ann", sessionId: "s1"), at: Self.t("09:01:00"))
        #expect(try Self.texts(s) == ["Logged in", "Signed up"], "exactly a minute is inside")
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s2"), at: Self.t("09:10:00"))
        #expect(
            try Self.texts(s) == ["Logged in (2 times)", "Signed up"],
            "the dropped log-out does not break the session entry")
        s.given("account-u-ann", LoggedOut(userId: "u-ann", sessionId: "s2"), at: Self.t("09:11:01"))
        #expect(
            try Self.texts(s) == ["Logged out", "Logged in (2 times)", "Signed up"],
            "a minute and a second later it is a log-out")
    }

    @Test func logOutsCollapseLikeLogIns() throws {
        var s = Self.ann()
        s.given("account-u-ann", PasswordChanged(userId: "u-ann", reauthenticatedAt: nil), at: Self.t("09:00:00"))
        s.given("account-u-ann", LoggedOut(userId: "u-ann", sessionId: "s1"), at: Self.t("09:05:00"))
        s.given("account-u-ann", LoggedOut(userId: "u-ann", sessionId: "s2"), at: Self.t("09:06:00"))
        s.given("account-u-ann", LoggedOut(userId: "u-ann", sessionId: "s3"), at: Self.t("09:35:01"))
        #expect(try Self.texts(s) == ["Logged out", "Logged out (2 times)", "Changed password", "Signed up"])
    }

    // MARK: Rule 3: profile edits

    @Test func profileEditsInsideTheWindowCoalesceIntoTheUnionOfFields() throws {
        var s = Self.ann()
        s.given("account-u-ann", ProfileUpdated(userId: "u-ann", address: "Dhaka"), at: Self.t("09:00:00"))
        s.given("account-u-ann", ProfileUpdated(userId: "u-ann", phone: "+880 1711 100037"), at: Self.t("09:03:00"))
        s.given(
            "account-u-ann",
            ProfileImageChanged(userId: "u-ann", contentHash: String(repeating: "a", count: 64), byteSize: 10),
            at: Self.t("09:06:00"))
        s.given(
            "account-u-ann", ProfileUpdated(userId: "u-ann", phone: "", address: "Chattogram"), at: Self.t("09:10:00"))
        #expect(try Self.rows(s).first == ["2026-12-01 09:00–09:10", "Updated profile (phone, address, photo)"])
        #expect(try Self.texts(s).count == 2)
    }

    @Test func profileEditsJustOutsideTheWindowOrInterleavedStayApart() throws {
        var s = Self.ann()
        s.given("account-u-ann", ProfileUpdated(userId: "u-ann", name: "Ann C"), at: Self.t("09:00:00"))
        s.given("account-u-ann", ProfileUpdated(userId: "u-ann", phone: "+880 1711 100037"), at: Self.t("09:10:01"))
        s.given("account-u-ann", PasswordChanged(userId: "u-ann", reauthenticatedAt: nil), at: Self.t("09:11:00"))
        s.given("account-u-ann", ProfileUpdated(userId: "u-ann", address: "Dhaka"), at: Self.t("09:12:00"))
        #expect(
            try Self.texts(s) == [
                "Updated profile (address)", "Changed password", "Updated profile (phone)", "Updated profile (name)",
                "Signed up",
            ])
    }

    // MARK: Rule 4: language round trips

    @Test func aLanguageRoundTripInsideTheWindowDisappears() throws {
        var s = Self.ann()
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s1"), at: Self.t("09:00:00"))
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .bnBD), at: Self.t("09:01:00"))
        // Ann reads Bangla now: her history is worded in it.
        #expect(try Self.texts(s) == ["ভাষা বদলে বাংলা করেছেন", "লগ ইন করেছেন", "সাইন আপ করেছেন"])
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .enUS), at: Self.t("09:11:00"))
        #expect(try Self.texts(s) == ["Logged in", "Signed up"], "back where it started, 10 minutes on: gone")
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s2"), at: Self.t("09:20:00"))
        #expect(
            try Self.texts(s) == ["Logged in (2 times)", "Signed up"], "what the rules removed no longer separates")
    }

    @Test func languageChangesKeepTheNetChange() throws {
        var s = Self.ann()
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .bnBD), at: Self.t("09:00:00"))
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .enUS), at: Self.t("09:02:00"))
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .bnBD), at: Self.t("09:04:00"))
        let entries = try s.state(ActivityProjection.self).users["u-ann"]!.entries
        #expect(entries.count == 2)
        #expect(
            entries.last
                == ActivityEntry(
                    .languageChanged, at: Self.ts(Self.t("09:04:00")), position: 5, detail: "bn-BD", extra: "en-US"),
            "the round trip vanished; the last change began a new entry")
        #expect(try Self.texts(s) == ["ভাষা বদলে বাংলা করেছেন", "সাইন আপ করেছেন"])
    }

    @Test func languageChangesJustOutsideTheWindowOrInterleavedStay() throws {
        var s = Self.ann()
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .bnBD), at: Self.t("09:00:00"))
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .enUS), at: Self.t("09:10:01"))
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .bnBD), at: Self.t("10:00:00"))
        s.given("account-u-ann", PasswordChanged(userId: "u-ann", reauthenticatedAt: nil), at: Self.t("10:01:00"))
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .enUS), at: Self.t("10:02:00"))
        #expect(
            try Self.texts(s) == [
                "Changed language to English", "Changed password", "Changed language to Bangla",
                "Changed language to English",
                "Changed language to Bangla", "Signed up",
            ])
    }

    // MARK: Rule 5: cart churn

    @Test func aCartAddRemovedWithinTheWindowDisappearsWithItsRemoval() throws {
        var s = Self.ann()
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 1), at: Self.t("09:00:00"))
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "bowl", quantity: 2), at: Self.t("09:01:00"))
        s.given("account-u-ann", PasswordChanged(userId: "u-ann", reauthenticatedAt: nil), at: Self.t("09:02:00"))
        s.given("cart-u-ann", CartItemRemoved(ownerId: "u-ann", productId: "litter"), at: Self.t("09:05:00"))
        #expect(
            try Self.texts(s) == ["Changed password", "Added 2 × Steel Bowl to the cart", "Signed up"],
            "other entries in between do not save the add: shopping interleaves products")
        #expect(try s.state(ActivityProjection.self).users["u-ann"]!.cart == ["bowl": 2])
    }

    @Test func aCartRemovalJustOutsideTheWindowStays() throws {
        var s = Self.ann()
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 1), at: Self.t("09:00:00"))
        s.given("cart-u-ann", CartItemRemoved(ownerId: "u-ann", productId: "litter"), at: Self.t("09:05:01"))
        #expect(
            try Self.texts(s) == [
                "Removed Cat Litter 10L from the cart", "Added Cat Litter 10L to the cart", "Signed up",
            ])
    }

    @Test func cartQuantityChangesCoalesceIntoTheNetChange() throws {
        var s = Self.ann()
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 1), at: Self.t("09:00:00"))
        s.given(
            "cart-u-ann", CartItemQuantityChanged(ownerId: "u-ann", productId: "litter", quantity: 4),
            at: Self.t("09:01:00"))
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 1), at: Self.t("09:02:00"))
        #expect(try Self.rows(s).first == ["2026-12-01 09:00–09:02", "Added 5 × Cat Litter 10L to the cart"])
        s.given(
            "cart-u-ann", CartItemQuantityChanged(ownerId: "u-ann", productId: "litter", quantity: 2),
            at: Self.t("09:20:00"))
        s.given(
            "cart-u-ann", CartItemQuantityChanged(ownerId: "u-ann", productId: "litter", quantity: 3),
            at: Self.t("09:21:00"))
        #expect(try Self.texts(s).first == "Changed Cat Litter 10L in the cart from 5 to 3")
        s.given(
            "cart-u-ann", CartItemQuantityChanged(ownerId: "u-ann", productId: "litter", quantity: 5),
            at: Self.t("09:22:00"))
        #expect(
            try Self.texts(s) == ["Added 5 × Cat Litter 10L to the cart", "Signed up"],
            "5 -> 3 -> 5 nets to nothing and disappears")
    }

    @Test func aCheckoutEndsTheCartLookBack() throws {
        var s = Self.ann()
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "bowl", quantity: 1), at: Self.t("09:00:00"))
        let line = PurchaseLine(
            productId: "bowl", name: "Steel Bowl", category: "acc", imageRef: "i", unitPrice: Money(35_000, "BDT"),
            quantity: 1, lineTotal: Money(35_000, "BDT"))
        s.given(
            "order-o-1",
            OrderPlaced(
                orderId: "o-1", customerId: "u-ann", lines: [line], subtotal: Money(35_000, "BDT"),
                total: Money(35_000, "BDT"), deliveryAddress: "Dhaka", deliverySlot: Self.ts("2026-12-04T11:00:00Z"),
                recipientName: "Ann", recipientPhone: "1", payment: .cash), at: Self.t("09:01:00"))
        s.given(
            "cart-u-ann", CartCleared(ownerId: "u-ann", reason: .checkedOut, reference: "o-1"), at: Self.t("09:01:00"))
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "bowl", quantity: 1), at: Self.t("09:02:00"))
        s.given("cart-u-ann", CartItemRemoved(ownerId: "u-ann", productId: "bowl"), at: Self.t("09:03:00"))
        s.given("cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 2), at: Self.t("09:04:00"))
        s.given("cart-u-ann", CartCleared(ownerId: "u-ann", reason: .cleared), at: Self.t("09:05:00"))
        #expect(
            try Self.texts(s) == [
                "Emptied the cart (1 product)", "Added 2 × Cat Litter 10L to the cart",
                "Placed order o-1 (1 item, 350.00 BDT)",
                "Added Steel Bowl to the cart", "Signed up",
            ], "the checkout's clearing says nothing; the add after it nets out on its own")
        #expect(try s.state(ActivityProjection.self).users["u-ann"]!.cart.isEmpty)
    }

    // MARK: Rule 6: favourite churn

    @Test func aFavouriteAddedAndRemovedWithinTheWindowDisappears() throws {
        var s = Self.ann()
        s.given("favourites-u-ann", FavouriteAdded(ownerId: "u-ann", productId: "bowl"), at: Self.t("09:00:00"))
        s.given("favourites-u-ann", FavouriteAdded(ownerId: "u-ann", productId: "litter"), at: Self.t("09:01:00"))
        s.given("favourites-u-ann", FavouriteRemoved(ownerId: "u-ann", productId: "bowl"), at: Self.t("09:05:00"))
        #expect(try Self.texts(s) == ["Added Cat Litter 10L to favourites", "Signed up"])
        s.given("favourites-u-ann", FavouriteRemoved(ownerId: "u-ann", productId: "litter"), at: Self.t("09:30:00"))
        s.given("favourites-u-ann", FavouriteAdded(ownerId: "u-ann", productId: "litter"), at: Self.t("09:31:00"))
        #expect(
            try Self.texts(s) == ["Added Cat Litter 10L to favourites", "Signed up"],
            "removed and added back: nothing happened")
    }

    @Test func aFavouriteRemovedJustOutsideTheWindowStays() throws {
        var s = Self.ann()
        s.given("favourites-u-ann", FavouriteAdded(ownerId: "u-ann", productId: "bowl"), at: Self.t("09:00:00"))
        s.given("favourites-u-ann", FavouriteRemoved(ownerId: "u-ann", productId: "bowl"), at: Self.t("09:05:01"))
        #expect(
            try Self.texts(s) == ["Removed Steel Bowl from favourites", "Added Steel Bowl to favourites", "Signed up"])
    }

    // MARK: Rule 7: pet edits and settings

    @Test func editsOfOnePetCoalesceAndSettingsKeepTheLastValue() throws {
        var s = Self.ann()
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: Self.t("09:00:00"))
        s.given("pet-rex", PetEdited(petId: "rex", weightGrams: 12_000), at: Self.t("09:01:00"))
        s.given("pet-rex", PetEdited(petId: "rex", name: "Max", breed: "Beagle"), at: Self.t("09:02:00"))
        s.given(
            "pet-rex", FoodPlanSet(petId: "rex", food: "Kibble", portionGrams: 150, feedingTimes: ["08:00"]),
            at: Self.t("09:03:00"))
        s.given(
            "pet-rex", FoodPlanSet(petId: "rex", food: "Kibble", portionGrams: 200, feedingTimes: ["08:00", "18:00"]),
            at: Self.t("09:04:00"))
        s.given(
            "pet-rex", VetContactSet(petId: "rex", vetName: "Dr Rahman", clinic: "Paws Clinic"), at: Self.t("09:05:00"))
        s.given(
            "pet-rex", NextVetAppointmentSet(petId: "rex", at: Self.ts("2026-12-05T14:00:00Z"), reason: "check-up"),
            at: Self.t("09:06:00"))
        s.given(
            "pet-rex", NextVetAppointmentSet(petId: "rex", at: Self.ts("2026-12-06T15:00:00Z")), at: Self.t("09:07:00"))
        s.given("pet-rex", PetEdited(petId: "rex", ageMonths: 30), at: Self.t("09:08:00"))
        #expect(
            try Self.rows(s) == [
                ["2026-12-01 09:08", "Edited Max's profile (age)"],
                ["2026-12-01 09:06–09:07", "Set Max's next vet appointment for 6 Dec 15:00"],
                ["2026-12-01 09:05", "Set Max's vet: Dr Rahman, Paws Clinic"],
                ["2026-12-01 09:03–09:04", "Set Max's food plan: Kibble, 200 g 2 times a day"],
                ["2026-12-01 09:01–09:02", "Edited Rex's profile (name, breed, weight)"],
                ["2026-12-01 09:00", "Added pet Rex"],
                ["2026-12-01 08:00", "Signed up"],
            ], "the edit entry names the pet as it was called before; later entries use the new name")
    }

    @Test func editsOfAnotherPetOrJustOutsideTheWindowStayApart() throws {
        var s = Self.ann()
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: Self.t("09:00:00"))
        s.given("pet-tom", PetAdded(petId: "tom", ownerId: "u-ann", name: "Tom", species: .cat), at: Self.t("09:00:00"))
        s.given("pet-rex", PetEdited(petId: "rex", weightGrams: 12_000), at: Self.t("09:01:00"))
        s.given("pet-tom", PetEdited(petId: "tom", weightGrams: 4_000), at: Self.t("09:02:00"))
        s.given("pet-tom", PetEdited(petId: "tom", breed: "Persian"), at: Self.t("09:12:01"))
        #expect(
            try Self.texts(s).prefix(3) == [
                "Edited Tom's profile (breed)", "Edited Tom's profile (weight)", "Edited Rex's profile (weight)",
            ])
    }

    // MARK: Rule 8: messages

    @Test func messagesOfOneConversationCollapseByDirection() throws {
        var s = Self.ann()
        s.given(
            "conversation-c-1",
            ConversationStarted(
                conversationId: "c-1", subject: .order, subjectId: "o-1", ownerId: "u-ann", startedBy: "u-ann"),
            at: Self.t("09:00:00"))
        s.given(
            "conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m1", senderId: "u-ann", text: "hi"),
            at: Self.t("09:00:00"))
        s.given(
            "conversation-c-1",
            MessageSent(conversationId: "c-1", messageId: "m2", senderId: "u-ann", text: "where is it"),
            at: Self.t("09:01:00"))
        s.given(
            "conversation-c-1",
            MessageSent(conversationId: "c-1", messageId: "m3", senderId: "u-sam", text: "on its way"),
            at: Self.t("09:05:00"))
        s.given(
            "conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m4", senderId: "u-sam", text: "today"),
            at: Self.t("09:06:00"))
        s.given(
            "conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m5", senderId: "u-ann", text: "thanks"),
            at: Self.t("09:07:00"))
        s.given(
            "conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m6", senderId: "u-ann", text: "bye"),
            at: Self.t("09:17:01"))
        s.given(
            "conversation-c-2",
            ConversationStarted(
                conversationId: "c-2", subject: .vetRequest, subjectId: "v-1", ownerId: "u-ann", startedBy: "u-vet"),
            at: Self.t("10:00:00"))
        #expect(
            try Self.texts(s) == [
                "The shop started a conversation about vet request v-1",
                "Sent a message about order o-1",
                "Sent a message about order o-1",
                "Received 2 messages from the shop about order o-1",
                "Sent 2 messages about order o-1",
                "Started a conversation about order o-1",
                "Signed up",
            ])
        #expect(throws: ViewError.notFound("no activity for user 'u-sam'")) {
            try s.view(ActivityView.self, ["user": "u-sam"])
        }
    }

    // MARK: Rule 9: guest merges

    @Test func aGuestsCartAndFavouritesMakeOneEntryEach() throws {
        var s = Self.ann()
        s.given(
            "cart-guest-1", CartItemAdded(ownerId: "guest-1", productId: "litter", quantity: 2), at: Self.t("08:30:00"))
        s.given("favourites-guest-1", FavouriteAdded(ownerId: "guest-1", productId: "bowl"), at: Self.t("08:31:00"))
        let login = Self.t("09:00:00")
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s1"), at: login, command: "account.login")
        s.given(
            "cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "litter", quantity: 2), at: login,
            command: "account.login")
        s.given(
            "cart-u-ann", CartItemAdded(ownerId: "u-ann", productId: "bowl", quantity: 1), at: login,
            command: "account.login")
        s.given(
            "cart-guest-1", CartCleared(ownerId: "guest-1", reason: .merged, reference: "u-ann"), at: login,
            command: "account.login")
        s.given(
            "favourites-u-ann", FavouriteAdded(ownerId: "u-ann", productId: "bowl"), at: login, command: "account.login"
        )
        s.given(
            "favourites-guest-1", FavouritesMerged(ownerId: "guest-1", mergedInto: "u-ann", productIds: ["bowl"]),
            at: login, command: "account.login")
        s.given(
            "cart-u-ann", CartItemRemoved(ownerId: "u-ann", productId: "bowl"), at: Self.t("09:01:00"),
            command: "cart.remove")
        #expect(
            try Self.texts(s) == [
                "Removed Steel Bowl from the cart",
                "Brought in 1 favourite saved as a guest",
                "Brought in the cart filled as a guest (2 products, 3 units)",
                "Logged in",
                "Signed up",
            ], "a merged line is in the cart; taking it out is a change of its own")
        let state = try s.state(ActivityProjection.self)
        #expect(state.users["guest-1"] == nil, "guests have no history")
        #expect(state.users["u-ann"]!.cart == ["litter": 2])
    }

    // MARK: Rule 10: consequences of one action

    @Test func bookingsCancelledByAPetsRemovalAreCountedOnTheRemoval() throws {
        var s = Self.ann()
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: Self.t("09:00:00"))
        s.given(
            "booking-b-1",
            BookingRequested(
                bookingId: "b-1", petId: "rex", ownerId: "u-ann", service: .bath, slot: Self.ts("2026-12-03T10:00:00Z")),
            at: Self.t("09:01:00"))
        s.given(
            "booking-b-2",
            BookingRequested(
                bookingId: "b-2", petId: "rex", ownerId: "u-ann", service: .haircut,
                slot: Self.ts("2026-12-04T10:00:00Z")), at: Self.t("09:02:00"))
        s.given("pet-rex", PetRemoved(petId: "rex"), at: Self.t("10:00:00"))
        s.given(
            "booking-b-1", BookingCancelled(bookingId: "b-1", cancelledBy: "u-ann", reason: "the pet was removed"),
            at: Self.t("10:00:00"))
        s.given(
            "booking-b-2", BookingCancelled(bookingId: "b-2", cancelledBy: "u-ann", reason: "the pet was removed"),
            at: Self.t("10:00:00"))
        #expect(try Self.texts(s).first == "Removed pet Rex (2 bookings cancelled)")
        #expect(try Self.texts(s).count == 5)
        let state = try s.state(ActivityProjection.self)
        #expect(state.pets.isEmpty && state.bookings.isEmpty)
    }

    @Test func rolesLostWithTheAccountAddNothing() throws {
        var s = Self.ann()
        s.given("roles", RoleGranted(userId: "u-ann", role: .staff, grantedBy: "u-ada"), at: Self.t("09:00:00"))
        s.given(
            "account-u-ann", AccountDeleted(userId: "u-ann", reauthenticatedAt: Self.ts(Self.t("09:59:00"))),
            at: Self.t("10:00:00"))
        s.given("roles", RoleRevoked(userId: "u-ann", role: .staff, revokedBy: "u-ann"), at: Self.t("10:00:00"))
        #expect(try Self.texts(s) == ["Deleted the account", "Given the staff role", "Signed up"])
    }

    // MARK: Bounds and the view

    @Test func eachUserKeepsTheNewest200Entries() throws {
        var s = Self.ann()
        for n in 0..<260 {
            s.given("account-u-ann", PasswordChanged(userId: "u-ann", reauthenticatedAt: nil), at: n == 0 ? Self.t("09:00:00") : nil)
        }
        let entries = try s.state(ActivityProjection.self).users["u-ann"]!.entries
        // 261 entries: at 251 the oldest 51 went in one move, leaving 200; 10 more since.
        #expect(entries.count == 210)
        #expect(entries.first!.position == 2 + 51, "the sign-up (position 2) and the 50 oldest changes went")
        let all = try s.view(ActivityView.self, ["user": "u-ann", "limit": "200"])
        #expect(all.rows.count == 200 && all.footer.isEmpty)
        #expect(try s.view(ActivityView.self, ["user": "u-ann"]).footer == ["50 of 200 entries; --limit shows more"])
    }

    @Test func theViewChecksItsArgumentsAndGivesJSON() throws {
        var s = Self.ann()
        s.given("account-u-ann", ProfileUpdated(userId: "u-ann", phone: "1234567"), at: Self.t("09:00:00"))
        #expect(throws: ViewError.missing("user")) { try s.view(ActivityView.self) }
        #expect(throws: ViewError.notFound("no activity for user 'u-bob'")) {
            try s.view(ActivityView.self, ["user": "u-bob"])
        }
        #expect(throws: ViewError.invalid("limit", "'0' is not an integer between 1 and 200")) {
            try s.view(ActivityView.self, ["user": "u-ann", "limit": "0"])
        }
        let out = try s.view(ActivityView.self, ["user": "u-ann", "limit": "1"])
        #expect(out.title == "Activity of u-ann (newest first)")
        #expect(out.header == ["WHEN", "WHAT"])
        #expect(out.footer == ["1 of 2 entries; --limit shows more"])
        #expect(
            out.json.serialized
                == #"[{"at":"2026-12-01T09:00:00Z","lastAt":"2026-12-01T09:00:00Z","position":3,"kind":"profile-updated","text":"Updated profile (phone)","fields":["phone"]}]"#
        )
    }
}
