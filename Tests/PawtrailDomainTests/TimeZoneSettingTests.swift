import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Settings: the business's time zone")
struct TimeZoneSettingTests {
    @Test func anAdminSetsTheZoneOnceAndUTCIsTheDefault() async throws {
        let s = try await Shop.floor()
        #expect(try await ShopSettingsState.current(in: s.store).timeZone == "UTC")
        try await s.then(Shop.admin, SetTimeZone(timeZone: "UTC"), appends: [])
        try await s.then(
            Shop.admin, SetTimeZone(timeZone: "Asia/Dhaka"),
            appends: [(Streams.settings, BusinessTimeZoneSet(timeZone: "Asia/Dhaka", setBy: Shop.admin))])
        #expect(try await ShopSettingsState.current(in: s.store).timeZone == "Asia/Dhaka")
        try await s.then(Shop.admin, SetTimeZone(timeZone: "Asia/Dhaka"), appends: [])
    }

    @Test(arguments: ["Mars/Olympus", "", "../../etc/passwd", "GMT+6"])
    func aNameOutsideTheTzdataIsRefused(_ name: String) async throws {
        try await Shop.floor().then(
            Shop.admin, SetTimeZone(timeZone: name),
            throws: .invalid(field: "timeZone", reason: "'\(name)' is not a time zone of this system's tzdata (an IANA name such as Asia/Dhaka)"))
    }

    @Test(arguments: Shop.notAdmin("shop.set-time-zone", "set the time zone"))
    func onlyAdminsSetIt(_ actor: String, _ error: DomainError) async throws {
        try await Shop.floor().then(actor, SetTimeZone(timeZone: "Asia/Dhaka"), throws: error)
    }
}

@Suite("Refusals in the actor's language")
struct RefusalLanguageTests {
    @Test func `the refusals customers meet read whole in Bangla; English stays the description`() {
        let cases: [(DomainError, String)] = [
            (.notFound("pet 'rex' does not exist"), "'rex' নামে কোনো পোষা প্রাণী নেই"),
            (.invalidState("booking 'b-1' is cancelled; only a requested or confirmed booking can be rescheduled"), "বুকিং 'b-1' এখন বাতিল; এটি এখন করা যাবে না"),
            (.forbidden("pet 'rex' belongs to another owner; customer 'u-bob' may not act on it"), "পোষা প্রাণী 'rex' অন্য মালিকের; আপনি এটি নিয়ে কিছু করতে পারেন না"),
            (.rejected("pet 'rex' already has booking 'b-1' from 2026-12-03T10:00:00Z to 2026-12-03T11:00:00Z"), "পোষা প্রাণী 'rex'-এর 2026-12-03T10:00:00Z থেকে 2026-12-03T11:00:00Z পর্যন্ত বুকিং 'b-1' আগে থেকেই আছে"),
            (.stockShort([StockShortage(productID: "litter", available: 1, requested: 3)]), "যথেষ্ট মজুত নেই: litter (আছে 1, চাওয়া হয়েছে 3)"),
            (.forbidden("only staff confirm bookings; customer 'u-ann' is not staff"), "এটি কেবল দোকানের স্টাফ করতে পারেন"),
            (.rejected("something no template knows"), "গ্রহণ করা যায়নি — something no template knows"),
        ]
        for (error, bangla) in cases {
            #expect(error.sentence(in: .bnBD) == bangla)
            #expect(error.sentence(in: .enUS) == error.description)
        }
    }
}
