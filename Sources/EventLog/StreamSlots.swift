/// The distinct streams of an append, each with a slot (its index, in order of first appearance), so that
/// per-event work indexes arrays instead of hashing stream ids. Appends nearly always name a stream or two: a
/// slot is found by a scan among up to ``scanLimit`` streams, and a dictionary is built only past that.
public struct StreamSlots: Sendable {
    /// The most streams found by a scan.
    public static let scanLimit = 8

    /// The streams, in slot order.
    public private(set) var streams: [StreamID] = []
    private var slotOf: [StreamID: Int] = [:]

    /// Starts with no streams.
    public init() {}

    /// Starts with no streams, with room for about as many as an append of `entries` entries can name.
    ///
    /// - Parameter entries: The append's entries and expectations together.
    public init(reservingFor entries: Int) {
        if entries > Self.scanLimit {
            streams.reserveCapacity(entries)
            slotOf.reserveCapacity(entries)
        }
    }

    /// The number of streams.
    public var count: Int { streams.count }

    /// A stream's slot, `nil` if it has none.
    ///
    /// - Parameter stream: The stream.
    /// - Returns: Its slot.
    public func slot(of stream: StreamID) -> Int? {
        streams.count <= Self.scanLimit ? streams.firstIndex(of: stream) : slotOf[stream]
    }

    /// A stream's slot, given it the next one if it has none.
    ///
    /// - Parameter stream: The stream.
    /// - Returns: Its slot.
    public mutating func slot(adding stream: StreamID) -> Int {
        if let slot = slot(of: stream) { return slot }
        streams.append(stream)
        if streams.count == Self.scanLimit + 1 {
            for (i, s) in streams.enumerated() { slotOf[s] = i }
        } else if streams.count > Self.scanLimit {
            slotOf[stream] = streams.count - 1
        }
        return streams.count - 1
    }
}
