public import Foundation

/// An event offered to ``EventStore/append(_:)``: everything but the position, version and time, which the
/// store assigns at commit.
public struct ProposedEvent: Hashable, Sendable {
    /// The event's id; retrying an append with the same ids is idempotent.
    public var id: UUID
    /// The event type, e.g. `PetAdded`.
    public var type: String
    /// The payload, opaque to the log (JSON through the CLI).
    public var data: [UInt8]
    /// Correlation, causation, actor and free-form pairs.
    public var metadata: EventMetadata

    /// Creates a proposed event.
    ///
    /// - Parameters:
    ///   - id: The event id; a random one by default.
    ///   - type: The event type.
    ///   - data: The payload bytes.
    ///   - metadata: Metadata pairs.
    public init(id: UUID = .random(), type: String, data: [UInt8], metadata: EventMetadata = EventMetadata()) {
        self.id = id
        self.type = type
        self.data = data
        self.metadata = metadata
    }

    /// The size the limits apply to: data plus metadata keys and values, in bytes.
    public var payloadSize: Int {
        data.count + metadata.contentSize
    }
}
