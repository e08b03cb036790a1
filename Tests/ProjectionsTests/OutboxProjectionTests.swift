import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

private func t(_ s: String) -> Timestamp { Timestamp(iso8601: s)! }

@Suite("Outbox projection")
struct OutboxProjectionTests {
    /// Ann (Bangla) with Rex, Bob (English) with Mia; a confirmed bath, a vaccination, an order shipped, a reply.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("account-u-ann", AccountSignedUp(userId: "u-ann", name: "Ann", email: "ann@x.example", language: .bnBD), at: "2026-12-01T08:00:00Z")
        s.given("account-u-bob", AccountSignedUp(userId: "u-bob", name: "Bob", email: "bob@x.example", language: .enUS), at: "2026-12-01T08:01:00Z")
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog), at: "2026-12-01T08:02:00Z")
        s.given("pet-mia", PetAdded(petId: "mia", ownerId: "u-bob", name: "Mia", species: .cat), at: "2026-12-01T08:03:00Z")
        s.given("booking-b-1", BookingRequested(bookingId: "b-1", petId: "rex", ownerId: "u-ann", service: .bath, slot: t("2026-12-03T10:00:00Z")), at: "2026-12-01T09:00:00Z")
        s.given(
            "booking-b-1", BookingConfirmed(bookingId: "b-1", slot: t("2026-12-03T10:00:00Z"), reminderDueAt: t("2026-12-02T10:00:00Z"), confirmedBy: "u-sam"),
            at: "2026-12-01T09:05:00Z")
        s.given("pet-mia", VaccinationRecorded(petId: "mia", vaccine: "Rabies", givenOn: t("2026-01-01T00:00:00Z"), nextDue: t("2026-12-05T00:00:00Z")), at: "2026-12-01T09:10:00Z")
        s.given("order-o-1", OrderPlaced(
            orderId: "o-1", customerId: "u-bob", lines: [], subtotal: Money(0, "BDT"), total: Money(0, "BDT"), deliveryAddress: "Road 1",
            deliverySlot: t("2026-12-04T10:00:00Z"), recipientName: "Bob", recipientPhone: "+880 1711 100037", payment: .cash), at: "2026-12-01T09:20:00Z")
        s.given("order-o-1", OrderShipped(orderId: "o-1", shippedBy: "u-sam"), at: "2026-12-01T11:00:00Z")
        s.given("conversation-c-1", ConversationStarted(conversationId: "c-1", subject: .booking, subjectId: "b-1", ownerId: "u-ann", startedBy: "u-ann"), at: "2026-12-01T11:10:00Z")
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-1", senderId: "u-ann", text: "Can Rex get a trim?"), at: "2026-12-01T11:11:00Z")
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-2", senderId: "u-sam", text: "Yes, no charge."), at: "2026-12-01T11:15:00Z")
        return s
    }

    static func ids(_ s: ProjectionScenario, _ view: String, _ args: [String: String] = [:]) throws -> [String] {
        let out = view == "outbox" ? try s.view(OutboxView.self, args) : try s.view(RemindersView.self, args)
        return out.rows.map { $0[0] }
    }

    @Test func whatIsDueIsOwedUntilAWorkerTakesIt() throws {
        var s = Self.scenario()
        // By the last event's business time: the vaccination (a week before the 5th), the shipment and the reply;
        // the customer's own message reaches no one; the bath's reminder falls due on the 2nd.
        #expect(try Self.ids(s, "outbox") == ["vaccination.mia.2026-12-05", "shipped.o-1", "message.c-1.m-2"])
        #expect(try Self.ids(s, "outbox", ["now": "2026-12-02T10:00:00Z"]).last == "reminder.b-1.202612031000")
        let out = try s.view(OutboxView.self, ["now": "2026-12-02T10:00:00Z"])
        #expect(out.rows.first { $0[0] == "reminder.b-1.202612031000" }?[3...] == ["bn-BD", "মনে করিয়ে দিচ্ছি: Rex-এর গোসল 2026-12-03 তারিখে 10:00-এ (UTC)।"])
        #expect(out.rows.first { $0[0] == "shipped.o-1" }?[3...] == ["en-US", "Your order o-1 is on its way."])
        s.given("notification-shipped.o-1", NotificationSent(notificationId: "shipped.o-1", sentBy: "u-sam"), at: "2026-12-01T11:20:00Z")
        #expect(try Self.ids(s, "outbox") == ["vaccination.mia.2026-12-05", "message.c-1.m-2"])
        let reminders = try s.view(RemindersView.self, ["due-before": "2026-12-01T23:00:00Z"])
        #expect(reminders.rows.map { "\($0[0]) \($0[5])" } == ["vaccination.mia.2026-12-05 no", "shipped.o-1 yes", "message.c-1.m-2 no"])
        #expect(try Self.ids(s, "reminders", ["due-before": "2026-12-01T23:00:00Z", "pending": ""]) == ["vaccination.mia.2026-12-05", "message.c-1.m-2"])
        // As of before the sending, it was still owed.
        let before = try OutboxProjection.folded(Array(s.events.dropLast()))
        #expect(before.due(by: t("2026-12-01T12:00:00Z")).map(\.id).contains("shipped.o-1"))
    }

    @Test func aCancelledOrMovedBookingIsNotRemindedAndAMovedOneIsRemindedAnewWhenConfirmed() throws {
        var s = Self.scenario()
        s.given("booking-b-1", BookingRescheduled(bookingId: "b-1", previousSlot: t("2026-12-03T10:00:00Z"), slot: t("2026-12-04T10:00:00Z"), rescheduledBy: "u-ann"))
        #expect(!(try Self.ids(s, "outbox", ["now": "2026-12-10T00:00:00Z"])).contains { $0.hasPrefix("reminder.") })
        s.given("booking-b-1", BookingConfirmed(bookingId: "b-1", slot: t("2026-12-04T10:00:00Z"), reminderDueAt: t("2026-12-03T10:00:00Z"), confirmedBy: "u-sam"))
        #expect(try Self.ids(s, "outbox", ["now": "2026-12-10T00:00:00Z"]).filter { $0.hasPrefix("reminder.") } == ["reminder.b-1.202612041000"])
        // A week after falling due, a notification not taken has expired.
        #expect(try Self.ids(s, "outbox", ["now": "2026-12-11T00:00:00Z"]).filter { $0.hasPrefix("reminder.") } == [])
        s.given("booking-b-1", BookingCancelled(bookingId: "b-1", cancelledBy: "u-ann"))
        #expect(!(try Self.ids(s, "outbox", ["now": "2026-12-10T00:00:00Z"])).contains { $0.hasPrefix("reminder.") })
    }

    @Test func settingsDeletedAccountsAndRemovedPetsAreRespected() throws {
        var s = ProjectionScenario()
        s.given("account-u-ann", AccountSignedUp(userId: "u-ann", name: "Ann", email: "ann@x.example", language: .enUS))
        s.given("account-u-ann", NotificationSettingChanged(userId: "u-ann", kind: .vaccinationDue, setting: .off))
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog))
        s.given("pet-rex", VaccinationRecorded(petId: "rex", vaccine: "Rabies", givenOn: t("2026-01-01T00:00:00Z"), nextDue: t("2026-12-05T00:00:00Z")))
        s.given("account-u-ann", NotificationSettingChanged(userId: "u-ann", kind: .vaccinationDue, setting: .on))
        s.given("pet-rex", VaccinationRecorded(petId: "rex", vaccine: "Leptospirosis", givenOn: t("2026-01-01T00:00:00Z"), nextDue: t("2026-12-09T00:00:00Z")))
        s.given("account-u-ann", PasswordResetRequested(userId: "u-ann", email: "ann@x.example"))
        let now = ["now": "2026-12-03T00:00:00Z"]
        // Turned off when the first fell due: only the second is owed; a reset link is always sent.
        #expect(try Self.ids(s, "outbox", now).count == 2)
        #expect(try Self.ids(s, "outbox", now).contains("vaccination.rex.2026-12-09"))
        s.given("pet-rex", PetRemoved(petId: "rex"))
        #expect(try Self.ids(s, "outbox", now).allSatisfy { $0.hasPrefix("reset.") })
        s.given("account-u-ann", AccountDeleted(userId: "u-ann", reauthenticatedAt: t("2026-12-01T00:00:00Z")))
        #expect(try Self.ids(s, "outbox", now).isEmpty)
    }
}
