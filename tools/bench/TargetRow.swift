/// One line of the result table: a scenario's two figures, their ratio and the target it is held to.
struct TargetRow: Codable, Sendable {
    /// The scenario.
    var scenario: String
    /// Our figure, formatted (events/s or MB).
    var ours: String
    /// The peer's figure, formatted.
    var sqlite: String
    /// The ratio in the target's direction (ours/SQLite for speed, SQLite/ours for size), `nil` if unknown.
    var ratio: Double?
    /// The target, e.g. `≥ 20x`; `—` when the row is informational.
    var target: String
    /// Whether the target is met; `nil` when there is none or a figure is missing.
    var met: Bool?

    /// The minimum ratio the target asks for, or `nil`.
    static func check(_ ratio: Double?, atLeast minimum: Double?) -> Bool? {
        guard let ratio, let minimum else { return nil }
        return ratio >= minimum
    }
}
