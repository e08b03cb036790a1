// The shop's settings (stream `settings`): how the store is run, set by admins and kept in the log like everything
// else, so they hold on every backend and read as of any moment.

/// An admin set who may read the store's views: with `requireViewer`, every read must name its reader (`--as`).
public struct ReadPolicySet: DomainEvent {
    public static let eventType = "ReadPolicySet"
    public static let area = "settings"
    public static let summary = "An admin set whether every read of a view must name its reader (--as)."
    public var requireViewer: Bool
    public var setBy: String

    public init(requireViewer: Bool, setBy: String) {
        self.requireViewer = requireViewer
        self.setBy = setBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requireViewer = try r.bool("requireViewer")
        setBy = try r.string("setBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("requireViewer", requireViewer)
        w.string("setBy", setBy)
    }
}

/// An admin set the business's time zone: the days of the dashboard, the agenda and the till are its days from then on.
public struct BusinessTimeZoneSet: DomainEvent {
    public static let eventType = "BusinessTimeZoneSet"
    public static let area = "settings"
    public static let summary = "An admin set the business's time zone (an IANA name), whose days the dashboard, agenda and till use."
    public var timeZone: String
    public var setBy: String

    public init(timeZone: String, setBy: String) {
        self.timeZone = timeZone
        self.setBy = setBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        timeZone = try r.string("timeZone")
        setBy = try r.string("setBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("timeZone", timeZone)
        w.string("setBy", setBy)
    }
}

/// The settings area's event types, in catalog order.
public enum SettingsEvents {
    public static let all: [any DomainEvent.Type] = [ReadPolicySet.self, BusinessTimeZoneSet.self]
}
