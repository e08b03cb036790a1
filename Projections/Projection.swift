public import EventLog

/// A read model built by folding the log: a pure function from (state, event) to state, with a schema version
/// that changes whenever the fold's meaning changes (so a stored state of another version is rebuilt).
public protocol Projection: Sendable {
    /// The read model's state.
    associatedtype State: Sendable

    /// The projection's stable name.
    static var name: String { get }
    /// The version of the fold; bump it when the fold changes.
    static var schemaVersion: Int { get }
    /// The state before any event.
    static var initialState: State { get }

    /// Applies one event.
    ///
    /// - Parameters:
    ///   - state: The state so far.
    ///   - event: The next event in position order.
    /// - Throws: When the event cannot be applied; the caller stops and names the event.
    static func apply(_ state: inout State, _ event: RecordedEvent) throws
}
