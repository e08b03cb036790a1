import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

private func t(_ s: String) -> Timestamp { Timestamp(iso8601: s)! }

@Suite("Agenda projection")
struct AgendaProjectionTests {

    /// Rex and Mia; three bookings on 3 December (two share 10:00), one on 4 December, one cancelled; two vet requests.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("pet-p-rex", PetAdded(petId: "p-rex", ownerId: "u-ann", name: "Rex", species: .dog))
        s.given("pet-p-mia", PetAdded(petId: "p-mia", ownerId: "u-bob", name: "Mia", species: .cat))
        s.given("booking-b-1", BookingRequested(bookingId: "b-1", petId: "p-rex", ownerId: "u-ann", service: .bath, slot: t("2026-12-03T10:00:00Z")))
        s.given("booking-b-2", BookingRequested(bookingId: "b-2", petId: "p-mia", ownerId: "u-bob", service: .nailTrim, slot: t("2026-12-03T10:00:00Z")))
        s.given("booking-b-3", BookingRequested(bookingId: "b-3", petId: "p-rex", ownerId: "u-ann", service: .haircut, slot: t("2026-12-03T14:30:00Z")))
        s.given("booking-b-4", BookingRequested(bookingId: "b-4", petId: "p-mia", ownerId: "u-bob", service: .fullGroom, slot: t("2026-12-04T09:00:00Z"), durationMinutes: 120, groomers: 2))
        s.given("booking-b-1", BookingConfirmed(bookingId: "b-1", slot: t("2026-12-03T10:00:00Z"), reminderDueAt: t("2026-12-02T10:00:00Z"), confirmedBy: "u-sam"))
        s.given("booking-b-3", BookingCancelled(bookingId: "b-3", cancelledBy: "u-ann", reason: nil))
        s.given("vet-v-1", VetRequestSubmitted(requestId: "v-1", petId: "p-mia", ownerId: "u-bob", symptoms: "Sneezing", urgency: .normal, preferredTime: t("2026-12-03T16:00:00Z")))
        s.given("vet-v-2", VetRequestSubmitted(requestId: "v-2", petId: "p-rex", ownerId: "u-ann", symptoms: "Limping", urgency: .urgent, preferredTime: nil))
        return s
    }

    @Test func aDaysBookingsBySlotThenTheOpenVetRequestsMostUrgentFirst() throws {
        let out = try Self.scenario().view(AgendaView.self, ["day": "2026-12-03"])
        #expect(out.title == "Agenda of 2026-12-03")
        #expect(
            out.rows == [
                ["grooming", "10:00", "b-1", "Rex (p-rex)", "u-ann", "bath", "confirmed", "2/3"],
                ["grooming", "10:00", "b-2", "Mia (p-mia)", "u-bob", "nail-trim", "requested", "2/3"],
                ["vet", "", "v-2", "Rex (p-rex)", "u-ann", "urgent", "submitted", ""],
                ["vet", "16:00", "v-1", "Mia (p-mia)", "u-bob", "normal", "submitted", ""],
            ])
        #expect(out.footer == ["Times in UTC; 2 bookings in 1 slot (1 cancelled), 2 open vet requests · groomers in use at each booking's start, of 3 on duty"])
    }

    @Test func aRescheduleToAnotherDayMovesTheBookingAndARenameShowsInNewBookings() throws {
        var s = Self.scenario()
        s.given("booking-b-2", BookingRescheduled(bookingId: "b-2", previousSlot: t("2026-12-03T10:00:00Z"), slot: t("2026-12-04T11:30:00Z"), rescheduledBy: "u-bob"))
        s.given("booking-b-2", BookingConfirmed(bookingId: "b-2", slot: t("2026-12-04T11:30:00Z"), reminderDueAt: t("2026-12-03T11:30:00Z"), confirmedBy: "u-sam"))
        s.given("pet-p-mia", PetEdited(petId: "p-mia", name: "Mimi"))
        s.given("booking-b-5", BookingRequested(bookingId: "b-5", petId: "p-mia", ownerId: "u-bob", service: .bath, slot: t("2026-12-04T09:00:00Z")))
        #expect(try s.view(AgendaView.self, ["day": "2026-12-03"]).rows.filter { $0[0] == "grooming" }.map { $0[2] } == ["b-1"])
        // A confirmed booking moved to another slot needs confirming again.
        s.given("booking-b-1", BookingRescheduled(bookingId: "b-1", previousSlot: t("2026-12-03T10:00:00Z"), slot: t("2026-12-03T15:00:00Z"), rescheduledBy: "u-ann"))
        #expect(try s.view(AgendaView.self, ["day": "2026-12-03"]).rows.first { $0[2] == "b-1" }?[6] == "requested")
        let next = try s.view(AgendaView.self, ["day": "2026-12-04"])
        #expect(
            next.rows.filter { $0[0] == "grooming" } == [
                ["grooming", "09:00", "b-4", "Mia (p-mia)", "u-bob", "full-groom", "requested", "3/3"],
                ["grooming", "09:00", "b-5", "Mimi (p-mia)", "u-bob", "bath", "requested", "3/3"],
                ["grooming", "11:30", "b-2", "Mia (p-mia)", "u-bob", "nail-trim", "confirmed", "1/3"],
            ])
        // A no-show holds no groomer, and the salon's capacity is read as of the moment viewed.
        s.given("booking-b-5", BookingNoShow(bookingId: "b-5", recordedBy: "u-sam"))
        s.given("salon", SalonCapacitySet(groomers: 4))
        let after = try s.view(AgendaView.self, ["day": "2026-12-04"])
        #expect(after.rows.filter { $0[0] == "grooming" }.map { "\($0[2]) \($0[6]) \($0[7])" } == ["b-4 requested 2/4", "b-5 no-show 2/4", "b-2 confirmed 1/4"])
        #expect(after.json["bookings"]?.serialized.contains(#""durationMinutes":120,"groomers":2,"groomersInUse":2,"groomersOnDuty":4"#) == true)
    }

    @Test func answeredRequestsStayOpenUntilClosed() throws {
        var s = Self.scenario()
        s.given("vet-v-1", VetRequestAnswered(requestId: "v-1", answer: "Bring her in", answeredBy: "u-sam"))
        s.given("vet-v-2", VetRequestClosed(requestId: "v-2", closedBy: "u-sam"))
        let out = try s.view(AgendaView.self, ["day": "2026-12-05"])
        #expect(out.rows == [["vet", "2026-12-03", "v-1", "Mia (p-mia)", "u-bob", "normal", "answered", ""]])
        #expect(out.footer == ["Times in UTC; 0 bookings in 0 slots, 1 open vet request · groomers in use at each booking's start, of 3 on duty"])
    }

    @Test func theDayDefaultsToTheMomentViewedAndIsChecked() throws {
        let state = try Self.scenario().state(AgendaProjection.self)
        let out = try AgendaView.render(state, ViewArguments(["now": "2026-12-04T08:00:00Z"]))
        #expect(out.title == "Agenda of 2026-12-04")
        #expect(throws: ViewError.missing("day")) { try AgendaView.render(state, ViewArguments([:])) }
        #expect(throws: ViewError.invalid("day", "'12/03' is not a day (YYYY-MM-DD)")) { try AgendaView.render(state, ViewArguments(["day": "12/03"])) }
    }
}

@Suite("Services projection")
struct ServicesProjectionTests {
    @Test func theServicesShowTheTermsInForceAsOfAnyMoment() throws {
        var s = ProjectionScenario()
        let before = try s.view(ServicesView.self)
        #expect(before.rows.map { $0[0] } == ["bath", "haircut", "nail-trim", "full-groom", "de-shedding"], "the default terms before any are set")
        #expect(before.footer == ["3 groomers on duty each half-hour slot"])
        s.given("salon", GroomingServiceSet(service: .bath, name: "Spa bath", price: Money(95_000, "BDT"), durationMinutes: 90, groomers: 1))
        s.given("salon", GroomingServiceSet(service: .haircut, name: "Cut", price: Money(100_000, "BDT"), durationMinutes: 60, groomers: 1, offered: false))
        s.given("salon", SalonCapacitySet(groomers: 4))
        let out = try s.view(ServicesView.self)
        #expect(out.rows[0] == ["bath", "Spa bath", "950.00 BDT", "90", "1", "yes"])
        #expect(out.rows[1] == ["haircut", "Cut", "1,000.00 BDT", "60", "1", "no"])
        #expect(out.footer == ["4 groomers on duty each half-hour slot"])
        #expect(out.json["groomersOnDuty"] == .int(4))
        let past = try ServicesProjection.folded(Array(s.events.prefix(1)))
        #expect(past.terms[0].name == "Spa bath" && past.capacity == nil)
    }
}
