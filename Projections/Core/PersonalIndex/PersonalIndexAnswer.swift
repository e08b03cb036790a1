/// A ``PersonalIndex``'s answer to a ``PersonalIndexQuery``.
public struct PersonalIndexAnswer: Sendable, Hashable {
    /// The page of subjects, in order.
    public var subjects: [String]
    /// How many subjects match in all.
    public var total: Int

    /// Creates an answer.
    public init(subjects: [String], total: Int) {
        self.subjects = subjects
        self.total = total
    }
}
