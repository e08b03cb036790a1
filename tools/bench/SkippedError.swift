/// Marks a measurement that was not taken on purpose (shown as `n/a` with the reason).
struct SkippedError: Error, CustomStringConvertible {
    /// Why.
    var reason = "skipped (--no-sqlite-threads)"

    var description: String { reason }
}
