import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Grooming salon: services, capacity and groomers per slot")
struct SalonTests {
    typealias W = PetWorld
    static let ten = t("2026-12-05T10:00:00Z")

    /// Rex, plus Mimi, Tom and Kiki of the same owner.
    static func pets() async throws -> DomainScenario {
        let s = try await W.scenario()
        for name in ["mimi", "tom", "kiki"] {
            try await s.given(Streams.pet(name), PetAdded(petId: name, ownerId: W.owner, name: name, species: .cat))
        }
        return s
    }

    @Test func aSlotTakesNoMorePetsThanItHasGroomers() async throws {
        let s = try await Self.pets()
        // A full groom needs two of the three groomers for two hours; a bath one groomer for an hour.
        _ = try await s.when(W.owner, RequestBooking(petId: "rex", service: .fullGroom, slot: Self.ten, bookingId: "b-rex"))
        _ = try await s.when(W.owner, RequestBooking(petId: "mimi", service: .bath, slot: Self.ten, bookingId: "b-mimi"))
        try await s.then(
            W.owner, RequestBooking(petId: "tom", service: .nailTrim, slot: t("2026-12-05T10:30:00Z")),
            throws: .rejected("the salon is full at 2026-12-05T10:30:00.000000Z: 3 of its 3 groomers are booked, and this service needs 1"))
        // At 11:00 Mimi's bath is over: one groomer is free again.
        try await s.then(
            W.owner, RequestBooking(petId: "tom", service: .nailTrim, slot: t("2026-12-05T11:00:00Z"), bookingId: "b-tom"),
            appends: BookingTests.request("b-tom", .nailTrim, t("2026-12-05T11:00:00Z"), pet: "tom"))
        // A service that would run into a full slot is refused at that slot.
        try await s.then(
            W.owner, RequestBooking(petId: "kiki", service: .bath, slot: t("2026-12-05T10:30:00Z")),
            throws: .rejected("the salon is full at 2026-12-05T10:30:00.000000Z: 3 of its 3 groomers are booked, and this service needs 1"))
        // Cancelling gives the groomers back: a half hour at 10:30 fits, an hour would meet Tom at 11:00.
        _ = try await s.when(W.owner, CancelBooking(bookingId: "b-mimi"))
        try await s.then(
            W.owner, RequestBooking(petId: "kiki", service: .bath, slot: t("2026-12-05T10:30:00Z")),
            throws: .rejected("the salon is full at 2026-12-05T11:00:00.000000Z: 3 of its 3 groomers are booked, and this service needs 1"))
        #expect(try await s.when(W.owner, RequestBooking(petId: "kiki", service: .nailTrim, slot: t("2026-12-05T10:30:00Z"))).count == 3)
    }

    @Test func aBookingRunningPastMidnightHoldsBothDays() async throws {
        let s = try await Self.pets()
        let late = t("2026-12-05T23:00:00Z")
        try await s.then(
            W.owner, RequestBooking(petId: "rex", service: .fullGroom, slot: late, bookingId: "b-late"),
            appends: BookingTests.request("b-late", .fullGroom, late))
        #expect(
            BookingTests.salon("b-late", .fullGroom, late).map(\.0)
                == [stream("salonday-2026-12-05"), stream("salonday-2026-12-06")])
    }

    @Test func adminsSetServicesAndCapacity() async throws {
        let s = try await Self.pets()
        try await s.then(
            W.admin, SetGroomingService(service: .bath, name: " Spa bath ", price: Money(95_000, "BDT"), durationMinutes: 90, groomers: 1),
            appends: [(Streams.salon, GroomingServiceSet(service: .bath, name: "Spa bath", price: Money(95_000, "BDT"), durationMinutes: 90, groomers: 1))])
        try await s.then(
            W.admin, SetGroomingService(service: .bath, name: "Spa bath", price: Money(95_000, "BDT"), durationMinutes: 90, groomers: 1), appends: [])
        // A booking takes the terms in force.
        let booked = try await s.when(W.owner, RequestBooking(petId: "rex", service: .bath, slot: Self.ten, bookingId: "b-spa"))
        let requested = try #require(booked.first?.1 as? BookingRequested)
        #expect(requested.durationMinutes == 90 && requested.price == Money(95_000, "BDT"))
        try await s.then(W.admin, SetSalonCapacity(groomers: 1), throws: .invalid(field: "groomers", reason: "'full-groom' needs 2 groomers at once; withdraw it or change it first"))
        try await s.then(W.admin, SetSalonCapacity(groomers: 4), appends: [(Streams.salon, SalonCapacitySet(groomers: 4))])
        try await s.then(
            W.admin, SetGroomingService(service: .haircut, name: "Cut", price: Money(1, "BDT"), durationMinutes: 45, groomers: 1),
            throws: .invalid(field: "durationMinutes", reason: "must be a multiple of 30 from 30 to 480 (got 45)"))
        try await s.then(
            W.admin, SetGroomingService(service: .haircut, name: "Cut", price: Money(1, "BDT"), durationMinutes: 60, groomers: 5),
            throws: .invalid(field: "groomers", reason: "must be from 1 to the 4 groomers on duty (got 5)"))
        try await s.then(
            W.admin, SetGroomingService(service: .haircut, name: "Cut", price: Money(0, "BDT"), durationMinutes: 60, groomers: 1),
            throws: .invalid(field: "price", reason: "must be above zero, got 0 BDT"))
        // A withdrawn service is not booked.
        _ = try await s.when(
            W.admin, SetGroomingService(service: .haircut, name: "Cut", price: Money(1_000, "BDT"), durationMinutes: 60, groomers: 1, availability: .withdrawn))
        try await s.then(
            W.owner, RequestBooking(petId: "mimi", service: .haircut, slot: Self.ten), throws: .rejected("the salon does not offer 'haircut' now"))
    }

    @Test(arguments: [W.owner, W.staff, W.guest, W.noAccount])
    func onlyAdminsSetTheSalon(_ actor: String) async throws {
        let s = try await Self.pets()
        let error: DomainError =
            switch actor {
            case W.guest: .forbidden("guests cannot salon.set-capacity; sign up or log in first")
            case W.noAccount: .forbidden("user 'u-nobody' has no account")
            case W.staff: .forbidden("only admins set the salon's capacity; staff 'u-sam' is not one")
            default: .forbidden("only admins set the salon's capacity; customer '\(actor)' is not one")
            }
        try await s.then(actor, SetSalonCapacity(groomers: 5), throws: error)
    }

    /// Two requests for the last groomer of a slot, for two pets, at the same moment: exactly one gets it.
    @Test func theLastGroomerOfASlotGoesToOneRequest() async throws {
        let s = try await Self.pets()
        _ = try await s.when(W.owner, RequestBooking(petId: "rex", service: .fullGroom, slot: Self.ten, bookingId: "b-rex"))
        let handler = CommandHandler(store: BarrierStore(s.store, parties: 2))
        async let a = attempt {
            try await handler.handle(RequestBooking(petId: "mimi", service: .bath, slot: Self.ten), as: W.owner, now: DomainScenario.now, commandID: W.commandID(41))
        }
        async let b = attempt {
            try await handler.handle(RequestBooking(petId: "tom", service: .bath, slot: Self.ten), as: W.owner, now: DomainScenario.now, commandID: W.commandID(42))
        }
        let results = await [a, b]
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        for case .failure(let error) in results { #expect((error as? DomainError)?.kind == "rejected") }
        var loader = StreamLoader(store: s.store)
        let day = try await loader.load(SalonDayState.self, Streams.salonDay("2026-12-05"))
        #expect(day.groomers(at: Self.ten) == 3)
    }
}
