import BenchSupport
import EventLog
import EventLogFile
import Events
import Foundation
import Projections

/// How "ours" rebuilds every projection of the catalog from the file store. The benchmark only needs the states at
/// the end, so `ProjectionEngine` (checkpoints, rebuild, snapshots, time travel) can replace ``DirectFold`` by a new
/// conformance whose `rebuild` runs the engine's rebuild of every projection and returns their encoded states;
/// then add it to ``oursRebuilders`` (first, to make it the default).
protocol ProjectionRebuilder: Sendable {
    /// What the report calls it.
    var label: String { get }
    /// Rebuilds every projection from the store at `path` and returns their states.
    func rebuild(storePath path: String, types: TypeSelection) async throws -> RebuildOutcome
}

/// The rebuilders the benchmark can measure as "ours", by `--ours` name; the first is the default.
let oursRebuilders: [(name: String, rebuilder: any ProjectionRebuilder)] = [
    ("engine", EngineRebuild()),
    ("direct", DirectFold()),
    ("pipelined", PipelinedFold()),
]

/// Until the engine lands: read the store in large pages, decode with the domain catalog only the types some
/// projection lists (the store skips the others before materializing them), and apply each projection that
/// lists the type, in position order.
struct DirectFold: ProjectionRebuilder {
    /// Events per page: 4,096 measured fastest here (1,024 pays per page; 16,384 and more spill the caches and
    /// hold more memory).
    var pageSize = 4_096

    var label: String { "direct fold (forEachPage .all, EventCatalog.domain)" }

    func rebuild(storePath path: String, types: TypeSelection) async throws -> RebuildOutcome {
        let set = FoldSet(types)
        let store = try FileEventStore.open(path: path)
        defer { store.close() }
        var outcome = RebuildOutcome()
        let filter: Set<String>? = types == .all ? nil : set.decodedTypes
        try await store.forEachPage(.all, eventTypes: filter, pageSize: pageSize) { page in
            outcome.eventsRead += page.count
            for recorded in page {
                guard let route = set.routes[recorded.type] else { continue }
                let event = try route.type.decoded(from: recorded.data)
                outcome.eventsDecoded += 1
                guard !route.folds.isEmpty else { continue }
                let projected = ProjectedEvent(
                    position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt,
                    metadata: recorded.metadata, event: event)
                for fold in route.folds { try fold.apply(projected) }
                outcome.applications += route.folds.count
            }
            return true
        }
        outcome.states = set.states()
        return outcome
    }
}

/// The direct fold on both cores: the store's reading (decompression, parsing, materializing pages) on one thread,
/// decoding and applying on another, with at most a few pages in flight. Not what the runtime does yet: an
/// experiment that shows what a two-stage rebuild gains on this machine (`--ours pipelined`).
struct PipelinedFold: ProjectionRebuilder {
    var pageSize = 4_096
    /// Pages read ahead of the folding thread.
    var depth = 4

    var label: String { "pipelined fold (reader thread + decode/apply thread)" }

    func rebuild(storePath path: String, types: TypeSelection) async throws -> RebuildOutcome {
        let set = FoldSet(types)
        let store = try FileEventStore.open(path: path)
        defer { store.close() }
        let queue = PageQueue(depth: depth)
        let folder = Folder(set: set, queue: queue)
        let thread = Thread { folder.run() }
        thread.stackSize = 8 << 20
        thread.start()
        let filter: Set<String>? = types == .all ? nil : set.decodedTypes
        do {
            try await store.forEachPage(.all, eventTypes: filter, pageSize: pageSize) { page in
                queue.put(page)
                return !queue.isCancelled
            }
        } catch {
            queue.finish()
            folder.done.wait()
            throw error
        }
        queue.finish()
        folder.done.wait()
        if let error = folder.error { throw error }
        var outcome = folder.outcome
        outcome.states = set.states()
        return outcome
    }

    /// A bounded queue of pages between the two threads; `nil` ends it.
    final class PageQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var pages: [[RecordedEvent]] = []
        private var finished = false
        private(set) var isCancelled = false
        private let depth: Int

        init(depth: Int) { self.depth = depth }

        func put(_ page: [RecordedEvent]) {
            condition.lock()
            while pages.count >= depth && !isCancelled { condition.wait() }
            pages.append(page)
            condition.broadcast()
            condition.unlock()
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        func cancel() {
            condition.lock()
            isCancelled = true
            pages = []
            condition.broadcast()
            condition.unlock()
        }

        func take() -> [RecordedEvent]? {
            condition.lock()
            defer { condition.unlock() }
            while pages.isEmpty && !finished { condition.wait() }
            guard !pages.isEmpty else { return nil }
            let page = pages.removeFirst()
            condition.broadcast()
            return page
        }
    }

    /// The folding thread's side: decode and apply each page in order.
    final class Folder: @unchecked Sendable {
        let set: FoldSet
        let queue: PageQueue
        let done = DispatchSemaphore(value: 0)
        var outcome = RebuildOutcome()
        var error: (any Error)?

        init(set: FoldSet, queue: PageQueue) {
            self.set = set
            self.queue = queue
        }

        func run() {
            defer { done.signal() }
            do {
                while let page = queue.take() {
                    outcome.eventsRead += page.count
                    for recorded in page {
                        guard let route = set.routes[recorded.type] else { continue }
                        let event = try route.type.decoded(from: recorded.data)
                        outcome.eventsDecoded += 1
                        guard !route.folds.isEmpty else { continue }
                        let projected = ProjectedEvent(
                            position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt,
                            metadata: recorded.metadata, event: event)
                        for fold in route.folds { try fold.apply(projected) }
                        outcome.applications += route.folds.count
                    }
                }
            } catch {
                self.error = error
                queue.cancel()
            }
        }
    }
}
