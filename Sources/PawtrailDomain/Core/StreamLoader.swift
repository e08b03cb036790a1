public import EventLog
public import Events

/// Reads streams for a decision, folds them into states, and remembers the version each was read at: those
/// versions become the append's expectations.
public struct StreamLoader {
    /// The store read from.
    public let store: any EventStore
    /// The catalog events are decoded with.
    public let catalog: EventCatalog
    /// Each loaded stream's version when it was first read (`nil`: no events).
    public private(set) var versions: [StreamID: UInt64?] = [:]
    /// The order streams were first loaded in.
    public private(set) var order: [StreamID] = []

    /// Creates a loader.
    public init(store: any EventStore, catalog: EventCatalog = .domain) {
        self.store = store
        self.catalog = catalog
    }

    /// The domain events of a stream, in order; raw events (not in the catalog) are skipped but count for the
    /// version.
    ///
    /// - Parameter stream: The stream.
    /// - Returns: The events.
    /// - Throws: Store errors; ``EventStoreError/storeFailure(_:)`` naming the event when a catalog event does not
    ///   decode.
    public mutating func events(_ stream: StreamID) async throws -> [any DomainEvent] {
        var events: [any DomainEvent] = []
        var last: UInt64?
        let catalog = self.catalog
        try await store.forEachPage(.stream(stream)) { page in
            for recorded in page {
                last = recorded.version
                do {
                    if let e = try catalog.decode(type: recorded.type, data: recorded.data) { events.append(e) }
                } catch {
                    throw EventStoreError.storeFailure(
                        "event at position \(recorded.position) (\(recorded.stream)@\(recorded.version), "
                            + "\(recorded.type)) cannot be decoded: \(error)")
                }
            }
            return true
        }
        if versions[stream] == nil {
            versions[stream] = .some(last)
            order.append(stream)
        }
        return events
    }

    /// Loads a stream's state.
    ///
    /// - Parameters:
    ///   - type: The aggregate to fold into.
    ///   - stream: The stream.
    /// - Returns: The state.
    /// - Throws: As ``events(_:)``.
    public mutating func load<A: Aggregate>(_ type: A.Type, _ stream: StreamID) async throws -> A {
        A.folded(try await events(stream))
    }

    /// The version a stream was loaded at, as an expectation.
    public func expectation(for stream: StreamID) -> ExpectedVersion? {
        guard let v = versions[stream] else { return nil }
        return v.map { .exact($0) } ?? .noStream
    }
}
