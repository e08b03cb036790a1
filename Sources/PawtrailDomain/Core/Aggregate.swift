public import Events

/// The state a decision needs of one stream, folded from its events: `evolve(state, event) -> state`.
///
/// A state is kept between commands as a snapshot (see ``StreamLoader``): in its field encoding, under
/// ``snapshotKind`` and ``schemaVersion``, so that a decision starts from it and folds only the events after it.
///
/// # Conformance requirements
/// - `evolve` is a pure function of the state and the event.
/// - ``schemaVersion`` changes whenever `evolve` or the state's fields change: a snapshot of another version is
///   passed over and the stream folded from its first event. `AggregateSchemaTests` pins a digest of each
///   aggregate's fold over a fixed history, so a change to a fold that keeps its version fails a test.
/// - `init(reading:)` and `write(to:)` round-trip every field, and write equal states as equal bytes (sets and
///   dictionaries in a fixed order): `snapshots verify` compares a snapshot's bytes with a fresh fold's.
public protocol Aggregate: FieldCodable {
    /// The state of a stream with no events.
    init()

    /// The name snapshots of this fold are kept under (`inventory`); unique among aggregates.
    static var snapshotKind: String { get }

    /// The fold's version; bump it whenever `evolve` or the state's fields change.
    static var schemaVersion: Int { get }

    /// Applies one event of the stream; events of other types leave the state unchanged.
    ///
    /// - Parameters:
    ///   - state: The state so far.
    ///   - event: The next event of the stream.
    /// - Returns: The state after the event.
    static func evolve(_ state: Self, _ event: any DomainEvent) -> Self

    /// The account whose personal data the state holds, if any: its snapshots are tagged with it, and erasing the
    /// account removes them. Defaults to `nil`.
    var personalDataSubject: String? { get }
}

extension Aggregate {
    public var personalDataSubject: String? { nil }

    /// Folds events from the empty state.
    public static func folded(_ events: [any DomainEvent]) -> Self {
        events.reduce(Self()) { evolve($0, $1) }
    }

    /// Folds events onto this state.
    public func evolved(by events: [any DomainEvent]) -> Self {
        events.reduce(self) { Self.evolve($0, $1) }
    }

    /// The state in the binary field encoding snapshots keep.
    public func snapshotBytes() -> [UInt8] {
        var w = BinaryFieldWriter(capacity: 64)
        write(to: &w)
        return w.bytes
    }

    /// A state decoded from ``snapshotBytes()``.
    ///
    /// - Parameter bytes: The encoded state.
    /// - Throws: ``FieldError`` when the bytes do not hold a state of this shape.
    public init(snapshotBytes bytes: [UInt8]) throws(FieldError) {
        var r = BinaryFieldReader(bytes)
        self = try Self(reading: &r)
        guard r.isAtEnd else { throw FieldError(field: "", message: "the state has \(bytes.count - r.offset) bytes after its last field") }
    }
}
