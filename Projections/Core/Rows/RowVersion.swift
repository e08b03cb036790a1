/// One stored version of a row: its value after the event at ``position``, until its next version.
public struct RowVersion: Sendable, Hashable {
    /// The row.
    public var key: RowKey
    /// The log position whose event left the row so (the checkpoint's, for a row saved with a catch-up).
    public var position: UInt64
    /// The row's field encoding; `nil` when the row is absent from then on.
    public var value: [UInt8]?
    /// Whether the version is kept for time travel; a version not kept is dropped once a newer one is stored.
    public var keep: Bool

    /// Creates a version.
    public init(key: RowKey, position: UInt64, value: [UInt8]?, keep: Bool) {
        self.key = key
        self.position = position
        self.value = value
        self.keep = keep
    }

    /// The stored order: by key (``RowKey``), then newest first, so that the first version at or before a position
    /// is the one that holds there.
    public static func storedOrder(_ a: RowVersion, _ b: RowVersion) -> Bool {
        a.key == b.key ? a.position > b.position : a.key < b.key
    }
}
