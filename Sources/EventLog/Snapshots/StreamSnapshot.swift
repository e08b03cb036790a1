public import Foundation

/// A stream's state as some fold computed it through one of its events: a cache a decision may start from instead
/// of folding the stream from its first event.
///
/// The snapshot names the event it was folded through (its version, global position and id), so whoever takes it
/// up can tell that the stream still holds that event at that version; and the fold's kind and schema version, so a
/// change to the fold passes over every snapshot the old fold made.
public struct StreamSnapshot: Sendable, Hashable {
    /// The stream.
    public var stream: StreamID
    /// Which fold made the state (an aggregate's name, such as `inventory`): one stream may be folded several ways.
    public var kind: String
    /// The fold's schema version when the state was made.
    public var schemaVersion: Int
    /// The last stream version folded into the state.
    public var version: UInt64
    /// The global position of the event at ``version``.
    public var position: UInt64
    /// The id of the event at ``version``.
    public var eventID: UUID
    /// The state, in the fold's own encoding.
    public var state: [UInt8]
    /// The account whose personal data the state holds, if any: erasing the account removes every snapshot tagged
    /// with it (``SnapshotStore/removeAll(taggedWith:)``).
    public var subject: String?

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - stream: The stream.
    ///   - kind: The fold's name.
    ///   - schemaVersion: The fold's schema version.
    ///   - version: The last stream version folded.
    ///   - position: The global position of that event.
    ///   - eventID: The id of that event.
    ///   - state: The encoded state.
    ///   - subject: The account whose personal data the state holds, if any.
    public init(
        stream: StreamID, kind: String, schemaVersion: Int, version: UInt64, position: UInt64, eventID: UUID, state: [UInt8], subject: String? = nil
    ) {
        self.subject = subject
        self.stream = stream
        self.kind = kind
        self.schemaVersion = schemaVersion
        self.version = version
        self.position = position
        self.eventID = eventID
        self.state = state
    }
}
