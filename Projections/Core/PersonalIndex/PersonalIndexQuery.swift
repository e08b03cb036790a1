/// A question to a ``PersonalIndex``: the subjects matching some words, in order, a page of them.
public struct PersonalIndexQuery: Sendable {
    /// The index asked.
    public var indexing: any PersonalIndexing.Type
    /// Words each subject's terms must hold the start of; none for every subject.
    public var words: [String]
    /// Subjects to skip.
    public var offset: Int
    /// The most subjects answered.
    public var limit: Int

    /// Creates a query.
    public init(_ indexing: any PersonalIndexing.Type, words: [String], offset: Int, limit: Int) {
        self.indexing = indexing
        self.words = words
        self.offset = offset
        self.limit = limit
    }
}
