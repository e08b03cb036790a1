import EventLog
import Events
import PawtrailJSON
import Projections

/// One projection's state being folded, type-erased so that one pass over the log can drive several projections
/// (each event is read and decoded once, however many projections read its type).
class AnyFolder: @unchecked Sendable {
    let name: String
    let schemaVersion: Int
    let eventTypes: Set<String>
    /// What folding it costs, to spread folders over threads.
    let foldCost: Int
    /// Whether it folds personal values as references (``Projection/foldsPersonalReferences``).
    let foldsPersonalReferences: Bool
    /// The last position folded into the state.
    var position: UInt64?
    /// Events applied since the state was empty.
    var applied: Int64

    init(
        name: String, schemaVersion: Int, eventTypes: Set<String>, foldCost: Int, foldsPersonalReferences: Bool, position: UInt64?,
        applied: Int64
    ) {
        self.name = name
        self.foldCost = foldCost
        self.foldsPersonalReferences = foldsPersonalReferences
        self.schemaVersion = schemaVersion
        self.eventTypes = eventTypes
        self.position = position
        self.applied = applied
    }

    func apply(_ event: ProjectedEvent) throws(ProjectionError) { fatalError("abstract") }
    /// After each page read: a whole state may take a snapshot here.
    func pageFolded(at position: UInt64) {}
    /// The row versions to store so far (a rebuild hands them to its writer as they pile up), taken.
    func takeVersions() -> RowVersions { fatalError("abstract") }
    /// Lends the row versions to store so far to `body`, which takes them and may leave memory in their place for the
    /// folder to fill again.
    func handVersions(_ body: (inout RowVersions) -> Void) {
        var versions = takeVersions()
        body(&versions)
    }
    /// The versions that end a fold at `position`: a whole state's newest, a keyed state's changed current rows.
    func closingVersions(at position: UInt64, keep: Bool) -> RowVersions { fatalError("abstract") }
    /// Bytes of versions waiting.
    var pendingBytes: Int { 0 }
    func json() -> JSONValue { fatalError("abstract") }
    /// Moves the state out, leaving an empty one (for a rebuild that stores the state and has no more use for it).
    func discardState() -> DiscardedState { fatalError("abstract") }
    /// The stored rows' first read failure, if any (the fold must not go on from a wrong state).
    var readFailure: (any Error)? { nil }
}

/// The key of a whole state's one row.
let wholeStateKey = RowKey(bytes: [0])

/// The folder of a projection kept as one whole state (a small one: inventory, catalog, dashboard), stored as one row
/// whose versions are the snapshots time travel folds from.
final class WholeFolder<P: Projection>: AnyFolder, @unchecked Sendable {
    var state: P.State
    /// Snapshots taken during the fold: one every `spacing` positions, the spacing growing with the state.
    private var snapshots = RowVersions()
    private var lastSnapshot: (position: UInt64, bytes: Int)
    private let snapshotInterval: UInt64
    private let maxSnapshotBytes: Int
    private var lastEncodedSize = 0

    init(_ type: P.Type, state: P.State = P.State(), position: UInt64? = nil, applied: Int64 = 0, lastSnapshot: UInt64? = nil,
         snapshotInterval: UInt64, maxSnapshotBytes: Int) {
        self.state = state
        self.snapshotInterval = snapshotInterval
        self.maxSnapshotBytes = maxSnapshotBytes
        self.lastSnapshot = (lastSnapshot ?? 0, 0)
        super.init(name: P.name, schemaVersion: P.schemaVersion, eventTypes: P.eventTypes, foldCost: P.foldCost, foldsPersonalReferences: P.foldsPersonalReferences,
            position: position, applied: applied)
    }

    /// A folder resumed from a stored state's bytes.
    convenience init(_ type: P.Type, bytes: [UInt8], position: UInt64?, applied: Int64, lastSnapshot: UInt64?, snapshotInterval: UInt64, maxSnapshotBytes: Int) throws {
        let state: P.State
        do {
            state = try P.State(encoded: bytes)
        } catch {
            throw EventStoreError.storeFailure("the stored state of projection '\(P.name)' does not decode: \(error)")
        }
        self.init(type, state: state, position: position, applied: applied, lastSnapshot: lastSnapshot, snapshotInterval: snapshotInterval, maxSnapshotBytes: maxSnapshotBytes)
        lastEncodedSize = bytes.count
        self.lastSnapshot.bytes = bytes.count
    }

    override func apply(_ event: ProjectedEvent) throws(ProjectionError) {
        try P.apply(&state, event)
    }

    /// Whether a snapshot is due at a position: 50,000 positions (``snapshotInterval``) after the last, or one
    /// position per 4 bytes of state if more, and never of a state over ``maxSnapshotBytes``. Snapshots then cost a
    /// rebuild about 4 bytes per event read, whatever the projection.
    func snapshotDue(at position: UInt64) -> Bool {
        lastSnapshot.bytes <= maxSnapshotBytes && position >= lastSnapshot.position
            && position - lastSnapshot.position >= max(snapshotInterval, UInt64(lastSnapshot.bytes / 4))
    }

    override func pageFolded(at position: UInt64) {
        guard snapshotDue(at: position) else { return }
        let bytes = encodedState()
        lastSnapshot = (position, bytes.count)
        if bytes.count <= maxSnapshotBytes { snapshots.add(RowVersion(key: wholeStateKey, position: position, value: bytes, keep: true)) }
    }

    override func takeVersions() -> RowVersions { snapshots.take() }

    override var pendingBytes: Int { snapshots.byteCount }

    override func closingVersions(at position: UInt64, keep: Bool) -> RowVersions {
        var out = RowVersions()
        out.add(RowVersion(key: wholeStateKey, position: position, value: encodedState(), keep: keep || snapshotDue(at: position)))
        return out
    }

    func encodedState() -> [UInt8] {
        let bytes = state.encoded(reserving: lastEncodedSize + lastEncodedSize / 8)
        lastEncodedSize = bytes.count
        return bytes
    }

    override func json() -> JSONValue { JSONFieldWriter.json(state) }

    override func discardState() -> DiscardedState {
        defer { state = P.State() }
        return DiscardedState(state)
    }
}

/// The folder of a projection kept as rows by key: its tables read stored rows through a source (none in a rebuild),
/// and after each event hand over the versions of the rows of exact history it changed.
final class KeyedFolder<P: KeyedProjection>: AnyFolder, @unchecked Sendable {
    var state: P.State
    let source: StateRowSource?
    private var versions = RowVersions()

    init(_ type: P.Type, source: StateRowSource?, position: UInt64? = nil, applied: Int64 = 0, recording: Bool) {
        var state = P.State()
        var attach = AttachTables(source: source, recording: recording)
        state.visitTables(&attach)
        self.state = state
        self.source = source
        super.init(name: P.name, schemaVersion: P.schemaVersion, eventTypes: P.eventTypes, foldCost: P.foldCost, foldsPersonalReferences: P.foldsPersonalReferences,
            position: position, applied: applied)
    }

    override func apply(_ event: ProjectedEvent) throws(ProjectionError) {
        try P.apply(&state, event)
        state.drainEventChanges(at: event.position, into: &versions)
    }

    override func takeVersions() -> RowVersions { versions.take() }

    override func handVersions(_ body: (inout RowVersions) -> Void) { body(&versions) }

    override var pendingBytes: Int { versions.byteCount }

    /// In a rebuild (no source) every row of a current table; in a catch-up, those changed since it began.
    override func closingVersions(at position: UInt64, keep: Bool) -> RowVersions {
        var out = RowVersions()
        if source == nil {
            var all = CurrentRows(position: position, versions: out)
            state.visitTables(&all)
            out = all.versions
        } else {
            var drain = DrainSave(position: position, versions: out)
            state.visitTables(&drain)
            out = drain.versions
        }
        return out
    }

    override func json() -> JSONValue { JSONFieldWriter.json(state) }

    override func discardState() -> DiscardedState {
        defer { state = P.State() }
        return DiscardedState(state)
    }

    override var readFailure: (any Error)? { source?.failure }
}

/// A folded state nothing will read again, held only to be freed where it costs no one a wait.
final class DiscardedState: @unchecked Sendable {
    private var state: Any?

    init(_ state: Any) {
        self.state = state
    }

    /// Frees the state (its memory is returned as its last reference goes).
    func free() { state = nil }
}

struct AttachTables: TableVisitor {
    let source: StateRowSource?
    let recording: Bool

    mutating func visit<T: StoredTable>(_ table: inout T) {
        table.attach(source)
        table.setRecording(recording)
    }
}

struct DrainSave: TableVisitor {
    let position: UInt64
    var versions: RowVersions

    mutating func visit<T: StoredTable>(_ table: inout T) {
        table.drainSaveChanges(at: position, into: &versions)
    }
}

/// Every row of the current tables, at a rebuild's end.
struct CurrentRows: TableVisitor {
    let position: UInt64
    var versions: RowVersions

    mutating func visit<T: StoredTable>(_ table: inout T) {
        table.addCurrentRows(at: position, into: &versions)
    }
}

/// A projection that failed on an event: the runtime stops there and names it, never skipping it.
public struct ProjectionFailure: Error, Hashable, Sendable, CustomStringConvertible {
    public var projection: String
    public var position: UInt64
    public var stream: String
    public var type: String
    public var message: String

    public init(projection: String, position: UInt64, stream: String, type: String, message: String) {
        self.projection = projection
        self.position = position
        self.stream = stream
        self.type = type
        self.message = message
    }

    public var description: String {
        "projection '\(projection)' stopped at position \(position) (\(stream), \(type)): \(message)"
    }
}
