import EventLog
import Events
import PawtrailJSON
import Projections

/// One projection's state being folded, type-erased so that one pass over the log can drive several projections
/// (each event is read and decoded once, however many projections read its type).
class AnyFolder {
    let name: String
    let schemaVersion: Int
    let eventTypes: Set<String>
    /// What folding it costs, to spread folders over threads.
    let foldCost: Int
    /// The last position folded into the state.
    var position: UInt64?
    /// Events applied since the state was empty.
    var applied: Int64

    init(name: String, schemaVersion: Int, eventTypes: Set<String>, foldCost: Int, position: UInt64?, applied: Int64) {
        self.name = name
        self.foldCost = foldCost
        self.schemaVersion = schemaVersion
        self.eventTypes = eventTypes
        self.position = position
        self.applied = applied
    }

    func apply(_ event: ProjectedEvent) throws(ProjectionError) { fatalError("abstract") }
    func encodedState() -> [UInt8] { fatalError("abstract") }
    func json() -> JSONValue { fatalError("abstract") }
}

/// The folder of one projection type.
final class Folder<P: Projection>: AnyFolder {
    var state: P.State

    init(_ type: P.Type, state: P.State = P.State(), position: UInt64? = nil, applied: Int64 = 0) {
        self.state = state
        super.init(name: P.name, schemaVersion: P.schemaVersion, eventTypes: P.eventTypes, foldCost: P.foldCost, position: position, applied: applied)
    }

    /// A folder resumed from stored state bytes.
    convenience init(_ type: P.Type, bytes: [UInt8], position: UInt64?, applied: Int64) throws {
        let state: P.State
        do {
            state = try P.State(encoded: bytes)
        } catch {
            throw EventStoreError.storeFailure("the stored state of projection '\(P.name)' does not decode: \(error)")
        }
        self.init(type, state: state, position: position, applied: applied)
        lastEncodedSize = bytes.count
    }

    override func apply(_ event: ProjectedEvent) throws(ProjectionError) {
        try P.apply(&state, event)
    }

    /// The size of the last encoding, to reserve next time (states grow slowly between two writes).
    private var lastEncodedSize = 0

    override func encodedState() -> [UInt8] {
        let bytes = state.encoded(reserving: lastEncodedSize + lastEncodedSize / 8)
        lastEncodedSize = bytes.count
        return bytes
    }

    override func json() -> JSONValue {
        JSONFieldWriter.json(state)
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
