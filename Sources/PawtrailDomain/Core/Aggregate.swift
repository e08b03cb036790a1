public import Events

/// The state a decision needs of one stream, folded from its events: `evolve(state, event) -> state`.
public protocol Aggregate: Sendable {
    /// The state of a stream with no events.
    init()

    /// Applies one event of the stream; events of other types leave the state unchanged.
    ///
    /// - Parameters:
    ///   - state: The state so far.
    ///   - event: The next event of the stream.
    /// - Returns: The state after the event.
    static func evolve(_ state: Self, _ event: any DomainEvent) -> Self
}

extension Aggregate {
    /// Folds events from the empty state.
    public static func folded(_ events: [any DomainEvent]) -> Self {
        events.reduce(Self()) { evolve($0, $1) }
    }
}
