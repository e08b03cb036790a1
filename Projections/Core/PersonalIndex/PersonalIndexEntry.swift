/// A subject's values as the index keeps them.
public struct PersonalIndexEntry: Hashable, Sendable {
    /// The values the entry is made of (for an account: name, email, phone), so that a change to one makes the
    /// entry again.
    public var values: [String]
    /// What the subjects sort by.
    public var sortKey: String
    /// The words a search matches the start of, lowercased.
    public var terms: [String]

    /// Creates an entry.
    public init(values: [String], sortKey: String, terms: [String]) {
        self.values = values
        self.sortKey = sortKey
        self.terms = terms
    }
}
