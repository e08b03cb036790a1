public import EventLog
public import Events
public import Projections

extension ProjectionEngine {
    /// Answers a view's question to the personal index as of a position, after catching the index up to it.
    ///
    /// The store's own index (``ProjectionStateStore/personalIndex()``) is caught up and kept; a store that keeps none,
    /// or whose index cannot be written here (a read-only mount), gets one made in memory for this answer.
    ///
    /// - Parameters:
    ///   - query: The question.
    ///   - position: The position the answer is as of (the view's state's), `nil` for an empty log.
    /// - Returns: The answer, and the index that gave it (`nil` for an empty log), whose remembered values a
    ///   ``PersonalValueResolver`` may take.
    /// - Throws: Store and index errors.
    public func answer(_ query: PersonalIndexQuery, asOf position: UInt64?) async throws -> (answer: PersonalIndexAnswer, index: (any PersonalIndex)?) {
        guard let position else { return (PersonalIndexAnswer(subjects: [], total: 0), nil) }
        let index = try await personalIndex(query.indexing, through: position)
        let (subjects, total) = try await index.subjects(asOf: position, matching: query.words, offset: query.offset, limit: query.limit)
        return (PersonalIndexAnswer(subjects: subjects, total: total), index)
    }

    /// The personal index of an indexer, caught up through a position at least.
    ///
    /// - Parameters:
    ///   - indexing: What keeps the index.
    ///   - position: The position it must reach.
    /// - Returns: The store's index, or one made in memory when the store's cannot be kept here.
    /// - Throws: Store and index errors.
    public func personalIndex(_ indexing: any PersonalIndexing.Type, through position: UInt64) async throws -> any PersonalIndex {
        if let stored = try? states.personalIndex(),
            (try? await catchUp(stored, indexing, through: position)) == true
        {
            return stored
        }
        let memory = MemoryPersonalIndex()
        guard try await catchUp(memory, indexing, through: position) else {
            throw EventStoreError.storeFailure("the personal index in memory could not be made")
        }
        return memory
    }

    /// Folds the events after the index's position through `end` into it (all of them when it is empty or of another
    /// version), in one commit.
    ///
    /// - Returns: `true` once the index reaches `end`; `false` when other processes kept storing first.
    /// - Throws: Store and index errors (an index that cannot be written).
    @discardableResult
    public func catchUp(_ index: any PersonalIndex, _ indexing: any PersonalIndexing.Type, through end: UInt64) async throws -> Bool {
        for _ in 0..<3 {
            var checkpoint = try await index.checkpoint()
            if let c = checkpoint, c.version != indexing.version {
                try await index.reset()
                checkpoint = nil
            }
            if let c = checkpoint, c.position >= end { return true }
            let from = checkpoint?.position
            var entries: [String: PersonalIndexEntry?] = [:]
            var changes: [PersonalIndexChange] = []
            var next = from.map { $0 + 1 } ?? 0
            while next <= end {
                let limit = Int(min(UInt64(8192), end - next + 1))
                let batch = try await store.read(ReadRequest(source: .all, from: next, limit: limit, eventTypes: indexing.eventTypes))
                for recorded in batch.events where recorded.position <= end {
                    guard let type = catalog.eventType(named: recorded.type), DomainEventCodec.isDomainEncoded(recorded.data) else { continue }
                    let event = try type.decoded(from: recorded.data)
                    let projected = ProjectedEvent(
                        position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt, metadata: recorded.metadata,
                        event: event)
                    let made = try await indexing.changes(projected) { subject in
                        if let known = entries[subject] { return known }
                        return try await index.entry(of: subject)
                    }
                    for change in made {
                        switch change {
                        case .put(let subject, let entry, _): entries[subject] = .some(entry)
                        case .erase(let subject): entries[subject] = .some(nil)
                        case .remember: break
                        }
                    }
                    // The event's values, for the views that show its tokens (the directory's rows) without a read
                    // of the log each; an erasure forgets them with the subject's entries.
                    if let subject = event.personalDataSubject, let values = try? type.personalValues(in: recorded.data), !values.isEmpty {
                        changes.append(.remember(recorded.position, subject: subject, values: values))
                    }
                    changes += made
                }
                guard let after = batch.next else { break }
                next = after
            }
            if try await index.apply(changes, from: from, through: end, version: indexing.version) { return true }
        }
        return false
    }
}
