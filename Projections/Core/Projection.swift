public import EventLog
public import Events

/// A read model built by folding the log: a pure function from (state, event) to state, with a schema version
/// that changes whenever the fold's meaning or the state's shape changes (a stored state of another version is
/// rebuilt, blue/green).
///
/// # Conformance requirements
/// - `apply` is deterministic: the same events in the same order give the same state, so a live state can be
///   audited against a fresh rebuild.
/// - `apply` ignores event types it does not list in `eventTypes` (the runtime never gives it others).
/// - `State` round-trips through its field encoding (checkpoints and snapshots store it).
public protocol Projection: Sendable {
    /// The read model's state.
    associatedtype State: ProjectionState

    /// The stable name (`inventory`).
    static var name: String { get }
    /// The version of the fold; bump it whenever the fold or the state changes.
    static var schemaVersion: Int { get }
    /// One sentence for `projections status` and help.
    static var summary: String { get }
    /// The event types the fold reads; events of other types are never decoded for it.
    static var eventTypes: Set<String> { get }

    /// What folding this projection costs beside the others, in any consistent unit (the built-in ones state
    /// milliseconds per million events of the benchmark's workload, measured alone): a rebuild spreads projections
    /// over its threads by it. Defaults to ten per event type read.
    static var foldCost: Int { get }

    /// Whether the state keeps copies of personal fields (names, emails, phones, addresses, recipients, message
    /// texts): such a read model is rebuilt when an account is erased, so that no copy made before outlives the
    /// account's key. Defaults to `false`.
    static var holdsPersonalData: Bool { get }

    /// Whether the fold receives each personal value as a token naming it (``Events/PersonalReference``) rather than
    /// the value. Such a read model holds no personal data (it needs no rebuild when an account is erased): it may
    /// copy a token, join it into a longer string or shorten it with ``Events/PersonalReference/prefix(_:_:)``,
    /// never read into it; views and exports open the tokens they show. Defaults to `false`.
    static var foldsPersonalReferences: Bool { get }

    /// Applies one event.
    ///
    /// - Parameters:
    ///   - state: The state so far.
    ///   - event: The next event, in position order.
    /// - Throws: ``ProjectionError`` when the event cannot be applied; the runtime stops and names the event.
    static func apply(_ state: inout State, _ event: ProjectedEvent) throws(ProjectionError)
}

extension Projection {
    public static var foldCost: Int { eventTypes.count * 10 }
    public static var holdsPersonalData: Bool { false }
    public static var foldsPersonalReferences: Bool { false }

    /// The names of event types, for `eventTypes`.
    public static func types(_ types: any DomainEvent.Type...) -> Set<String> {
        Set(types.map { $0.eventType })
    }

    /// An event as the runtime hands it to this projection's fold: decoded, with its personal values as tokens
    /// when the projection folds references (``foldsPersonalReferences``).
    ///
    /// - Parameters:
    ///   - recorded: The event as read from the store.
    ///   - catalog: The event types.
    /// - Returns: The event, or `nil` when the catalog has no such type.
    /// - Throws: ``FieldError`` when its data does not decode.
    public static func projected(_ recorded: RecordedEvent, catalog: EventCatalog = .domain) throws -> ProjectedEvent? {
        guard let type = catalog.eventType(named: recorded.type) else { return nil }
        let event: any DomainEvent =
            foldsPersonalReferences
            ? try type.decoded(from: recorded.data, referencingPersonalValuesAt: recorded.position).event : try type.decoded(from: recorded.data)
        return ProjectedEvent(
            position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt, metadata: recorded.metadata, event: event)
    }

    /// Folds events from the empty state (tests, and the audit's fresh rebuild).
    public static func folded(_ events: [ProjectedEvent]) throws(ProjectionError) -> State {
        var state = State()
        for e in events where eventTypes.contains(e.event.eventType) { try apply(&state, e) }
        return state
    }
}

/// The state of a read model: a value with an empty start and a field encoding (see ``FieldCodable``) that
/// checkpoints and snapshots store. Dictionaries are written as records sorted by key, so equal states have equal
/// bytes and the audit can name each difference by key.
public protocol ProjectionState: FieldCodable, Equatable {
    /// The state before any event.
    init()

    /// The state in the binary field encoding that checkpoints and snapshots store. Leave it to the default: being
    /// a requirement, each state's conformance gets the encoder compiled for its own types (dictionaries and
    /// records included), where the runtime, holding the state behind a generic projection, would otherwise run
    /// generic code for every field.
    ///
    /// - Parameter capacity: Room to reserve, such as the last encoding's size.
    /// - Returns: The encoded state.
    func encoded(reserving capacity: Int) -> [UInt8]

    /// Decodes a state from ``encoded(reserving:)``'s bytes (the default, like the encoder, is compiled per state).
    ///
    /// - Parameter bytes: The encoded state.
    /// - Throws: ``FieldError`` when the bytes do not hold a state of this shape.
    init(encoded bytes: [UInt8]) throws(FieldError)
}

extension ProjectionState {
    public func encoded(reserving capacity: Int) -> [UInt8] {
        var w = BinaryFieldWriter(capacity: capacity)
        write(to: &w)
        return w.bytes
    }

    /// The state in the binary field encoding (see ``encoded(reserving:)``).
    public func encoded() -> [UInt8] { encoded(reserving: 0) }

    public init(encoded bytes: [UInt8]) throws(FieldError) {
        var r = BinaryFieldReader(bytes)
        self = try Self(reading: &r)
        guard r.isAtEnd else { throw FieldError(field: "", message: "the state has \(bytes.count - r.offset) bytes after its last field") }
    }
}

/// Why a projection could not apply an event.
public struct ProjectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
