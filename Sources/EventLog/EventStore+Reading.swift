extension EventStore {
    /// Reads every event a source holds, page by page, in the given direction.
    ///
    /// - Parameters:
    ///   - source: What to read.
    ///   - direction: Forward or backward.
    ///   - from: Where to start (inclusive), or `nil`.
    ///   - eventTypes: Only these types, or `nil` for all.
    ///   - pageSize: Events per page.
    ///   - body: Called with each page's events in order; return `false` to stop.
    /// - Throws: What the store's reads throw, or what `body` throws.
    public func forEachPage(
        _ source: ReadSource, direction: ReadDirection = .forward, from: UInt64? = nil, eventTypes: Set<String>? = nil,
        pageSize: Int = 4096, _ body: ([RecordedEvent]) async throws -> Bool
    ) async throws {
        var cursor = from
        while true {
            let batch = try await read(
                ReadRequest(source: source, direction: direction, from: cursor, limit: pageSize, eventTypes: eventTypes))
            if !batch.events.isEmpty {
                guard try await body(batch.events) else { return }
            }
            guard let next = batch.next else { return }
            cursor = next
        }
    }

    /// Follows the log: yields the events of `source` from `from` on, then every event committed later, by any
    /// process, until the consumer stops iterating or the task is cancelled.
    ///
    /// - Parameters:
    ///   - source: `.all` or a `.category` (a stream is followed by position too).
    ///   - from: The first position to yield; `nil` for the beginning.
    ///   - eventTypes: Only these types, or `nil`.
    ///   - pollInterval: The longest wait between checks for new events.
    /// - Returns: The events, in position order.
    public func follow(
        _ source: ReadSource = .all, from: UInt64? = nil, eventTypes: Set<String>? = nil,
        pollInterval: Duration = .milliseconds(200)
    ) -> AsyncThrowingStream<RecordedEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var nextPosition = from ?? 0
                    while !Task.isCancelled {
                        // With a type filter the last event read need not be the log's last: what the read examined
                        // reaches at least the end as it was before the read, or a filtered-out tail would be read
                        // again and again (a busy loop that never suspends, holding a thread of the pool).
                        let end = eventTypes == nil ? nil : try await self.lastPosition()
                        let batch = try await self.read(
                            ReadRequest(source: .all, from: nextPosition, limit: 1024, eventTypes: eventTypes))
                        for event in batch.events where Self.matches(event, source) {
                            continuation.yield(event)
                        }
                        if let next = batch.next {
                            nextPosition = next
                            continue
                        }
                        if let last = batch.events.last { nextPosition = last.position + 1 }
                        if let end { nextPosition = max(nextPosition, end + 1) }
                        let seen: UInt64? = nextPosition == 0 ? nil : nextPosition - 1
                        _ = try await self.waitForAppends(after: seen, timeout: pollInterval)
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private static func matches(_ event: RecordedEvent, _ source: ReadSource) -> Bool {
        switch source {
        case .all: return true
        case .stream(let s): return event.stream == s
        case .category(let c): return event.stream.isInCategory(c)
        }
    }
}
