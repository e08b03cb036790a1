public import EventLog
public import Events

/// One event as projections see it: decoded once from the log and shared by every projection that reads its type.
public struct ProjectedEvent: Sendable {
    /// The global position.
    public var position: UInt64
    /// The stream.
    public var stream: StreamID
    /// When the store committed it.
    public var recordedAt: Timestamp
    /// Correlation, causation, actor, role, command and the command's clock.
    public var metadata: EventMetadata
    /// The event.
    public var event: any DomainEvent
    /// The business time: the clock of the command that caused the event (`occurredAt` in its metadata), else
    /// when it was recorded. Days, windows and "due soon" are all measured on it, so a replayed or scripted day
    /// reads as that day. Read once here, from the metadata's bytes, because most projections need it.
    public var occurredAt: Timestamp

    /// Creates an event.
    public init(position: UInt64, stream: StreamID, recordedAt: Timestamp, metadata: EventMetadata = EventMetadata(), event: any DomainEvent) {
        self.position = position
        self.stream = stream
        self.recordedAt = recordedAt
        self.metadata = metadata
        self.event = event
        occurredAt = Self.occurredAt(metadata, recordedAt: recordedAt)
    }

    /// The business time of an event with this metadata: its `occurredAt`, else when it was recorded.
    private static func occurredAt(_ metadata: EventMetadata, recordedAt: Timestamp) -> Timestamp {
        let parsed: Timestamp?? = metadata.withValueBytes(forKey: "occurredAt") { Timestamp(iso8601Bytes: $0) }
        return (parsed ?? nil) ?? recordedAt
    }

    /// Who caused it.
    public var actor: String? { metadata[EventMetadata.actor] }

    /// The command that caused it (`order.place`).
    public var command: String? { metadata["command"] }
}
