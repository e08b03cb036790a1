import BenchSupport
import EventLog
import Events
import Foundation
import PawtrailJSON
import Projections
import Testing

@Suite("Customers projection")
struct CustomersProjectionTests {
    /// Ada (admin), Sam (staff), Ann with a pet, an order, two bookings (one cancelled), Bob deleted.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        for (id, name) in [("u-ada", "Ada Rahman"), ("u-sam", "Sam Hossain"), ("u-ann", "Ann Chowdhury"), ("u-bob", "Bob Das")] {
            s.given("account-\(id)", AccountSignedUp(userId: id, name: name, email: "\(id.dropFirst(2))@mail.example", language: .enUS))
        }
        s.given("roles", AdminBootstrapped(userId: "u-ada"))
        s.given("roles", RoleGranted(userId: "u-sam", role: .staff, grantedBy: "u-ada"))
        s.given("account-u-ann", ProfileUpdated(userId: "u-ann", name: nil, phone: "+880 1711 100037", address: "House 7, Road 3, Dhaka"))
        s.given("account-u-ann", LanguageChanged(userId: "u-ann", language: .bnBD))
        s.given("account-u-ann", LoggedIn(userId: "u-ann", sessionId: "s-1"), at: "2026-12-02T08:00:00Z")
        s.given("pet-rex", PetAdded(petId: "rex", ownerId: "u-ann", name: "Rex", species: .dog))
        s.given("pet-tom", PetAdded(petId: "tom", ownerId: "u-ann", name: "Tom", species: .cat))
        s.given("pet-tom", PetRemoved(petId: "tom"))
        s.given("order-o-1", FulfilmentProjectionTests.placed("o-1", "u-ann"), at: "2026-12-02T09:00:00Z")
        s.given("booking-b-1", BookingRequested(bookingId: "b-1", petId: "rex", ownerId: "u-ann", service: .bath, slot: Timestamp(iso8601: "2026-12-05T10:00:00Z")!))
        s.given("booking-b-2", BookingRequested(bookingId: "b-2", petId: "rex", ownerId: "u-ann", service: .haircut, slot: Timestamp(iso8601: "2026-12-06T10:00:00Z")!))
        s.given("booking-b-2", BookingCancelled(bookingId: "b-2", cancelledBy: "u-ann", reason: nil))
        s.given("account-u-bob", AccountDeleted(userId: "u-bob", reauthenticatedAt: Timestamp(iso8601: "2026-12-02T10:00:00Z")!))
        return s
    }

    @Test func theDirectoryByNameWithRolesAndCounts() throws {
        let out = try Self.scenario().view(CustomersView.self)
        #expect(out.header == ["USER", "NAME", "EMAIL", "PHONE", "ROLE", "PETS", "ORDERS", "OPEN BOOKINGS"])
        #expect(
            out.rows == [
                ["u-ada", "Ada Rahman", "ada@mail.example", "", "admin", "0", "0", "0"],
                ["u-ann", "Ann Chowdhury", "ann@mail.example", "+880 1711 100037", "customer", "1", "1", "1"],
                ["u-sam", "Sam Hossain", "sam@mail.example", "", "staff", "0", "0", "0"],
            ])
        #expect(try Self.scenario().view(CustomersView.self, ["include-deleted": ""]).rows.map { $0[1] }.contains("Bob Das (deleted)"))
    }

    @Test func searchMatchesWordPrefixesOfNameEmailPhoneAndID() throws {
        func ids(_ q: String) throws -> [String] { try Self.scenario().view(CustomersView.self, ["search": q]).rows.map { $0[0] } }
        #expect(try ids("ann") == ["u-ann"])
        #expect(try ids("CHOW") == ["u-ann"])
        #expect(try ids("8801711") == ["u-ann"], "the phone's digits")
        #expect(try ids("mail example") == ["u-ada", "u-ann", "u-sam"])
        #expect(try ids("bob") == [], "deleted accounts are left out")
        #expect(try ids("hoss sam") == ["u-sam"])
    }

    @Test func oneAccountsProfileAndWhatTheShopDoesWithThem() throws {
        let out = try Self.scenario().view(CustomerView.self, ["id": "u-ann"])
        #expect(out.rows.contains(["Language", "bn-BD"]) && out.rows.contains(["Address", "House 7, Road 3, Dhaka"]))
        #expect(out.rows.contains(["Last log-in", "2026-12-02 08:00"]) && out.rows.contains(["Orders", "1, the last 2026-12-02 09:00"]))
        #expect(out.rows.contains(["Pets", "1"]) && out.rows.contains(["Open bookings", "1"]))
        #expect(out.json["role"] == .string("customer") && out.json["openBookings"] == .int(1))
        #expect(throws: ViewError.notFound("no account 'u-zed'")) { try Self.scenario().view(CustomerView.self, ["id": "u-zed"]) }
    }

    @Test func unreadMessagesLastActivityAndNotificationSettings() throws {
        var s = Self.scenario()
        s.given("conversation-c-1", ConversationStarted(conversationId: "c-1", subject: .booking, subjectId: "b-1", ownerId: "u-ann", startedBy: "u-ann"))
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-1", senderId: "u-ann", text: "Hello"))
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-2", senderId: "u-sam", text: "Hi"))
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-3", senderId: "u-sam", text: "See you"))
        s.given("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-2", participantId: "u-ann"), actor: "u-ann")
        s.given("account-u-ann", NotificationSettingChanged(userId: "u-ann", kind: .orderUpdates, setting: .off), at: "2026-12-03T07:30:00Z", actor: "u-ann")
        s.given("booking-b-1", BookingNoShow(bookingId: "b-1", recordedBy: "u-sam"), actor: "u-sam")
        let out = try s.view(CustomerView.self, ["id": "u-ann"])
        // Her own message and the one she read are not unread; the shop's second is.
        #expect(out.rows.contains(["Unread messages", "1"]), "\(out.rows)")
        #expect(out.rows.contains(["Last active", "2026-12-03 07:30"]), "\(out.rows)")
        #expect(out.rows.contains(["Notifications off", "order-updates"]))
        // A no-show closes the booking.
        #expect(out.rows.contains(["Open bookings", "0"]))
        #expect(out.json["unreadMessages"] == .int(1) && out.json["notificationsOff"]?.serialized == #"["order-updates"]"#)
    }

    @Test func rolesFollowGrantsAndRevokes() throws {
        var s = Self.scenario()
        s.given("roles", RoleGranted(userId: "u-sam", role: .admin, grantedBy: "u-ada"))
        s.given("roles", RoleRevoked(userId: "u-sam", role: .admin, revokedBy: "u-ada"))
        #expect(try s.view(CustomerView.self, ["id": "u-sam"]).json["role"] == .string("staff"), "staff still")
        s.given("roles", RoleRevoked(userId: "u-sam", role: .staff, revokedBy: "u-ada"))
        #expect(try s.view(CustomerView.self, ["id": "u-sam"]).json["role"] == .string("customer"))
    }
}

/// The directory's pages come from its name index: they equal the accounts sorted by name, page by page, through
/// sign-ups, renames (to names before, after and equal to others) and deletions.
@Suite("Customer directory index")
struct CustomerDirectoryIndexTests {
    @Test(arguments: [1, 7, 42])
    func `every page of the index equals the sorted accounts`(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let names = ["Ann", "ann", "Anna", "Bob Das", "bob", "Chloe", "Émile", "রিনা আক্তার", "দেব", "Zed", "zoë", "Ann Chowdhury", ""]
        var s = ProjectionScenario()
        var living: [String: String] = [:]
        var minute = 0
        func at() -> String {
            minute += 1
            return "2026-12-01T\(String(format: "%02d", 8 + minute / 60)):\(String(format: "%02d", minute % 60)):00Z"
        }
        for n in 0..<120 {
            let id = "u-\(n)"
            let name = names[Int(rng.next() % UInt64(names.count))]
            s.given("account-\(id)", AccountSignedUp(userId: id, name: name, email: "\(id)@mail.example", language: .enUS), at: at())
            living[id] = name
            if rng.next() % 4 == 0, let victim = living.keys.sorted().randomElement(using: &rng) {
                let renamed = names[Int(rng.next() % UInt64(names.count))]
                s.given("account-\(victim)", ProfileUpdated(userId: victim, name: renamed), at: at())
                living[victim] = renamed
            }
            if rng.next() % 9 == 0, let victim = living.keys.sorted().randomElement(using: &rng) {
                s.given("account-\(victim)", AccountDeleted(userId: victim, reauthenticatedAt: Timestamp(microsecondsSinceEpoch: 0)), at: at())
                living[victim] = nil
            }
        }
        let expected = living.sorted { ($0.value.lowercased(), $0.key) < ($1.value.lowercased(), $1.key) }.map(\.key)
        for size in [1, 7, 50] {
            for page in 1...(expected.count / size + 2) {
                let out = try s.view(CustomersView.self, ["page": String(page), "page-size": String(size)])
                let from = min(expected.count, (page - 1) * size)
                #expect(out.rows.map { $0[0] } == Array(expected[from..<min(expected.count, from + size)]), "page \(page) of \(size)")
                #expect(out.json["total"] == .int(Int64(expected.count)))
            }
        }
    }
}
