/// How long a table's rows are kept: every version (the views read the table as of any moment), or the newest only
/// (the fold alone reads it, at the present).
public enum TableHistory: Sendable, Hashable {
    /// Every version: time travel reads the table as of any position, exactly, without folding.
    case exact
    /// The newest version only: what the fold needs to go on.
    case current
}

/// A table of a read model's state as the projection runtime sees it: rows it can attach to stored rows, and
/// changes it can hand over as row versions (see ``KeyedTable``).
public protocol StoredTable {
    /// The table's id within its state (the first byte of its rows' keys).
    var tableID: UInt8 { get }
    /// How long its rows are kept.
    var history: TableHistory { get }
    /// Reads rows not in memory through `source` (`nil`: every row is in memory, as in a rebuild).
    mutating func attach(_ source: (any RowSource)?)
    /// Starts or stops recording changes for the drains (stopping forgets those not drained).
    mutating func setRecording(_ on: Bool)
    /// The versions of the rows the last event changed, for a table of ``TableHistory/exact`` history (nothing for
    /// others); they are forgotten.
    mutating func drainEventChanges(at position: UInt64, into versions: inout RowVersions)
    /// The versions of the rows changed since the last save, for a table of ``TableHistory/current`` history
    /// (nothing for others); they are forgotten.
    mutating func drainSaveChanges(at position: UInt64, into versions: inout RowVersions)
    /// Adds a version at `position`, not kept, of every row of ``TableHistory/current`` history the table holds in
    /// memory (what a rebuild stores at its end: the rows of exact history were handed over event by event).
    func addCurrentRows(at position: UInt64, into versions: inout RowVersions)
    /// Every row of ``TableHistory/exact`` history the table holds, stored or in memory, as of its source's moment:
    /// what time travel reads, for a check against a fold.
    func forEachExactRow(_ body: (RowKey, [UInt8]) -> Void)
}

/// Visits the tables of a keyed state.
public protocol TableVisitor {
    mutating func visit<T: StoredTable>(_ table: inout T)
}

/// The state of a read model kept as rows by key, each table read and written row by row, so that a view of one
/// entity reads that entity's rows only, as of any moment.
///
/// # Conformance requirements
/// - ``visitTables(_:)`` visits every table of the state, each once, in a fixed order.
/// - Tables' ids are unique within the state, and change (with the projection's schema version) when a table's
///   meaning or rows change.
public protocol KeyedProjectionState: ProjectionState {
    /// Visits every table.
    mutating func visitTables<V: TableVisitor>(_ visitor: inout V)
    /// The versions of the rows of exact history the last event changed, from every table (see
    /// ``StoredTable/drainEventChanges(at:into:)``); they are forgotten. The default visits the tables.
    mutating func drainEventChanges(at position: UInt64, into versions: inout RowVersions)
}

/// A projection whose state is kept as rows by key (see ``KeyedProjectionState``): what the runtime stores row by
/// row, and reads row by row for a view and as of any moment.
public protocol KeyedProjection: Projection where State: KeyedProjectionState {}

extension KeyedProjectionState {
    /// Called after every event of a fold: as a requirement with this default, each state's conformance compiles it
    /// for its own tables, so that no generic code (and no runtime type lookup) runs per event and table.
    public mutating func drainEventChanges(at position: UInt64, into versions: inout RowVersions) {
        var drain = EventChanges(position: position, versions: versions)
        versions = RowVersions()
        visitTables(&drain)
        versions = drain.versions
    }

    /// The rows of exact history (see ``StoredTable/forEachExactRow(_:)``): what a view can read as of any moment.
    public mutating func exactRows() -> [RowKey: [UInt8]] {
        var visitor = ExactRows()
        visitTables(&visitor)
        return visitor.rows
    }
}

private struct EventChanges: TableVisitor {
    let position: UInt64
    var versions: RowVersions

    mutating func visit<T: StoredTable>(_ table: inout T) {
        table.drainEventChanges(at: position, into: &versions)
    }
}

private struct ExactRows: TableVisitor {
    var rows: [RowKey: [UInt8]] = [:]

    mutating func visit<T: StoredTable>(_ table: inout T) {
        table.forEachExactRow { rows[$0] = $1 }
    }
}
