import EventLog
import Foundation
import Testing

/// Concurrent writers within one process.
struct ConcurrencyCases {
    /// Optimistic concurrency on one stream: each writer reads the version, appends at exactly that version, and
    /// retries on wrongExpectedVersion. Every write lands once, at its own version: no duplicate version, no lost
    /// update, gapless positions.
    static func writersRacingOnOneStreamWithExactVersionsLoseNothing(_ h: any StoreHarness) async throws {
        let store = h.store
        let writers = 12
        let appendsPerWriter = 8
        let stream: StreamID = "counter-1"
        let conflicts = try await withThrowingTaskGroup(of: Int.self) { group in
            for w in 0..<writers {
                group.addTask {
                    var conflicts = 0
                    for i in 0..<appendsPerWriter {
                        let e = event("Incremented", "{\"writer\":\(w),\"i\":\(i)}")
                        while true {
                            let current = try await store.streamVersion(of: stream)
                            let expected: ExpectedVersion = current.map { .exact($0) } ?? .noStream
                            do {
                                let r = try await store.append(to: stream, expected: expected, [e])
                                #expect(r.streams == [.init(stream: stream, version: current.map { $0 + 1 } ?? 0)])
                                break
                            } catch let error as EventStoreError where error.code == .wrongExpectedVersion {
                                let (s, exp, actual) = try #require(error.conflict)
                                #expect(s == stream)
                                #expect(exp == expected)
                                #expect(actual != current)
                                conflicts += 1
                            }
                        }
                    }
                    return conflicts
                }
            }
            var total = 0
            for try await c in group { total += c }
            return total
        }
        _ = conflicts  // contention varies from run to run; nothing to assert about it
        let total = writers * appendsPerWriter
        let read = try await store.events(of: stream)
        #expect(read.count == total)
        #expect(read.map(\.version) == Array(0..<UInt64(total)))
        #expect(read.map(\.position) == Array(0..<UInt64(total)))
        #expect(Set(read.map(\.id)).count == total)
        // Each writer's events are all there, in its own order.
        for w in 0..<writers {
            let mine = read.compactMap { e -> Int? in
                let text = String(decoding: e.data, as: UTF8.self)
                guard text.hasPrefix("{\"writer\":\(w),") else { return nil }
                return Int(text.split(separator: ":").last!.dropLast())
            }
            #expect(mine == Array(0..<appendsPerWriter), "writer \(w)")
        }
        #expect(try await store.lastPosition() == UInt64(total - 1))
    }

    /// Many writers on their own streams at once (group commit territory): positions stay gapless and every
    /// stream's versions are 0-based and gapless, each append's events contiguous.
    static func writersOnTheirOwnStreamsInterleaveWithoutGaps(_ h: any StoreHarness) async throws {
        let store = h.store
        let writers = 16
        let appends = 6
        let results = try await withThrowingTaskGroup(of: [AppendResult].self) { group in
            for w in 0..<writers {
                group.addTask {
                    let stream = try StreamID("writer-\(w)")
                    var out: [AppendResult] = []
                    for i in 0..<appends {
                        let n = i % 3 + 1
                        out.append(try await store.append(to: stream, expected: i == 0 ? .noStream : .streamExists, events(n)))
                    }
                    return out
                }
            }
            var all: [AppendResult] = []
            for try await r in group { all += r }
            return all
        }
        let total = writers * (0..<appends).reduce(0) { $0 + $1 % 3 + 1 }
        let read = try await store.readAll()
        #expect(read.map(\.position) == Array(0..<UInt64(total)))
        // Each append's positions are its own and contiguous.
        var covered = Set<UInt64>()
        for r in results {
            let first = try #require(r.firstPosition)
            let last = try #require(r.lastPosition)
            for p in first...last { #expect(covered.insert(p).inserted, "position \(p) reported by two appends") }
            #expect(Set(read[Int(first)...Int(last)].map(\.stream)).count == 1)
        }
        #expect(covered.count == total)
        for w in 0..<writers {
            let s = try StreamID("writer-\(w)")
            let mine = read.filter { $0.stream == s }
            #expect(mine.map(\.version) == Array(0..<UInt64(mine.count)))
        }
        for (a, b) in zip(read, read.dropFirst()) { #expect(a.recordedAt <= b.recordedAt) }
    }

    /// Readers running during writes never see part of a commit and never see positions go backwards.
    static func readersNeverSeePartOfACommit(_ h: any StoreHarness) async throws {
        let store = h.store
        let batches = 20
        let batchSize = 5
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for b in 0..<batches {
                    try await store.append(to: try StreamID("batch-\(b % 3)"), events(batchSize))
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    var last: UInt64? = nil
                    while last.map({ $0 < UInt64(batches * batchSize - 1) }) ?? true {
                        let all = try await store.readAll(pageSize: 1000)
                        #expect(all.count % batchSize == 0, "a read saw \(all.count) events: part of a commit")
                        #expect(all.map(\.position) == Array(0..<UInt64(all.count)))
                        if let p = try await store.lastPosition() {
                            #expect(last.map { p >= $0 } ?? true, "lastPosition went backwards")
                            #expect((p + 1) % UInt64(batchSize) == 0, "lastPosition \(p) inside a commit")
                            last = p
                        }
                        await Task.yield()
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Appends that land in one group commit must each be planned against the ones before them in the group.
    static func racingAppendsWithNoStreamCreateTheStreamOnce(_ h: any StoreHarness) async throws {
        let store = h.store
        let outcomes = try await withThrowingTaskGroup(of: UInt64?.self) { group in
            for i in 0..<10 {
                group.addTask {
                    do {
                        return try await store.append(to: "order-1", expected: .noStream, [event("Placed", "{\"i\":\(i)}")]).firstPosition
                    } catch let error as EventStoreError where error.code == .wrongExpectedVersion {
                        let (s, expected, actual) = try #require(error.conflict)
                        #expect(s == "order-1")
                        #expect(expected == .noStream)
                        #expect(actual == 0)
                        return nil
                    }
                }
            }
            var out: [UInt64?] = []
            for try await o in group { out.append(o) }
            return out
        }
        #expect(outcomes.compactMap { $0 } == [0])
        #expect(try await store.events(of: "order-1").count == 1)
        #expect(try await store.lastPosition() == 0)
    }

    static func racingAppendsReusingOneIDOnDifferentStreamsCommitOnce(_ h: any StoreHarness) async throws {
        let store = h.store
        let shared = event("Shared", id: uuid(99))
        let outcomes = try await withThrowingTaskGroup(of: StreamID?.self) { group in
            for i in 0..<8 {
                group.addTask {
                    let s = try StreamID("target-\(i)")
                    do {
                        try await store.append(to: s, [shared])
                        return s
                    } catch let error as EventStoreError where error.code == .idempotencyConflict {
                        #expect(error.eventID == uuid(99))
                        return nil
                    }
                }
            }
            var out: [StreamID?] = []
            for try await o in group { out.append(o) }
            return out
        }
        let winners = outcomes.compactMap { $0 }
        #expect(winners.count == 1)
        let all = try await store.readAll()
        #expect(all.count == 1)
        #expect(all.first?.stream == winners.first)
    }

    /// A group of appends where some fail their expectations: the others commit, with gapless positions.
    static func failuresInAGroupDoNotDisturbTheOthers(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "fixed-1", events(1))
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<20 {
                group.addTask {
                    if i % 2 == 0 {
                        try await store.append(to: try StreamID("free-\(i)"), expected: .noStream, events(2))
                        return true
                    }
                    // Always wrong: fixed-1 stays at version 0 (nobody else writes it).
                    await expectError(.wrongExpectedVersion(stream: "fixed-1", expected: .exact(5), actual: 0)) {
                        try await store.append(to: "fixed-1", expected: .exact(5), events(1))
                    }
                    return false
                }
            }
            var out: [Bool] = []
            for try await r in group { out.append(r) }
            return out
        }
        #expect(results.filter { $0 }.count == 10)
        let all = try await store.readAll()
        #expect(all.map(\.position) == Array(0..<21))
        #expect(try await store.streamVersion(of: "fixed-1") == 0)
    }

    /// Identical appends racing (a client retrying before its first try returned): whichever lands first writes,
    /// and every other one, in the same group commit or a later one, is a retry that reports the same place.
    static func racingIdenticalAppendsAllReportTheOneCommit(_ h: any StoreHarness) async throws {
        let store = h.store
        try await store.append(to: "other-1", events(3))
        // Several rounds, so that some retries surely share a group commit with the append they repeat.
        for round in 0..<10 {
            let stream = try StreamID("order-\(round)")
            let batch = [event("Placed", "{\"n\":1}", id: uuid(100 + 2 * round)), event("Paid", "{\"n\":2}", id: uuid(101 + 2 * round))]
            let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await store.append(to: stream, expected: .noStream, batch) }
                }
                var out: [AppendResult] = []
                for try await r in group { out.append(r) }
                return out
            }
            let first = UInt64(3 + 2 * round)
            #expect(results.filter { !$0.wasAlreadyCommitted }.count == 1)
            for r in results {
                #expect(r.firstPosition == first)
                #expect(r.lastPosition == first + 1)
                #expect(r.streams == [.init(stream: stream, version: 1)])
            }
        }
        let all = try await store.readAll()
        #expect(all.count == 23)
        #expect(all.dropFirst(3).map(\.id) == (0..<20).map { uuid(100 + $0) })
    }
}
