public import EventLog
public import Events

/// The shop's settings as decisions and reads see them (stream `settings`).
public struct ShopSettingsState: Aggregate, Hashable {
    /// Whether every read of a view must name its reader (`--as`); off until an admin turns it on.
    public var requireViewer = false
    /// The business's time zone (IANA name); UTC until an admin sets one.
    public var timeZone = "UTC"

    public init() {}

    public static let snapshotKind = "settings"
    public static let schemaVersion = 2

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requireViewer = try r.bool("requireViewer")
        timeZone = try r.string("timeZone")
    }

    public func write(to w: inout some FieldWriter) {
        w.bool("requireViewer", requireViewer)
        w.string("timeZone", timeZone)
    }

    public static func evolve(_ state: ShopSettingsState, _ event: any DomainEvent) -> ShopSettingsState {
        var s = state
        switch event {
        case let e as ReadPolicySet: s.requireViewer = e.requireViewer
        case let e as BusinessTimeZoneSet: s.timeZone = e.timeZone
        default: break
        }
        return s
    }

    /// The settings of a store, read from its `settings` stream.
    ///
    /// - Parameter store: The store.
    /// - Returns: The settings (the defaults for a store that never set any).
    /// - Throws: The store's errors.
    public static func current(in store: any EventStore) async throws -> ShopSettingsState {
        var loader = StreamLoader(store: store)
        return try await loader.load(ShopSettingsState.self, Streams.settings)
    }
}
