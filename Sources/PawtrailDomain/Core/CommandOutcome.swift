public import EventLog
public import Events

/// What a handled command appended.
public struct CommandOutcome: Sendable {
    /// One appended event.
    public struct Appended: Sendable {
        /// Its global position.
        public var position: UInt64
        /// Its stream.
        public var stream: StreamID
        /// Its version in the stream.
        public var version: UInt64
        /// The event.
        public var event: any DomainEvent
    }

    /// The command's name.
    public var command: String
    /// The actor it ran as.
    public var actor: Actor
    /// The events appended, in order; empty when the command changed nothing.
    public var events: [Appended]
    /// How many times the command was decided (more than 1 after concurrency conflicts).
    public var attempts: Int
    /// What loading the streams cost, over every attempt.
    public var loadStats = LoadStats()
    /// Whether the command had been applied before under the same command id: `events` are what it appended then,
    /// and nothing was appended now (`attempts` is 0).
    public var replayed = false

    /// The events this handling appended: `events`, or none for a replayed command.
    public var appendedNow: [Appended] { replayed ? [] : events }

    /// Creates an outcome.
    public init(
        command: String, actor: Actor, events: [Appended], attempts: Int, loadStats: LoadStats = LoadStats(), replayed: Bool = false
    ) {
        self.command = command
        self.actor = actor
        self.events = events
        self.attempts = attempts
        self.loadStats = loadStats
        self.replayed = replayed
    }
}
