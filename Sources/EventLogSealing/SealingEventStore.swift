public import EventLog
public import Foundation

/// A store that seals the personal sections of the events appended through it under their subjects' keys, and
/// opens them again when they are read: the log underneath never holds personal data in the clear.
///
/// An event whose section erases its subject (`AccountDeleted`) destroys the subject's key once its append
/// returns, and again whenever it is read while the key is still there (after a crash in between). From then on that subject's sealed values read as erased, everywhere: reads, rebuilds, time travel and
/// exports. Data that names an erased subject is stored erased, never sealed again.
public final class SealingEventStore: EventStore, EventImporting {
    /// The store underneath.
    public let base: any EventStore
    /// Where the keys are.
    public let keys: any PersonalDataKeys

    /// Wraps a store.
    ///
    /// - Parameters:
    ///   - base: The store that holds the events.
    ///   - keys: The backend's key store.
    public init(base: any EventStore, keys: any PersonalDataKeys) {
        self.base = base
        self.keys = keys
    }

    public func append(_ request: AppendRequest) async throws -> AppendResult {
        var request = request
        var erasing: [String] = []
        var sealed = request.entries
        var changed = false
        for i in sealed.indices where sealed[i].event.data.first == PersonalSection.marker {
            let event = sealed[i].event
            guard let (layout, section) = PersonalSection.parse(event.data) else { continue }
            switch section.content {
            case .erasesSubject:
                erasing.append(section.subject)
            case .plain(let values):
                sealed[i].event.data = try await sealing(values, of: section, in: event.data, layout: layout, id: event.id)
                changed = true
            case .sealed, .erased:
                break
            }
        }
        if changed { request.entries = sealed }
        let result = try await base.append(request)
        for subject in erasing { try await keys.destroyKey(for: subject) }
        return result
    }

    public func read(_ request: ReadRequest) async throws -> ReadBatch {
        var batch = try await base.read(request)
        // Each subject's key is looked up once a batch: a customer's stream holds many events of one subject, and
        // on a server each lookup is a round trip.
        var keysRead: [String: [UInt8]?] = [:]
        for i in batch.events.indices where batch.events[i].data.first == PersonalSection.marker {
            batch.events[i] = try await opened(batch.events[i], keysRead: &keysRead)
        }
        return batch
    }

    public func streamVersion(of stream: StreamID) async throws -> UInt64? {
        try await base.streamVersion(of: stream)
    }

    public func position(of stream: StreamID, version: UInt64) async throws -> UInt64? {
        try await base.position(of: stream, version: version)
    }

    public func event(at position: UInt64) async throws -> RecordedEvent? {
        try await base.event(at: position).asyncMap(opened)
    }

    public func event(withID id: UUID) async throws -> RecordedEvent? {
        try await base.event(withID: id).asyncMap(opened)
    }

    public func lastPosition() async throws -> UInt64? {
        try await base.lastPosition()
    }

    public func knownHead() async throws -> LogHead? {
        try await base.knownHead()
    }

    public func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? {
        try await base.lastPosition(atOrBefore: time)
    }

    public func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        try await base.waitForAppends(after: position, timeout: timeout)
    }

    public func flush() async throws {
        try await base.flush()
    }

    /// Imports events read from another store (in the clear), sealing their personal sections here.
    ///
    /// - Throws: ``EventStoreError/Code/invalidRequest`` when the store underneath does not import.
    public func importEvents(_ events: [RecordedEvent]) async throws {
        guard let importer = base as? any EventImporting else {
            throw EventStoreError.invalidRequest("this store does not import events")
        }
        var sealed = events
        for i in sealed.indices where sealed[i].data.first == PersonalSection.marker {
            guard let (layout, section) = PersonalSection.parse(sealed[i].data), case .plain(let values) = section.content else { continue }
            sealed[i].data = try await sealing(values, of: section, in: sealed[i].data, layout: layout, id: sealed[i].id)
        }
        try await importer.importEvents(sealed)
    }

    /// The data with its plain section's values sealed, or stored erased when its subject was erased.
    private func sealing(
        _ values: [String], of section: PersonalSection, in data: [UInt8], layout: PersonalSection.Layout, id: UUID
    ) async throws -> [UInt8] {
        var out = section
        if let key = try await keys.createKey(for: section.subject, make: Sealer.newKey) {
            let (nonce, ciphertext) = Sealer.seal(values, key: key, eventID: id, subject: section.subject)
            out.content = .sealed(nonce: nonce, ciphertext: ciphertext)
        } else {
            out.content = .erased
        }
        return out.replacingSection(of: data, layout: layout)
    }

    /// One event opened on its own.
    private func opened(_ event: RecordedEvent) async throws -> RecordedEvent {
        var keysRead: [String: [UInt8]?] = [:]
        return try await opened(event, keysRead: &keysRead)
    }

    /// The event with its section opened: plain when its subject's key opens it, erased when the key is gone.
    ///
    /// - Parameter keysRead: The keys looked up so far in this read, by subject (`nil` for a key that is gone).
    private func opened(_ event: RecordedEvent, keysRead: inout [String: [UInt8]?]) async throws -> RecordedEvent {
        guard let (layout, section) = PersonalSection.parse(event.data) else { return event }
        if section.content == .erasesSubject {
            // A process that stopped between the append and the key's destruction left the key behind: whoever
            // reads the erasing event next finishes the erasure (where it may write; a read-only reader leaves it).
            if (try? await keys.key(for: section.subject)) != nil { try? await keys.destroyKey(for: section.subject) }
            keysRead[section.subject] = .some(nil)
            return event
        }
        guard case .sealed(let nonce, let ciphertext) = section.content else { return event }
        var out = section
        let key: [UInt8]?
        if let known = keysRead[section.subject] {
            key = known
        } else {
            key = try await keys.key(for: section.subject)
            keysRead[section.subject] = .some(key)
        }
        if let key {
            guard let values = Sealer.open(nonce: nonce, ciphertext: ciphertext, key: key, eventID: event.id, subject: section.subject) else {
                throw EventStoreError.corrupted(
                    location: "event at position \(event.position)", offset: nil,
                    reason: "its personal data does not open with its subject's key")
            }
            out.content = .plain(values)
        } else {
            out.content = .erased
        }
        var copy = event
        copy.data = out.replacingSection(of: event.data, layout: layout)
        return copy
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
