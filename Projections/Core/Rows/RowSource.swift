/// The stored rows a table of a read model's state reads through, as of one moment (the stored checkpoint, or a past
/// position for time travel): provided by the projection runtime, so that a fold or a view reads only the rows it
/// asks for.
///
/// A source never throws to the table: a stored row that cannot be read (damaged) is recorded in ``failure`` and read
/// as missing, and the runtime, which checks ``failure`` after each fold step and view, fails the read with it. No
/// state computed from such a read is ever stored or shown.
public protocol RowSource: AnyObject, Sendable {
    /// A row's value, `nil` when it is absent.
    func row(_ key: RowKey) -> [UInt8]?
    /// The rows of a group, in stored order (see ``RowKey``).
    func rows(group: [UInt8]) -> [(key: RowKey, value: [UInt8])]
    /// Every row of a table (a small one: whole-table reads cost what the table holds).
    func rows(table: UInt8) -> [(key: RowKey, value: [UInt8])]
    /// Whether the rows are read as of a past position (time travel): only tables of ``TableHistory/exact`` history
    /// keep their past versions, so a table of ``TableHistory/current`` history reads none through such a source.
    var isPast: Bool { get }
    /// The first failure to read a stored row, if any.
    var failure: (any Error)? { get }
    /// Reads several rows at once ahead of their lookups (`row(_:)` then answers from what was read): a view about
    /// to look up many entries asks for them together, which a store on a server answers in one round trip.
    func prefetch(_ keys: [RowKey])
}

extension RowSource {
    public func prefetch(_ keys: [RowKey]) {}
}
