/// Free-form string pairs carried by an event, with well-known keys for correlation, causation and actor.
///
/// Pairs are kept sorted by key with unique keys, so two metadata values with the same pairs are equal and
/// encode to the same bytes.
public struct EventMetadata: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// The key of the id that ties together every event caused by one user action.
    public static let correlationID = "correlationId"
    /// The key of the id of the command or event that directly caused this event.
    public static let causationID = "causationId"
    /// The key of who caused the event (a user id, a service name).
    public static let actor = "actor"

    /// The pairs, sorted by key, keys unique.
    public private(set) var pairs: [(key: String, value: String)]

    /// Creates empty metadata.
    public init() { pairs = [] }

    /// Creates metadata from a dictionary.
    public init(_ dictionary: [String: String]) {
        pairs = dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init([:])
        for (k, v) in elements { self[k] = v }
    }

    /// Builds metadata from pairs that are already sorted by key and unique (the log's own encoding).
    public init(sortedUniquePairs: [(key: String, value: String)]) {
        pairs = sortedUniquePairs
    }

    /// The value for a key, or `nil`. Setting `nil` removes the key.
    public subscript(key: String) -> String? {
        get {
            var lo = 0
            var hi = pairs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[mid].key < key { lo = mid + 1 } else { hi = mid }
            }
            return lo < pairs.count && pairs[lo].key == key ? pairs[lo].value : nil
        }
        set {
            var lo = 0
            var hi = pairs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[mid].key < key { lo = mid + 1 } else { hi = mid }
            }
            let found = lo < pairs.count && pairs[lo].key == key
            switch (found, newValue) {
            case (true, .some(let v)): pairs[lo].value = v
            case (true, .none): pairs.remove(at: lo)
            case (false, .some(let v)): pairs.insert((key: key, value: v), at: lo)
            case (false, .none): break
            }
        }
    }

    /// The number of pairs.
    public var count: Int { pairs.count }
    /// Whether there are no pairs.
    public var isEmpty: Bool { pairs.isEmpty }

    public func makeIterator() -> IndexingIterator<[(key: String, value: String)]> { pairs.makeIterator() }

    /// The pairs as a dictionary.
    public var dictionary: [String: String] {
        Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) })
    }

    public static func == (lhs: EventMetadata, rhs: EventMetadata) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for p in pairs {
            hasher.combine(p.key)
            hasher.combine(p.value)
        }
    }
}
