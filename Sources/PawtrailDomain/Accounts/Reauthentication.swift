public import EventLog

/// The proof a security-sensitive command (email change, deletion) carries: the time the user last re-entered
/// their credentials. It must be fresh, so that a session left open on a shared device cannot take over or
/// delete the account.
public enum Reauthentication {
    /// How old a reauthentication may be: 5 minutes, in microseconds.
    public static let window: Int64 = 5 * 60 * 1_000_000

    /// Checks that a reauthentication lies within the ``window`` before the command's clock, and not after it.
    ///
    /// - Parameters:
    ///   - reauthenticatedAt: When the user reauthenticated.
    ///   - now: The command's clock.
    ///   - field: The field's key, for the error.
    /// - Throws: ``DomainError/invalid(field:reason:)`` naming the field.
    public static func check(_ reauthenticatedAt: Timestamp, now: Timestamp, field: String = "reauthenticatedAt")
        throws(DomainError)
    {
        guard reauthenticatedAt <= now else {
            throw .invalid(
                field: field,
                reason: "\(reauthenticatedAt.iso8601) is after the command's clock (\(now.iso8601)); "
                    + "a reauthentication cannot come from the future")
        }
        guard now.microsecondsSinceEpoch - reauthenticatedAt.microsecondsSinceEpoch <= window else {
            throw .invalid(
                field: field,
                reason: "\(reauthenticatedAt.iso8601) is more than 5 minutes before the command's clock "
                    + "(\(now.iso8601)); reauthenticate and try again")
        }
    }
}
