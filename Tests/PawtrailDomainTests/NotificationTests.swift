import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Notifications: settings and the outbox hand-off")
struct NotificationTests {
    typealias W = PetWorld

    @Test func anAccountTurnsAKindOfNotificationOffAndOn() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, SetNotifications(kind: .bookingReminders, setting: .off),
            appends: [(Streams.account(W.owner), NotificationSettingChanged(userId: W.owner, kind: .bookingReminders, setting: .off))])
        try await s.then(W.owner, SetNotifications(kind: .bookingReminders, setting: .off), appends: [])
        // Everything is on to begin with: turning one on that is on changes nothing.
        try await s.then(W.owner, SetNotifications(kind: .messages, setting: .on), appends: [])
        try await s.then(
            W.owner, SetNotifications(kind: .bookingReminders, setting: .on),
            appends: [(Streams.account(W.owner), NotificationSettingChanged(userId: W.owner, kind: .bookingReminders, setting: .on))])
        try await s.then(W.guest, SetNotifications(kind: .messages, setting: .off), throws: .forbidden("guests cannot account.set-notifications; sign up or log in first"))
    }

    @Test func eachNotificationIsMarkedSentOnce() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.staff, MarkNotificationsSent(notificationIds: ["reminder.b-1.202612031000", "shipped.o-1", "shipped.o-1"]),
            appends: [
                (stream("notification-reminder.b-1.202612031000"), NotificationSent(notificationId: "reminder.b-1.202612031000", sentBy: W.staff)),
                (stream("notification-shipped.o-1"), NotificationSent(notificationId: "shipped.o-1", sentBy: W.staff)),
            ])
        // Marked already: nothing, whoever asks again; a batch records only the new ones.
        try await s.then(W.admin, MarkNotificationsSent(notificationIds: ["shipped.o-1"]), appends: [])
        try await s.then(
            W.staff, MarkNotificationsSent(notificationIds: ["shipped.o-1", "shipped.o-2"]),
            appends: [(stream("notification-shipped.o-2"), NotificationSent(notificationId: "shipped.o-2", sentBy: W.staff))])
    }

    @Test func onlyStaffMarkAndTheIdsAreChecked() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, MarkNotificationsSent(notificationIds: ["shipped.o-1"]),
            throws: .forbidden("only staff mark notifications sent; customer '\(W.owner)' is not staff"))
        try await s.then(
            W.staff, MarkNotificationsSent(notificationIds: []), throws: .invalid(field: "notificationIds", reason: "name 1 to 500 notifications (got 0)"))
        try await s.then(
            W.staff, MarkNotificationsSent(notificationIds: ["a b"]),
            throws: .invalid(field: "notificationIds", reason: "'a b' may hold only letters, digits and - _ . : @"))
    }

    /// Two workers mark the same notifications at the same moment: each is recorded by exactly one of them.
    @Test func twoWorkersNeverBothTakeANotification() async throws {
        let s = try await W.scenario()
        let handler = CommandHandler(store: BarrierStore(s.store, parties: 2))
        let ids = ["shipped.o-1", "shipped.o-2", "message.c-1.m-1"]
        async let a = attempt { try await handler.handle(MarkNotificationsSent(notificationIds: ids), as: W.staff, now: DomainScenario.now) }
        async let b = attempt { try await handler.handle(MarkNotificationsSent(notificationIds: ids.reversed()), as: W.admin, now: DomainScenario.now) }
        var taken: [String] = []
        for result in await [a, b] {
            for e in try result.get().events { taken.append((e.event as! NotificationSent).notificationId) }
        }
        #expect(taken.sorted() == ids.sorted())
    }
}
