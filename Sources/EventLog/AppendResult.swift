/// What a successful append reports.
public struct AppendResult: Hashable, Sendable {
    /// A written stream and its version after the append (`nil` for a stream that still holds no events).
    public struct StreamVersion: Hashable, Sendable {
        /// The stream.
        public var stream: StreamID
        /// Its version after the append; `nil` when the stream holds no events.
        public var version: UInt64?

        /// Creates a stream version.
        public init(stream: StreamID, version: UInt64?) {
            self.stream = stream
            self.version = version
        }
    }

    /// The position of the first event written; `nil` when nothing was written.
    public var firstPosition: UInt64?
    /// The position of the last event written; `nil` when nothing was written.
    public var lastPosition: UInt64?
    /// Each stream the append wrote (or named without events), in order of first appearance.
    public var streams: [StreamVersion]
    /// `true` when every event had already been committed by an earlier identical append, which is reported
    /// instead and nothing was written.
    public var wasAlreadyCommitted: Bool

    /// Creates a result.
    public init(firstPosition: UInt64?, lastPosition: UInt64?, streams: [StreamVersion], wasAlreadyCommitted: Bool = false) {
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.streams = streams
        self.wasAlreadyCommitted = wasAlreadyCommitted
    }
}
