import EventLog
import Events
import PawtrailJSON
import Projections
import Testing

@Suite("Conversations projection")
struct ConversationsProjectionTests {
    typealias Unread = ConversationsProjection.Unread

    static let longText = "Dr Rahman can see Rex tomorrow at 9.\nPlease bring his vaccination card and arrive ten minutes early."
    static let longPreview = "Dr Rahman can see Rex tomorrow at 9. Please bring…"

    /// An admin and two staff; Alice asks about her booking (two messages) and staff open a conversation about her
    /// vet request; Bob opens one about his order and says nothing. One event a minute from 09:00.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("roles", AdminBootstrapped(userId: "u-admin"))
        s.given("roles", RoleGranted(userId: "u-sam", role: .staff, grantedBy: "u-admin"))
        s.given("roles", RoleGranted(userId: "u-kim", role: .staff, grantedBy: "u-admin"))
        s.given("conversation-c-1", ConversationStarted(conversationId: "c-1", subject: .booking, subjectId: "b-1", ownerId: "u-alice", startedBy: "u-alice"))
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-1", senderId: "u-alice", text: "Can we move Rex's bath to Friday?"))
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-2", senderId: "u-alice", text: "Any time after 10 works."))
        s.given("conversation-c-2", ConversationStarted(conversationId: "c-2", subject: .vetRequest, subjectId: "v-1", ownerId: "u-alice", startedBy: "u-sam"))
        s.given("conversation-c-2", MessageSent(conversationId: "c-2", messageId: "m-3", senderId: "u-sam", text: longText))
        s.given("conversation-c-3", ConversationStarted(conversationId: "c-3", subject: .order, subjectId: "o-1", ownerId: "u-bob", startedBy: "u-bob"))
        return s
    }

    /// Receipts: a staff member reads Alice's first message, a colleague reads it too, Alice reads the vet answer,
    /// Kim answers, Sam reads Kim's answer (the same side), Kim reads Alice's second message.
    static func withReceipts() -> ProjectionScenario {
        var s = scenario()
        s.given("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-1", participantId: "u-kim"))
        s.given("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-1", participantId: "u-sam"))
        s.given("conversation-c-2", MessageRead(conversationId: "c-2", messageId: "m-3", participantId: "u-alice"))
        s.given("conversation-c-1", MessageSent(conversationId: "c-1", messageId: "m-4", senderId: "u-kim", text: "Friday 11:00 it is."))
        s.given("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-4", participantId: "u-sam"))
        s.given("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-2", participantId: "u-kim"))
        return s
    }

    static func unread(_ out: ViewOutput) -> [String: String] {
        Dictionary(uniqueKeysWithValues: out.rows.map { ($0[0], $0[5]) })
    }

    @Test func theOwnerSeesTheirConversationsLatestFirstWithStaffMessagesUnread() throws {
        let out = try Self.scenario().view(ConversationsView.self, ["user": "u-alice"])
        #expect(out.title == "Conversations of u-alice")
        #expect(out.header == ["CONVERSATION", "SUBJECT", "WITH", "LAST MESSAGE", "PREVIEW", "UNREAD"])
        #expect(
            out.rows == [
                ["c-2", "vet-request v-1", "staff", "2026-12-01 09:07", "u-sam: \(Self.longPreview)", "1"],
                ["c-1", "booking b-1", "staff", "2026-12-01 09:05", "you: Any time after 10 works.", "0"],
            ])
        #expect(out.footer == ["2 conversations, 1 unread message"])
        #expect(
            out.json.serialized
                == #"{"userId":"u-alice","staff":false,"unread":1,"conversations":["#
                + #"{"conversationId":"c-2","subject":"vet-request","subjectId":"v-1","ownerId":"u-alice","side":"owner","startedAt":"2026-12-01T09:06:00Z","messages":1,"lastMessageAt":"2026-12-01T09:07:00Z","lastSenderId":"u-sam","preview":"Dr Rahman can see Rex tomorrow at 9. Please bring…","unread":1},"#
                + #"{"conversationId":"c-1","subject":"booking","subjectId":"b-1","ownerId":"u-alice","side":"owner","startedAt":"2026-12-01T09:03:00Z","messages":2,"lastMessageAt":"2026-12-01T09:05:00Z","lastSenderId":"u-alice","preview":"Any time after 10 works.","unread":0}]}"#)
    }

    @Test func staffSeeTheShopsWholeInboxWithTheOwnersMessagesUnread() throws {
        let s = Self.scenario()
        let out = try s.view(ConversationsView.self, ["user": "u-sam"])
        #expect(out.title == "Conversations of u-sam (staff: the shop's inbox)")
        #expect(
            out.rows == [
                ["c-3", "order o-1", "u-bob", "", "", "0"],
                ["c-2", "vet-request v-1", "u-alice", "2026-12-01 09:07", "you: \(Self.longPreview)", "0"],
                ["c-1", "booking b-1", "u-alice", "2026-12-01 09:05", "u-alice: Any time after 10 works.", "2"],
            ])
        #expect(out.footer == ["3 conversations, 2 unread messages"])
        #expect(try s.view(ConversationsView.self, ["user": "u-admin"]).rows.map { $0[0] } == ["c-3", "c-2", "c-1"], "admins are staff")
        let bob = try s.view(ConversationsView.self, ["user": "u-bob"])
        #expect(bob.rows == [["c-3", "order o-1", "staff", "", "", "0"]])
        #expect(bob.json["conversations"] == .array([
            .object([
                "conversationId": .string("c-3"), "subject": .string("order"), "subjectId": .string("o-1"), "ownerId": .string("u-bob"),
                "side": .string("owner"), "startedAt": .string("2026-12-01T09:08:00Z"), "messages": .int(0), "lastMessageAt": .null,
                "lastSenderId": .null, "preview": .null, "unread": .int(0),
            ])
        ]))
        let carol = try s.view(ConversationsView.self, ["user": "u-carol"])
        #expect(carol.rows.isEmpty && carol.footer == ["0 conversations, 0 unread messages"], "a customer sees only their own")
    }

    @Test func oneStaffReceiptReadsAMessageForAllStaffAndReceiptsFromTheSameSideChangeNothing() throws {
        var s = Self.scenario()
        s.given("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-1", participantId: "u-kim"))
        #expect(Self.unread(try s.view(ConversationsView.self, ["user": "u-sam"]))["c-1"] == "1", "Kim read it for the shop")
        #expect(Self.unread(try s.view(ConversationsView.self, ["user": "u-kim"]))["c-1"] == "1")

        s = Self.withReceipts()
        let state = try s.state(ConversationsProjection.self)
        let c1 = try #require(state.conversations["c-1"])
        #expect(c1.unread == ["m-4": Unread(fromOwner: false)], "Sam reading Kim's answer is no receipt from Alice")
        #expect(c1.messages == 3 && c1.unreadByOwner == 1 && c1.unreadByStaff == 0)
        #expect(state.conversations["c-2"]?.unread == [:])
        #expect(Self.unread(try s.view(ConversationsView.self, ["user": "u-alice"])) == ["c-1": "1", "c-2": "0"])
        #expect(Self.unread(try s.view(ConversationsView.self, ["user": "u-sam"])) == ["c-1": "0", "c-2": "0", "c-3": "0"])
        let alice = try s.view(ConversationsView.self, ["user": "u-alice"])
        #expect(alice.rows.first == ["c-1", "booking b-1", "staff", "2026-12-01 09:12", "u-kim: Friday 11:00 it is.", "1"], "the latest message moves it up")
        #expect(alice.footer == ["2 conversations, 1 unread message"])

        s.given("conversation-c-1", MessageRead(conversationId: "c-1", messageId: "m-4", participantId: "u-alice"))
        #expect(Self.unread(try s.view(ConversationsView.self, ["user": "u-alice"])) == ["c-1": "0", "c-2": "0"])
        #expect(try s.state(ConversationsProjection.self).conversations["c-1"]?.unread == [:], "read messages leave the state")
    }

    @Test func staffWhoseRoleIsRevokedNoLongerSeeTheInbox() throws {
        var s = Self.withReceipts()
        s.given("roles", RoleRevoked(userId: "u-kim", role: .staff, revokedBy: "u-admin"))
        let state = try s.state(ConversationsProjection.self)
        #expect(state.roles.entries == [
            "u-admin": ConversationsProjection.Roles(admin: true), "u-sam": ConversationsProjection.Roles(staff: true),
        ])
        let kim = try s.view(ConversationsView.self, ["user": "u-kim"])
        #expect(kim.title == "Conversations of u-kim" && kim.rows.isEmpty)
        #expect(kim.json["staff"] == .bool(false))
    }

    @Test func aStaffMembersOwnConversationCountsAsTheCustomers() throws {
        var s = Self.scenario()
        s.given("conversation-c-4", ConversationStarted(conversationId: "c-4", subject: .booking, subjectId: "b-9", ownerId: "u-admin", startedBy: "u-admin"))
        s.given("conversation-c-4", MessageSent(conversationId: "c-4", messageId: "m-5", senderId: "u-sam", text: "Booked."))
        let admin = try s.view(ConversationsView.self, ["user": "u-admin"])
        #expect(admin.rows.first == ["c-4", "booking b-9", "staff", "2026-12-01 09:10", "u-sam: Booked.", "1"])
        #expect(admin.footer == ["4 conversations, 3 unread messages"], "1 as the customer of c-4, 2 for the shop in c-1")
        #expect(Self.unread(try s.view(ConversationsView.self, ["user": "u-sam"]))["c-4"] == "0")
    }

    @Test func aViewOfAnEarlierMomentUsesTheRolesOfThen() throws {
        var s = ProjectionScenario()
        for e in Self.scenario().events.prefix(1) + Self.scenario().events.dropFirst(3) {
            s.given(e.stream.description, e.event, at: e.occurredAt.iso8601)
        }
        #expect(try s.view(ConversationsView.self, ["user": "u-sam"]).rows.isEmpty, "Sam was not staff yet")
    }

    @Test func aMessageInAConversationTheLogNeverStartedStopsTheFold() throws {
        var s = ProjectionScenario()
        s.given("conversation-c-9", MessageSent(conversationId: "c-9", messageId: "m-1", senderId: "u-alice", text: "Hello"))
        #expect(throws: ProjectionError("no conversation 'c-9' was started")) { try ConversationsProjection.folded(s.events) }
        #expect(throws: ViewError.missing("user")) { try Self.scenario().view(ConversationsView.self) }
        #expect(ConversationsProjection.eventTypes.contains(MessageDelivered.eventType), "the thread shows deliveries")
    }

    @Test func deliveriesChangeNoUnreadCount() throws {
        var s = Self.scenario()
        let before = try s.view(ConversationsView.self, ["user": "u-sam"]).json
        s.given("conversation-c-1", MessageDelivered(conversationId: "c-1", messageId: "m-1", participantId: "u-kim"))
        #expect(try s.view(ConversationsView.self, ["user": "u-sam"]).json == before)
    }

    // MARK: - One thread

    @Test func aThreadListsEveryMessageOldestFirstWithTheOtherSidesReceipts() throws {
        var s = Self.withReceipts()
        s.given("conversation-c-1", MessageDelivered(conversationId: "c-1", messageId: "m-2", participantId: "u-alice"), at: "2026-12-01T10:00:00Z")  // her own side: no delivery
        s.given("conversation-c-1", MessageDelivered(conversationId: "c-1", messageId: "m-4", participantId: "u-alice"), at: "2026-12-01T10:01:00Z")
        let out = try s.view(ConversationView.self, ["id": "c-1"])
        #expect(out.title == "Conversation c-1 about booking b-1 with u-alice")
        #expect(out.header == ["#", "SENT", "FROM", "MESSAGE", "RECEIPT"])
        #expect(
            out.rows == [
                ["1", "2026-12-01 09:04", "u-alice (owner)", "Can we move Rex's bath to Friday?", "read 2026-12-01 09:09 by u-kim"],
                ["2", "2026-12-01 09:05", "u-alice (owner)", "Any time after 10 works.", "read 2026-12-01 09:14 by u-kim"],
                ["3", "2026-12-01 09:12", "u-kim", "Friday 11:00 it is.", "delivered 2026-12-01 10:01"],
            ])
        #expect(out.footer == ["3 messages", "unread by the owner: 1, by staff: 0"])
        guard case .array(let thread)? = out.json["thread"] else { Issue.record("no thread"); return }
        #expect(thread[2]["readAt"] == .null && thread[2]["deliveredAt"] == .string("2026-12-01T10:01:00Z"))
        #expect(thread[0]["fromOwner"] == .bool(true) && thread[2]["fromOwner"] == .bool(false))
        // The newest two only.
        let last = try s.view(ConversationView.self, ["id": "c-1", "last": "2"])
        #expect(last.rows.map { $0[0] } == ["2", "3"] && last.footer[0] == "3 messages, the newest 2 shown")
        #expect(throws: ViewError.notFound("no conversation 'c-9'")) { try s.view(ConversationView.self, ["id": "c-9"]) }
        #expect(throws: ViewError.invalid("last", "'0' is not an integer between 1 and 1000000")) {
            try s.view(ConversationView.self, ["id": "c-1", "last": "0"])
        }
    }

    @Test func aReadReceiptMarksAMessageDeliveredToo() throws {
        var s = Self.scenario()
        s.given("conversation-c-2", MessageRead(conversationId: "c-2", messageId: "m-3", participantId: "u-alice"), at: "2026-12-01T11:00:00Z")
        let m = try #require(try s.state(ConversationsProjection.self).thread("c-2").first?.message)
        #expect(m.readAt == Timestamp(iso8601: "2026-12-01T11:00:00Z") && m.deliveredAt == m.readAt && m.readBy == "u-alice")
    }
}
