import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

/// The business's time zone: its days in the dashboard, the agenda and the till, from the moment it is set.
@Suite("Business time zone")
struct BusinessTimeZoneTests {
    static func t(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    @Test func `offsets come from the system's tzdata, daylight saving included`() throws {
        let dhaka = try #require(BusinessTimeZone("Asia/Dhaka"))
        #expect(dhaka.offsetSeconds(at: Self.t("2026-12-07T20:00:00Z")) == 6 * 3600)
        #expect(dhaka.day(Self.t("2026-12-07T17:59:59Z")) == "2026-12-07")
        #expect(dhaka.day(Self.t("2026-12-07T18:00:00Z")) == "2026-12-08")
        #expect(dhaka.clock(Self.t("2026-12-07T18:30:00Z")) == "00:30")
        let london = try #require(BusinessTimeZone("Europe/London"))
        #expect(london.offsetSeconds(at: Self.t("2026-07-01T12:00:00Z")) == 3600)
        #expect(london.offsetSeconds(at: Self.t("2026-01-01T12:00:00Z")) == 0)
        #expect(london.dayNumber(Self.t("2026-06-30T23:30:00Z")) == BusinessTimeZone.utc.dayNumber(Self.t("2026-07-01T12:00:00Z")))
        let newYork = try #require(BusinessTimeZone("America/New_York"))
        #expect(newYork.day(Self.t("2026-12-08T03:00:00Z")) == "2026-12-07")
        #expect(newYork.day(Self.t("1969-12-31T12:00:00Z")) == "1969-12-31")
    }

    @Test(arguments: ["Mars/Olympus", "", "../../etc/passwd", "Asia/", "/etc/localtime", "GMT+6", "asia/dhaka"])
    func `a name the tzdata does not hold is no zone`(_ name: String) {
        #expect(BusinessTimeZone(name) == nil)
        #expect(BusinessTimeZone(stored: name) == .utc)
    }

    static func sale(_ id: String) -> InStoreSaleCompleted {
        let line = PurchaseLine(
            productId: "bowl", name: "Bowl", category: "cat", imageRef: "img", unitPrice: Money(35_000, "BDT"), quantity: 1,
            lineTotal: Money(35_000, "BDT"))
        return InStoreSaleCompleted(saleId: id, soldBy: "u-sam", lines: [line], total: Money(35_000, "BDT"), payment: .cash)
    }

    /// A sale at 20:00 UTC on 7 December, before and after the shop moved to Dhaka (UTC+6), where it is 8 December.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("sale-s-1", sale("s-1"), at: "2026-12-06T20:00:00Z")
        s.given("settings", BusinessTimeZoneSet(timeZone: "Asia/Dhaka", setBy: "u-ada"), at: "2026-12-07T10:00:00Z")
        s.given("sale-s-2", sale("s-2"), at: "2026-12-07T20:00:00Z")
        return s
    }

    @Test func `the till's days are the business's days from the moment its zone is set`() throws {
        let s = Self.scenario()
        #expect(try s.view(SalesView.self, ["day": "2026-12-06"]).rows.map { $0[0] + " " + $0[1] } == ["20:00 s-1"])
        #expect(try s.view(SalesView.self, ["day": "2026-12-07"]).rows.isEmpty)
        #expect(try s.view(SalesView.self, ["day": "2026-12-08"]).rows.map { $0[0] + " " + $0[1] } == ["02:00 s-2"])
    }

    @Test func `the dashboard's days are the business's days and say which zone`() throws {
        let out = try Self.scenario().view(DashboardView.self, ["days": "3"])
        let revenue = out.rows.filter { $0[0] == "revenue" }.map { [$0[1], $0[2]] }
        #expect(revenue == [["2026-12-06", "350.00 BDT"], ["2026-12-07", "0.00 BDT"], ["2026-12-08", "350.00 BDT"]])
        #expect(out.json["days"]?["timeZone"] == .string("Asia/Dhaka"))
    }

    @Test func `the agenda lists a booking on its business day, at its local time`() throws {
        var s = Self.scenario()
        s.given(
            "booking-b-1", BookingRequested(bookingId: "b-1", petId: "rex", ownerId: "u-ann", service: .bath, slot: Self.t("2026-12-09T21:00:00Z")),
            at: "2026-12-07T11:00:00Z")
        let out = try s.view(AgendaView.self, ["day": "2026-12-10"])
        #expect(out.rows.map { [$0[1], $0[2]] } == [["03:00", "b-1"]])
        #expect(out.json["timeZone"] == .string("Asia/Dhaka"))
        #expect(try s.view(AgendaView.self, ["day": "2026-12-09"]).rows.isEmpty)
    }
}
