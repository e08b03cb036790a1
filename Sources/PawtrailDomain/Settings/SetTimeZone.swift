public import Events

/// `shop.set-time-zone`: an admin sets the business's time zone, an IANA name from the system's tzdata. The days of
/// the dashboard, the agenda and the till's receipts are its days for every event recorded after it; days already
/// reported keep the bounds they had, as a closed day's books do.
public struct SetTimeZone: DomainCommand, Hashable {
    public static let name = "shop.set-time-zone"
    public static let summary = "Set the business's time zone, an IANA name such as Asia/Dhaka (admins only; UTC until set)."

    /// The IANA name.
    public var timeZone: String

    public init(timeZone: String) {
        self.timeZone = timeZone
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        timeZone = try r.string("timeZone")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("timeZone", timeZone)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try decide(context, settings: try await loader.load(ShopSettingsState.self, Streams.settings))
    }

    /// The decision: the zone as asked; the zone already in force appends nothing.
    ///
    /// - Parameters:
    ///   - context: The actor.
    ///   - settings: The shop's settings.
    /// - Returns: ``BusinessTimeZoneSet``, or nothing.
    /// - Throws: ``DomainError/forbidden(_:)`` for an actor who is not an admin; ``DomainError/invalid(field:reason:)``
    ///   for a name this system's tzdata does not know.
    public func decide(_ context: DecisionContext, settings: ShopSettingsState) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("set the time zone")
        guard let zone = BusinessTimeZone(timeZone) else {
            throw .invalid(field: "timeZone", reason: "'\(timeZone)' is not a time zone of this system's tzdata (an IANA name such as Asia/Dhaka)")
        }
        guard settings.timeZone != zone.identifier else { return .nothing }
        return .append(Streams.settings, BusinessTimeZoneSet(timeZone: zone.identifier, setBy: context.actor.userID))
    }
}
