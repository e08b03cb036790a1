public import Events

/// The business's time zone as a read model keeps it: one row under the key `timeZone`, every version kept, so a
/// view as of a past moment uses the zone in force then.
extension KeyedTable where Record == TextRow {
    static var timeZoneKey: String { "timeZone" }

    /// The zone in force; UTC until an admin sets one.
    public var businessTimeZone: BusinessTimeZone {
        self[Self.timeZoneKey].map { BusinessTimeZone(stored: $0.text) } ?? .utc
    }

    /// Keeps the zone an admin set.
    ///
    /// - Parameter event: The setting.
    public mutating func keep(_ event: BusinessTimeZoneSet) {
        self[Self.timeZoneKey] = TextRow(event.timeZone)
    }
}
