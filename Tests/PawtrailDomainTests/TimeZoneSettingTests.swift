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
