public import Foundation
import Dispatch

/// The append semantics every store shares: validation, idempotency by event id, expected versions and
/// version assignment. A store calls ``plan(_:currentVersion:committedEvent:)`` under its write lock, with
/// lookups that see everything committed before (including earlier appends of the same group commit), then
/// writes the planned events at its next positions.
public enum AppendPlanner {
    /// An event with the stream version the planner assigned.
    public struct PlannedEvent: Sendable, Hashable {
        /// The target stream.
        public var stream: StreamID
        /// The version the event takes in its stream.
        public var version: UInt64
        /// The event.
        public var event: ProposedEvent

        /// Creates a planned event (a store may also plan ahead, as the file store's appending tasks do).
        ///
        /// - Parameters:
        ///   - stream: The target stream.
        ///   - version: Its version there.
        ///   - event: The event.
        public init(stream: StreamID, version: UInt64, event: ProposedEvent) {
            self.stream = stream
            self.version = version
            self.event = event
        }
    }

    /// What the store must do.
    public enum Outcome: Sendable {
        /// Write these events, in order, at the next positions; then report `streams`.
        case write(events: [PlannedEvent], streams: [AppendResult.StreamVersion])
        /// Every event was already committed by an identical earlier append: write nothing, report this.
        case alreadyCommitted(AppendResult)
    }

    /// Checks a request's shape and limits without touching any store.
    ///
    /// - Parameter request: The append.
    /// - Throws: ``EventStoreError/invalidRequest(_:)`` naming the first problem.
    public static func validate(_ request: AppendRequest) throws(EventStoreError) {
        guard !request.isValidated else { return }
        try check(request, proven: [])
    }

    /// ``validate(_:)``, leaving out what the caller proved.
    static func check(_ request: AppendRequest, proven: ProvenChecks) throws(EventStoreError) {
        guard request.entries.count <= EventLimits.maxEventsPerAppend else {
            throw .invalidRequest(
                "the append holds \(request.entries.count) events; the limit is \(EventLimits.maxEventsPerAppend) per append")
        }
        // Small appends (nearly all) find a repeated id by a scan; larger ones sort the ids once.
        let small = request.entries.count <= StreamSlots.scanLimit
        let checkOnly: Set<StreamID> =
            !proven.contains(.distinct) && request.expectations.contains(where: \.checkOnly)
            ? Set(request.expectations.lazy.filter(\.checkOnly).map(\.stream)) : []
        let entries = request.entries
        let total: Int
        if proven.contains(.entries) {
            // Only the sum is left to take, which is cheap beside the checks.
            total = entries.withUnsafeBufferPointer { $0.reduce(0) { $0 + $1.event.payloadSize } }
        } else if entries.count < parallelValidationEntries {
            total = try entries.withUnsafeBufferPointer {
                checkEntries($0, 0..<entries.count, small: small && !proven.contains(.distinct), checkOnly: checkOnly)
            }.get()
        } else {
            // A bulk append's entries are checked in two halves at once; the first half's problem comes first.
            let halves = [0..<entries.count / 2, entries.count / 2..<entries.count]
            let results = HalvesResults()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                results.store(entries.withUnsafeBufferPointer { checkEntries($0, halves[i], small: false, checkOnly: checkOnly) }, at: i)
            }
            total = try results.first.get() + results.second.get()
        }
        if !small, !proven.contains(.distinct), let id = firstRepeatedID(request.entries) {
            throw .invalidRequest("event id \(id.uuidString.lowercased()) appears more than once in the same append")
        }
        guard total <= EventLimits.maxAppendBytes else {
            throw .invalidRequest("the append holds \(total) bytes of events; the limit is \(EventLimits.maxAppendBytes) per append")
        }
        var named = Set<StreamID>()
        let fewExpectations = request.expectations.count <= StreamSlots.scanLimit
        for (i, e) in request.expectations.enumerated() {
            if !proven.contains(.entries) { try EventLimits.validateStreamID(e.stream.rawValue) }
            if proven.contains(.distinct) { continue }
            let repeated = fewExpectations ? request.expectations[..<i].contains { $0.stream == e.stream } : !named.insert(e.stream).inserted
            guard !repeated else {
                throw .invalidRequest("stream '\(e.stream)' has more than one expected version in the same append")
            }
        }
        // Entries are at most maxEventsPerAppend, so only the expectations can push the stream count past it; the
        // expectations' streams are distinct by now.
        let namedCount = request.expectations.count
        if namedCount + request.entries.count > EventLimits.maxStreamsPerAppend,
            streamCount(
                request, named: fewExpectations || proven.contains(.distinct) ? Set(request.expectations.lazy.map(\.stream)) : named)
                > EventLimits.maxStreamsPerAppend
        {
            throw .invalidRequest("the append names more than \(EventLimits.maxStreamsPerAppend) streams")
        }
    }

    /// The number of streams an append names, up to one past the limit: its expectations' (`named`, distinct), and
    /// those of its entries that have none. The entries are read in place and their streams looked up, not copied
    /// into a set: a bulk import names nearly every stream it writes among its expectations.
    private static func streamCount(_ request: AppendRequest, named: Set<StreamID>) -> Int {
        var others = Set<StreamID>()
        return request.entries.withUnsafeBufferPointer { entries in
            for i in entries.indices where !named.contains(entries[i].stream) {
                others.insert(entries[i].stream)
                if named.count + others.count > EventLimits.maxStreamsPerAppend { break }
            }
            return named.count + others.count
        }
    }

    /// The fewest entries checked on two cores.
    static let parallelValidationEntries = 4096

    /// Checks entries on their own (stream id, event limits, an id repeated among few entries, a stream both written
    /// and check-only).
    ///
    /// - Returns: Their payload bytes, or the first problem in entry order.
    private static func checkEntries(
        _ entries: UnsafeBufferPointer<AppendRequest.Entry>, _ range: Range<Int>, small: Bool, checkOnly: Set<StreamID>
    ) -> Result<Int, EventStoreError> {
        var total = 0
        for i in range {
            do throws(EventStoreError) {
                let stream = entries[i].stream
                // StreamID(unchecked:) exists for decoding the log; what is written must pass the rules again.
                try EventLimits.validateStreamID(stream.rawValue)
                try EventLimits.validateEvent(entries[i].event)
                total += entries[i].event.payloadSize
                let id = entries[i].event.id
                if small, entries[..<i].contains(where: { $0.event.id == id }) {
                    throw .invalidRequest("event id \(id.uuidString.lowercased()) appears more than once in the same append")
                }
                if !checkOnly.isEmpty && checkOnly.contains(stream) {
                    throw .invalidRequest("stream '\(stream)' is both written and check-only in the same append")
                }
            } catch {
                return .failure(error)
            }
        }
        return .success(total)
    }

    /// Where the two halves of a bulk append's check put their results, each in its own slot.
    private final class HalvesResults: @unchecked Sendable {
        var first: Result<Int, EventStoreError> = .success(0)
        var second: Result<Int, EventStoreError> = .success(0)

        func store(_ result: Result<Int, EventStoreError>, at i: Int) {
            if i == 0 { first = result } else { second = result }
        }
    }

    /// The first event id, in entry order, that an earlier entry also has. The ids are sorted as two words each to
    /// find out whether any repeats (a set of 10,000 ids cost four times as much); only then are they scanned in order.
    private static func firstRepeatedID(_ entries: [AppendRequest.Entry]) -> UUID? {
        var words = entries.map { $0.event.id.words }
        words.sort { $0 < $1 }
        guard zip(words, words.dropFirst()).contains(where: { $0 == $1 }) else { return nil }
        var seen = Set<UUID>()
        return entries.first { !seen.insert($0.event.id).inserted }?.event.id
    }

    /// Decides what an append does against the current state of a store.
    ///
    /// - Parameters:
    ///   - request: The append, already passed through ``validate(_:)``.
    ///   - currentVersion: The current version of a stream, `nil` if it holds no events.
    ///   - committedEvent: The committed event with an id, `nil` if there is none.
    /// - Returns: The events to write, or the result of the identical earlier append.
    /// - Throws: ``EventStoreError/wrongExpectedVersion(stream:expected:actual:)``,
    ///   ``EventStoreError/idempotencyConflict(eventID:reason:)``, or whatever the lookups throw.
    public static func plan(
        _ request: AppendRequest,
        currentVersion: (StreamID) throws -> UInt64?,
        committedEvent: (UUID) throws -> RecordedEvent?
    ) throws -> Outcome {
        // Each written stream gets a slot (in order of first appearance), so per-event work indexes arrays.
        var slots = StreamSlots(reservingFor: request.entries.count + request.expectations.count)
        // The entries are read in place (through a buffer) rather than copied one by one: an entry holds several
        // references, and an append may hold 10,000 entries.
        var entrySlots: [Int] = []
        entrySlots.reserveCapacity(request.entries.count)
        request.entries.withUnsafeBufferPointer { entries in
            for i in entries.indices { entrySlots.append(slots.slot(adding: entries[i].stream)) }
        }
        for e in request.expectations where !e.checkOnly { _ = slots.slot(adding: e.stream) }
        let order = slots.streams

        if !request.entries.isEmpty {
            var found: [(AppendRequest.Entry, RecordedEvent)] = []
            var firstMissing: UUID?
            try request.entries.withUnsafeBufferPointer { entries in
                for i in entries.indices {
                    let id = entries[i].event.id
                    if let recorded = try committedEvent(id) {
                        found.append((entries[i], recorded))
                    } else {
                        if firstMissing == nil { firstMissing = id }
                    }
                }
            }
            if !found.isEmpty {
                if let firstMissing {
                    let first = found[0]
                    throw EventStoreError.idempotencyConflict(
                        eventID: first.0.event.id,
                        reason: "only \(found.count) of the append's \(request.entries.count) events were committed before "
                            + "(this one at position \(first.1.position)); a retry must repeat exactly the earlier append, "
                            + "and event \(firstMissing.uuidString.lowercased()) was never committed")
                }
                var expected: [StreamID: ExpectedVersion] = [:]
                for e in request.expectations where !e.checkOnly { expected[e.stream] = e.expected }
                return .alreadyCommitted(try checkRetry(found, order: order, expected: expected, currentVersion: currentVersion))
            }
        }

        // One lookup a stream, in the order of the checks: an expectation's lookup serves its stream's writes too.
        var looked: [UInt64??] = Array(repeating: nil, count: order.count)
        for e in request.expectations {
            let version: UInt64?
            if let slot = slots.slot(of: e.stream) {
                let v = try looked[slot] ?? currentVersion(e.stream)
                looked[slot] = .some(v)
                version = v
            } else {
                version = try currentVersion(e.stream)
            }
            guard e.expected.isSatisfied(by: version) else {
                throw EventStoreError.wrongExpectedVersion(stream: e.stream, expected: e.expected, actual: version)
            }
        }
        var current: [UInt64?] = []
        current.reserveCapacity(order.count)
        for (slot, s) in order.enumerated() { current.append(try looked[slot] ?? currentVersion(s)) }
        var next: [UInt64] = current.map { $0.map { $0 + 1 } ?? 0 }
        var planned: [PlannedEvent] = []
        planned.reserveCapacity(request.entries.count)
        request.entries.withUnsafeBufferPointer { entries in
            for i in entries.indices {
                let slot = entrySlots[i]
                planned.append(PlannedEvent(stream: entries[i].stream, version: next[slot], event: entries[i].event))
                next[slot] += 1
            }
        }
        var streams: [AppendResult.StreamVersion] = []
        for (slot, s) in order.enumerated() {
            let wrote = next[slot] != (current[slot].map { $0 + 1 } ?? 0)
            streams.append(.init(stream: s, version: wrote ? next[slot] - 1 : current[slot]))
        }
        return .write(events: planned, streams: streams)
    }

    /// An append whose every event id is already committed is a retry only if each event was committed to
    /// the same stream, with the same content, in the same order, at versions its expectation leads to.
    private static func checkRetry(
        _ found: [(AppendRequest.Entry, RecordedEvent)], order: [StreamID], expected: [StreamID: ExpectedVersion],
        currentVersion: (StreamID) throws -> UInt64?
    ) throws -> AppendResult {
        var lastVersion: [StreamID: UInt64] = [:]
        var previousPosition: UInt64?
        for (entry, recorded) in found {
            let id = entry.event.id
            guard recorded.stream == entry.stream else {
                throw EventStoreError.idempotencyConflict(
                    eventID: id,
                    reason: "it was committed to stream '\(recorded.stream)' at version \(recorded.version), not to '\(entry.stream)'")
            }
            guard recorded.hasSameContent(as: entry.event) else {
                throw EventStoreError.idempotencyConflict(
                    eventID: id,
                    reason: "it was committed at position \(recorded.position) with a different type, data or metadata")
            }
            if let p = previousPosition, recorded.position <= p {
                throw EventStoreError.idempotencyConflict(
                    eventID: id, reason: "the earlier append committed these events in a different order")
            }
            previousPosition = recorded.position
            if let last = lastVersion[entry.stream] {
                guard recorded.version == last + 1 else {
                    throw EventStoreError.idempotencyConflict(
                        eventID: id,
                        reason: "it is at version \(recorded.version) of '\(entry.stream)', not right after the append's previous event (version \(last))")
                }
            } else {
                let ok: Bool
                switch expected[entry.stream] ?? .any {
                case .any: ok = true
                case .noStream: ok = recorded.version == 0
                case .streamExists: ok = recorded.version > 0
                case .exact(let v): ok = recorded.version == v + 1
                }
                guard ok else {
                    throw EventStoreError.idempotencyConflict(
                        eventID: id,
                        reason: "it was committed at version \(recorded.version) of '\(entry.stream)', where expected version "
                            + "\(expected[entry.stream] ?? .any) would not have put it")
                }
            }
            lastVersion[entry.stream] = recorded.version
        }
        var streams: [AppendResult.StreamVersion] = []
        for s in order {
            if let v = lastVersion[s] {
                streams.append(.init(stream: s, version: v))
            } else {
                streams.append(.init(stream: s, version: try currentVersion(s)))
            }
        }
        return AppendResult(
            firstPosition: found.first?.1.position, lastPosition: found.last?.1.position, streams: streams,
            wasAlreadyCommitted: true)
    }
}
