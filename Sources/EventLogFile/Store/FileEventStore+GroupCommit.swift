import EventLog
import Foundation
import PawtrailIO

/// The group commit: one committer thread takes the appends waiting, plans them under the writer lock, writes their
/// frames in one `write`, flushes once (or leaves deferred appends for ``flush()``) and resumes the callers.
extension FileEventStore {
    /// The longest a committer waits for more appends to join a group, when the previous group was larger
    /// than what is waiting: several writers then share one flush instead of queueing behind each other's.
    static let gatherWindow: TimeInterval = 0.000_2

    /// How long an idle committer keeps the writer lock for the next append, and the longest it holds it
    /// across back-to-back groups before letting other processes' writers in.
    static let lockLinger: TimeInterval = 0.001
    static let maxLockHold: Duration = .milliseconds(5)

    /// Lets other processes write again (committer thread only), once the deferred appends are flushed: another
    /// writer must never build on frames that are not durable.
    func releaseWriterLock() {
        guard writerLockHeldSince != nil else { return }
        // A failed flush cut the frames off and failed the store: the lock can go either way.
        stateLock.withLock { try? flushLocked() }
        writerLockHeldSince = nil
        try? writerLock?.unlock()
    }

    public func flush() async throws {
        try stateLock.withLock {
            if let failure { throw failure }
            try flushLocked()
        }
    }

    /// Flushes the deferred appends, and writes the head that names them (the caller holds `stateLock`). When that
    /// fails, they are cut off the segment and the store refuses further appends.
    func flushLocked() throws {
        guard let u = unflushed else { return }
        do {
            try u.segment.fd.synchronizeData()
            try state.writeHead()
            unflushed = nil
        } catch {
            let e = (error as? SystemError).map { EventStoreError($0) } ?? .storeFailure("the head could not be written: \(error)")
            try? u.segment.fd.truncate(to: u.offset)
            try? u.segment.fd.synchronizeData()
            failure = e
            unflushed = nil
            throw e
        }
    }


    // MARK: - Group commit

    func runCommitter() {
        while true {
            queue.lock()
            if pending.isEmpty, writerLockHeldSince != nil, closeRequests == 0 {
                // A lone writer's next append usually follows at once: keep the writer lock a moment for it.
                _ = queue.wait(until: Date().addingTimeInterval(writerLockHold?.linger ?? Self.lockLinger))
            }
            if pending.isEmpty {
                queue.unlock()
                releaseWriterLock()
                queue.lock()
            }
            if pending.isEmpty {
                // Idle: let the thread end (at once when someone is closing); the next append starts a new one.
                if closeRequests == 0 { _ = queue.wait(until: Date().addingTimeInterval(0.5)) }
                if pending.isEmpty {
                    committerRunning = false
                    queue.broadcast()
                    queue.unlock()
                    return
                }
            }
            // Writers just resumed from the previous group are about to append again: give them a moment.
            if pending.count < lastGroupSize {
                let deadline = Date().addingTimeInterval(Self.gatherWindow)
                while pending.count < lastGroupSize && queue.wait(until: deadline) {}
            }
            var batch: [Pending] = []
            var bytes = 0
            while !pending.isEmpty && batch.count < 4096 && bytes < (32 << 20) {
                let p = pending.removeFirst()
                bytes += p.request.entries.withUnsafeBufferPointer { entries in entries.indices.reduce(0) { $0 + entries[$1].event.payloadSize } }
                batch.append(p)
            }
            lastGroupSize = batch.count
            groupInFlight = true
            queue.unlock()
            var acknowledged = false
            func acknowledge(_ results: [Result<AppendResult, any Error>]) {
                queue.withLock {
                    groupInFlight = false
                    // A closing thread waits for this (``close()``).
                    if closeRequests > 0 { queue.broadcast() }
                }
                for (p, r) in zip(batch, results) { p.complete(r) }
                acknowledged = true
            }
            let results = commit(batch.map(\.request), prepared: batch.map(\.prepared), acknowledge: acknowledge)
            if !acknowledged { acknowledge(results) }
            // Other processes' writers get their turn at least this often: released here, before gathering the
            // next group, so a writer blocked on the lock has that while to take it.
            if let since = writerLockHeldSince, ContinuousClock.now - since > writerLockHold?.max ?? Self.maxLockHold { releaseWriterLock() }
            scheduleCompactionIfNeeded()
        }
    }

    /// Plans, writes and flushes a group, and publishes it.
    ///
    /// - Parameters:
    ///   - acknowledge: Called with the outcomes once the group is durable and the head names it, before the
    ///     in-memory index catches up (see ``LogState/publish(_:at:frames:events:acknowledge:)``); not called
    ///     when the group fails or writes nothing.
    /// - Returns: Each append's outcome.
    func commit(
        _ requests: [AppendRequest], prepared: [PreparedCommit?], acknowledge: ([Result<AppendResult, any Error>]) -> Void
    ) -> [Result<AppendResult, any Error>] {
        if let failure = stateLock.withLock({ failure }) { return requests.map { _ in .failure(failure) } }
        // A group of deferred appends is written, published to this process and left unflushed; any other group
        // flushes, and its flush covers the deferred frames before it too.
        let deferred = options.durability == .sync && requests.allSatisfy(\.defersFlush)
        do {
            let caughtUp = writerLockHeldSince != nil
            if !caughtUp {
                if writerLock == nil { writerLock = try FileDescriptor.open(writerLockPath, .readWriteCreate) }
                try writerLock!.lockExclusive()
                writerLockHeldSince = .now
            }
            // Whatever goes wrong, the next group starts from the files again.
            var keepLock = false
            defer { if !keepLock { releaseWriterLock() } }
            var group = try planGroupEncodingEarly(requests, prepared: prepared, caughtUp: caughtUp)
            guard let write = group.write else {
                // After a failure making room, the next group starts from the files again.
                keepLock = !group.failedToStart
                // An append that is not deferred answers from durable state only: a retry of a deferred append, or
                // a version that counts deferred events, waits for their flush.
                if !deferred, let e = stateLock.withLock({ () -> (any Error)? in
                    do { try flushLocked() } catch { return error }
                    return nil
                }) {
                    return requests.map { _ in .failure(e) }
                }
                return group.results
            }
            // Readers in this process go on while the group is written and flushed: the state they read
            // does not change until the frames are published below, and the head only moves then.
            do {
                try write.segment.fd.write(write.bytes, at: write.offset)
                if options.durability == .sync && !deferred { try write.segment.fd.synchronizeData() }
            } catch {
                // The bytes may be partly on disk; cut them off so the file ends at the last durable commit.
                // After a failed write or flush the page cache cannot be trusted: refuse further appends in
                // this process (reopen the store to continue), and fail every append of this group that depends on
                // the write.
                let e = EventStoreError(error)
                stateLock.withLock {
                    try? write.segment.fd.truncate(to: unflushed?.offset ?? write.offset)
                    failure = e
                    unflushed = nil
                }
                group.failDependents(e)
                return group.results
            }
            beforePublishingGroup?()
            do {
                try stateLock.withLock {
                    try state.publish(write.segment, at: write.offset, frames: write.frames, events: write.events, writeHead: !deferred) {
                        acknowledge(group.results)
                    }
                    if !deferred {
                        unflushed = nil
                    } else {
                        if unflushed == nil { unflushed = (write.segment, write.offset) }
                        unflushedFrames += write.frames.count
                    }
                }
            } catch {
                // Durable, but the head could not name it: the group is not committed. Nobody has seen it (readers
                // stop at the head, and this process holds the writer lock), so cut it off, or a later writer would
                // adopt appends that were reported failed. As after a failed write, this process
                // then refuses further appends.
                let e = (error as? SystemError).map { EventStoreError($0) } ?? .storeFailure("the head could not be written: \(error)")
                stateLock.withLock {
                    try? write.segment.fd.truncate(to: unflushed?.offset ?? write.offset)
                    try? write.segment.fd.synchronizeData()
                    failure = e
                    unflushed = nil
                }
                group.failDependents(e)
                return group.results
            }
            stateLock.withLock {
                // The group is committed now. Sealing and training are upkeep: if they fail, the commits stand,
                // and the next group (or open) tries again; they never turn a commit into a reported failure.
                if let a = state.active, a.endOffset >= UInt64(options.segmentSize) || a.eventCount >= UInt64(options.maxSegmentEvents) {
                    do {
                        // Only flushed frames are sealed in.
                        try flushLocked()
                        try state.sealActive()
                        try state.createActiveSegment()
                    } catch {}
                }
                if (try? state.dictionaryTrainingDue()) == true { trainInBackground() }
            }
            keepLock = true
            return group.results
        } catch let e as SystemError {
            return requests.map { _ in .failure(EventStoreError(e)) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// A planned group commit: each append's outcome, and the frames to write for those that write.
    struct PlannedGroup {
        struct Write {
            var segment: ActiveSegment
            var offset: UInt64
            var bytes: [UInt8]
            var frames: [(offsetInBatch: Int, length: Int, header: FrameHeader, payload: [UInt8])]
            var events: [AppendPlanner.PlannedEvent]
        }

        var results: [Result<AppendResult, any Error>]
        /// Per append: whether its outcome stands or falls with the group's write, because it writes, or because
        /// its planning saw what an earlier append of the group writes (a retry of it, a version after it).
        var dependsOnWrite: [Bool]
        var write: Write?
        /// Making room for the write failed: nothing was written.
        var failedToStart = false

        /// The group's write failed (or could not start): every append that depends on it fails with `error`;
        /// the others (retries of earlier groups' appends, appends refused on their own) keep their outcomes.
        mutating func failDependents(_ error: any Error) {
            for i in results.indices where dependsOnWrite[i] { results[i] = .failure(error) }
        }
    }

    /// The fewest events of an append whose ids are checked together (``LogState/noneCommitted(_:)``).
    static let batchIDCheckEntries = 64

    /// Plans and encodes a group under the state lock (and the writer lock), and makes room for it.
    ///
    /// - Parameter early: The first append's payload, being encoded meanwhile (``EarlyCommit``), waited for only
    ///   when the plan writes.
    func planGroup(_ requests: [AppendRequest], prepared: [PreparedCommit?], caughtUp: Bool, early: EarlyCommit? = nil) throws -> PlannedGroup {
        if !caughtUp { try state.refresh(writer: true) }
        var results: [Result<AppendResult, any Error>] = []
        var dependsOnWrite: [Bool] = []
        // What earlier appends of this group wrote, for the later ones to see (unused for a group of one).
        var versions: [StreamID: UInt64] = [:]
        // An id written earlier in the group: where its event is in `plannedEvents`, its position and time. The
        // record itself is built only in the rare case a later append of the group names the same id.
        var written: [UUID: (index: Int, position: UInt64, at: Timestamp)] = [:]
        let overlay = requests.count > 1
        var frames: [(offsetInBatch: Int, length: Int, header: FrameHeader, payload: [UInt8])] = []
        var plannedEvents: [AppendPlanner.PlannedEvent] = []
        var bytes: [UInt8] = []
        var position = state.nextPosition
        var lastAt = state.lastRecordedAt
        for (i, (request, prepared)) in zip(requests, prepared).enumerated() {
            var sawGroup = false
            // An append of many events asks every index once for all of its ids; nearly always none was committed.
            let onlyNewIDs =
                request.entries.count >= Self.batchIDCheckEntries
                && state.noneCommitted(request.entries.withUnsafeBufferPointer { entries in entries.indices.map { entries[$0].event.id } })
            do {
                let outcome = try AppendPlanner.plan(
                    request,
                    currentVersion: { s in
                        if overlay, let v = versions[s] {
                            sawGroup = true
                            return v
                        }
                        return try self.state.currentVersion(s)
                    },
                    committedEvent: { id in
                        if overlay, let w = written[id] {
                            sawGroup = true
                            let e = plannedEvents[w.index]
                            return RecordedEvent(
                                position: w.position, stream: e.stream, version: e.version, type: e.event.type, id: e.event.id,
                                recordedAt: w.at, metadata: e.event.metadata, data: e.event.data)
                        }
                        if onlyNewIDs { return nil }
                        return try self.state.committedEvent(id)
                    })
                switch outcome {
                case .alreadyCommitted(let result):
                    results.append(.success(result))
                    dependsOnWrite.append(sawGroup)
                case .write(let events, let streams):
                    guard !events.isEmpty else {
                        results.append(.success(AppendResult(firstPosition: nil, lastPosition: nil, streams: streams)))
                        dependsOnWrite.append(sawGroup)
                        continue
                    }
                    let at: Timestamp
                    if let imported = request.imported {
                        guard imported.position == position else {
                            throw EventStoreError.invalidRequest("the store's next position is \(position), the imported commit's is \(imported.position)")
                        }
                        guard imported.recordedAt >= lastAt else {
                            throw EventStoreError.invalidRequest("the commit imported at position \(position) is recorded before the store's last commit")
                        }
                        at = imported.recordedAt
                    } else {
                        at = max(Timestamp.now(), lastAt)
                    }
                    lastAt = at
                    // A segment an older build created may be read by it: no frame it cannot read goes there.
                    let columnarCommits = columnarCommitsAllowed()
                    let payload: [UInt8]
                    let stored: FrameIO.StoredPayload
                    if let prepared = prepared ?? (i == 0 ? early?.wait() : nil), prepared.matches(events),
                        prepared.columnar == columnarCommits || prepared.payload.count < FrameIO.dictionaryCommitLimit
                    {
                        payload = prepared.payload
                        stored = prepared.stored
                    } else {
                        payload = CommitCodec.encodeCommit(events)
                        stored = try FrameIO.storeCommit(
                            payload, underLoad: requests.count > 1, compressor: state.compressor,
                            level: options.commitCompressionLevel, dictionary: { try state.dictionaries.newest().map { ($0.id, $0.commit) } },
                            helper: state.helperCompressor, columnar: columnarCommits)
                    }
                    let start = bytes.count
                    let header = FrameIO.encode(
                        type: .commit, firstPosition: position, eventCount: events.count, commitCount: 1, firstRecordedAt: at,
                        lastRecordedAt: at, stored: stored, groupIndex: UInt16(min(unflushedFrames + frames.count, Int(UInt16.max))),
                        into: &bytes)
                    frames.append((start, bytes.count - start, header, payload))
                    // Only now that nothing can fail is the append part of the group for the appends after it: an
                    // append that failed above must leave no versions or ids behind.
                    if overlay {
                        // Only what it writes: a stream it merely expected reads the same from the files.
                        for (i, e) in events.enumerated() {
                            versions[e.stream] = e.version
                            written[e.event.id] = (plannedEvents.count + i, position + UInt64(i), at)
                        }
                    }
                    plannedEvents.append(contentsOf: events)
                    results.append(.success(AppendResult(firstPosition: position, lastPosition: position + UInt64(events.count) - 1, streams: streams)))
                    dependsOnWrite.append(true)
                    position += UInt64(events.count)
                }
            } catch {
                results.append(.failure(error))
                dependsOnWrite.append(sawGroup)
            }
        }
        var group = PlannedGroup(results: results, dependsOnWrite: dependsOnWrite, write: nil)
        guard !frames.isEmpty else { return group }
        do {
            // A roll seals the active segment, and the head then names the next one: the deferred frames are
            // flushed first, so that they are sealed in durable and the flush that follows has the new segment's.
            if unflushed != nil, state.wouldRoll(bytes: bytes.count, events: plannedEvents.count) { try flushLocked() }
            let (segment, offset) = try state.prepareAppend(bytes: bytes.count, events: plannedEvents.count)
            group.write = .init(segment: segment, offset: offset, bytes: bytes, frames: frames, events: plannedEvents)
        } catch {
            // Nothing of the group was written: only the appends that depend on its write fail.
            group.failedToStart = true
            group.failDependents(EventStoreError.reported(error))
        }
        return group
    }
}
