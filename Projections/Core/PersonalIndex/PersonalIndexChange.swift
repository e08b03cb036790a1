/// One change to a ``PersonalIndex``.
public enum PersonalIndexChange: Hashable, Sendable {
    /// From this position on, the subject's entry is this one (its previous entry, if any, ends there).
    case put(String, PersonalIndexEntry, at: UInt64)
    /// Every entry the subject ever had is deleted, and every value remembered of it.
    case erase(String)
    /// The personal values of the event at a position, opened, and whose they are.
    case remember(UInt64, subject: String, values: [String])
}
