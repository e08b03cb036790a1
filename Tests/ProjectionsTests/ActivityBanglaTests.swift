import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

/// The activity history of an account that chose Bangla is worded in Bangla; kinds and field names stay as they are.
@Suite("Activity in the account's language")
struct ActivityBanglaTests {
    static func t(_ hms: String) -> String { "2026-12-01T\(hms)Z" }

    static func rina() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given(
            "account-u-rina", AccountSignedUp(userId: "u-rina", name: "Rina", email: "rina@mail.example", language: .bnBD),
            at: t("08:00:00"))
        s.given("pet-mishti", PetAdded(petId: "mishti", ownerId: "u-rina", name: "Mishti", species: .cat), at: t("08:30:00"))
        s.given(
            "booking-b-1",
            BookingRequested(bookingId: "b-1", petId: "mishti", ownerId: "u-rina", service: .bath, slot: Timestamp(iso8601: "2026-12-03T10:00:00Z")!),
            at: t("09:00:00"))
        s.given("account-u-rina", ProfileUpdated(userId: "u-rina", phone: "+880 1711 000001"), at: t("09:30:00"))
        return s
    }

    @Test func `a Bangla account reads its history in Bangla, with the same kinds`() throws {
        let out = try Self.rina().view(ActivityView.self, ["user": "u-rina"])
        #expect(
            out.rows.map { $0[1] } == [
                "প্রোফাইল হালনাগাদ করেছেন (ফোন)",
                "Mishti-এর জন্য 3 ডিসে 10:00-এ গোসল বুক করেছেন",
                "পোষা প্রাণী Mishti যোগ করেছেন",
                "সাইন আপ করেছেন",
            ])
        guard case .array(let entries) = out.json else { Issue.record("not an array"); return }
        #expect(entries.map { $0["kind"] } == ["profile-updated", "booking-requested", "pet-added", "signed-up"].map { JSONValue.string($0) })
        #expect(entries.first?["fields"] == .array([.string("phone")]))
    }

    @Test func `switching to English words the same history in English`() throws {
        var s = Self.rina()
        s.given("account-u-rina", LanguageChanged(userId: "u-rina", language: .enUS), at: Self.t("10:00:00"))
        let texts = try s.view(ActivityView.self, ["user": "u-rina"]).rows.map { $0[1] }
        #expect(texts.first == "Changed language to English")
        #expect(texts.last == "Signed up")
        #expect(texts.contains("Booked a bath for Mishti on 3 Dec 10:00"))
    }

    @Test(arguments: ActivityEntry.Kind.allCases)
    func `every kind has Bangla words`(_ kind: ActivityEntry.Kind) {
        let e = ActivityEntry(kind, at: Timestamp(microsecondsSinceEpoch: 0), position: 0, subject: "x", name: "Mishti", detail: "bath", count: 2, by: "u-sam")
        let text = ActivityText.describeInBangla(e, user: "u-rina")
        #expect(!text.isEmpty && text != ActivityText.describe(e, user: "u-rina"))
        #expect(text.unicodeScalars.contains { (0x0980...0x09FF).contains($0.value) }, "\(text)")
    }
}
