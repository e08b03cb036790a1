public import EventLog

/// How many events of each type the log holds, and in how many streams: the demo's summary of the log.
public enum EventTypeCounts: Projection {
    /// Counts per event type, and the set of streams seen.
    public struct State: Sendable, Hashable {
        /// Events per type.
        public var eventsByType: [String: Int] = [:]
        /// Events per category.
        public var eventsByCategory: [String: Int] = [:]
        /// The number of events folded.
        public var events = 0
    }

    public static let name = "event-type-counts"
    public static let schemaVersion = 1
    public static var initialState: State { State() }

    public static func apply(_ state: inout State, _ event: RecordedEvent) {
        state.eventsByType[event.type, default: 0] += 1
        state.eventsByCategory[String(event.stream.category), default: 0] += 1
        state.events += 1
    }
}
