public import EventLog
public import Events

/// `account.set-notifications`: the actor turns a kind of notification on or off for themselves.
public struct SetNotifications: DomainCommand, Hashable {
    public static let name = "account.set-notifications"
    public static let summary = "Turn a kind of notification on or off for yourself (booking reminders, vaccination due, order updates, messages)."

    public var kind: NotificationKind
    public var setting: NotificationSetting

    public init(kind: NotificationKind, setting: NotificationSetting) {
        self.kind = kind
        self.setting = setting
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        kind = try r.choice("kind", NotificationKind.self)
        setting = try r.choice("setting", NotificationSetting.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("kind", kind)
        w.choice("setting", setting)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        decide(context, account: try await loader.load(AccountState.self, Streams.account(context.actor.userID)))
    }

    /// The pure decision; the setting in force appends nothing.
    ///
    /// - Returns: ``NotificationSettingChanged``, or nothing.
    public func decide(_ context: DecisionContext, account: AccountState) -> Decision {
        let off = account.notificationsOff.contains(kind.rawValue)
        guard off != (setting == .off) else { return .nothing }
        let userID = context.actor.userID
        return .append(Streams.account(userID), NotificationSettingChanged(userId: userID, kind: kind, setting: setting))
    }
}

/// `outbox.mark-sent`: a worker (staff) takes due notifications from the outbox to send them. Each is marked once:
/// its stream is written only if new, so of two workers marking one notification exactly one records it, and the
/// other's answer has no event for it. A worker marks a notification first and sends it only when its own answer
/// recorded it.
public struct MarkNotificationsSent: DomainCommand, Hashable {
    public static let name = "outbox.mark-sent"
    public static let summary = "Take due notifications from the outbox to send them; each is recorded once, by one worker (staff)."

    /// The most notifications one command marks.
    public static let maxIDs = 500

    public var notificationIds: [String]

    public init(notificationIds: [String]) {
        self.notificationIds = notificationIds
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        notificationIds = try r.strings("notificationIds")
    }

    public func write(to w: inout some FieldWriter) {
        w.strings("notificationIds", notificationIds)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try context.actor.requireStaff("mark notifications sent")
        try check()
        var sent: [String: Bool] = [:]
        for id in notificationIds {
            sent[id] = try await loader.load(NotificationState.self, Streams.notification(id)).sent
        }
        return try decide(context, sent: sent)
    }

    private func check() throws(DomainError) {
        guard !notificationIds.isEmpty, notificationIds.count <= Self.maxIDs else {
            throw .invalid(field: "notificationIds", reason: "name 1 to \(Self.maxIDs) notifications (got \(notificationIds.count))")
        }
        for id in notificationIds { try Validate.id(id, field: "notificationIds") }
    }

    /// The pure decision: those not marked before are marked now; a notification named twice is marked once.
    ///
    /// - Parameter sent: Whether each notification was marked sent already.
    /// - Returns: `NotificationSent` on each new notification's stream.
    /// - Throws: ``DomainError`` for a non-staff actor, no ids, too many, or a malformed one.
    public func decide(_ context: DecisionContext, sent: [String: Bool]) throws(DomainError) -> Decision {
        try context.actor.requireStaff("mark notifications sent")
        try check()
        var seen: Set<String> = []
        var writes: [StreamWrite] = []
        for id in notificationIds where seen.insert(id).inserted && sent[id] != true {
            writes.append(
                StreamWrite(Streams.notification(id), [NotificationSent(notificationId: id, sentBy: context.actor.userID)], expected: .noStream))
        }
        return writes.isEmpty ? .nothing : Decision(writes)
    }
}

/// Whether a notification was marked sent (stream `notification-<id>`).
public struct NotificationState: Aggregate, Equatable {
    public var sent = false

    public init() {}

    public static let snapshotKind = "notification"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        sent = try r.bool("sent")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("sent", sent)
    }

    public static func evolve(_ state: NotificationState, _ event: any DomainEvent) -> NotificationState {
        var s = state
        if event is NotificationSent { s.sent = true }
        return s
    }
}

extension Streams {
    /// A notification's sending.
    public static func notification(_ id: String) -> StreamID { named("notification", id) }
}
