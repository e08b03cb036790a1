public import Foundation

/// An event as committed to the log.
public struct RecordedEvent: Hashable, Sendable {
    /// The event's global position: gapless, 0-based, assigned at commit.
    public var position: UInt64
    /// The stream the event belongs to.
    public var stream: StreamID
    /// The event's version within its stream, 0-based.
    public var version: UInt64
    /// The event type.
    public var type: String
    /// The event id given at append.
    public var id: UUID
    /// When the store committed the event (UTC). Non-decreasing along the log.
    public var recordedAt: Timestamp
    /// Correlation, causation, actor and free-form pairs.
    public var metadata: EventMetadata
    /// The payload bytes.
    public var data: [UInt8]

    /// Creates a recorded event.
    public init(
        position: UInt64, stream: StreamID, version: UInt64, type: String, id: UUID, recordedAt: Timestamp,
        metadata: EventMetadata, data: [UInt8]
    ) {
        self.position = position
        self.stream = stream
        self.version = version
        self.type = type
        self.id = id
        self.recordedAt = recordedAt
        self.metadata = metadata
        self.data = data
    }

    /// Whether this committed event carries the same content as a proposed one (id, type, data, metadata).
    public func hasSameContent(as proposed: ProposedEvent) -> Bool {
        id == proposed.id && type == proposed.type && data == proposed.data && metadata == proposed.metadata
    }
}
