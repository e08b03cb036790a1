import EventLog
import Events
import Projections

/// One pass over the log that feeds every folder the events of its types, in position order, decoding each event
/// once. Folders must all start after the same position.
struct FoldPass {
    let store: any EventStore
    let catalog: EventCatalog
    let folders: [AnyFolder]
    /// Per event type read: its Swift type (`nil` when the catalog has none) and the folders that read it, found
    /// with one lookup per event; `referencing` are those among them that fold personal values as references.
    private let byType: [String: Route]

    private struct Route {
        var type: (any DomainEvent.Type)?
        var folders: [AnyFolder] = []
        var referencing = 0
    }

    /// Why an event of a read type is not folded.
    static let notDomainEncoded = "its data is not in the domain's binary encoding (raw data appended with 'log append'?)"

    init(store: any EventStore, catalog: EventCatalog, folders: [AnyFolder]) {
        self.store = store
        self.catalog = catalog
        self.folders = folders
        var byType: [String: Route] = [:]
        // Folders that take references come first in each route, so that one decode of each kind serves a run.
        for f in folders.sorted(by: { $0.foldsPersonalReferences && !$1.foldsPersonalReferences }) {
            for t in f.eventTypes {
                byType[t, default: Route(type: catalog.eventType(named: t))].folders.append(f)
                if f.foldsPersonalReferences { byType[t]!.referencing += 1 }
            }
        }
        self.byType = byType
    }

    /// Folds events after `start` up to and including `end`.
    ///
    /// - Parameters:
    ///   - start: The last position already folded, `nil` for none.
    ///   - end: The last position to fold.
    ///   - afterPage: Called after each page with the last position read and the events read so far.
    /// - Returns: The number of events read (those of the types the folders read).
    /// - Throws: ``ProjectionFailure`` naming the event a projection failed on; store errors.
    @discardableResult
    func run(after start: UInt64?, through end: UInt64, afterPage: (UInt64, Int) throws -> Void = { _, _ in }) async throws -> Int {
        var from: UInt64 = start.map { $0 + 1 } ?? 0
        guard from <= end else { return 0 }
        let types = Set(byType.keys)
        var read = 0
        while from <= end {
            let limit = Int(min(UInt64(8192), end - from + 1))
            var batch = try await store.read(ReadRequest(source: .all, from: from, limit: limit, eventTypes: types))
            // Each event is moved out of the page as it is folded, not copied (a copy retains and releases its stream,
            // type, metadata and data), and freed right after, while the allocator still has its blocks at hand.
            var events = batch.events
            batch.events = []
            // Through the buffer: Array's own reverse copies each element as it swaps.
            events.withUnsafeMutableBufferPointer { $0.reverse() }
            while let recorded = events.popLast() {
                guard recorded.position <= end else { continue }
                read += 1
                try fold(recorded)
            }
            let last: UInt64
            if let next = batch.next, next <= end + 1 {
                last = next - 1
                from = next
            } else {
                last = end
                from = end + 1
            }
            for folder in folders {
                folder.position = last
                folder.pageFolded(at: last)
            }
            try afterPage(last, read)
            if batch.next == nil { break }
        }
        return read
    }

    /// Decodes one event once and folds it into every folder that reads its type: once with personal values as
    /// references for the folders that keep them so, once more with them opened for the others when it has any.
    @inline(__always)
    private func fold(_ recorded: consuming RecordedEvent) throws {
        guard let route = byType[recorded.type] else { return }
        let interested = route.folders
        var event: any DomainEvent
        var personal = 0
        do {
            // A projection reads this type, so an event it cannot decode is a failure, never a skip: raw
            // JSON appended with `log append` under a domain type name lands here.
            guard let type = route.type, DomainEventCodec.isDomainEncoded(recorded.data) else {
                throw ProjectionError(Self.notDomainEncoded)
            }
            if route.referencing > 0 {
                (event, personal) = try type.decoded(from: recorded.data, referencingPersonalValuesAt: recorded.position)
            } else {
                event = try type.decoded(from: recorded.data)
            }
        } catch {
            throw ProjectionFailure(
                projection: interested[0].name, position: recorded.position, stream: recorded.stream.rawValue,
                type: recorded.type, message: "the event does not decode: \(error)")
        }
        var projected = ProjectedEvent(
            position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt,
            metadata: recorded.metadata, event: event)
        for (i, folder) in interested.enumerated() {
            if i == route.referencing && personal > 0 {
                do {
                    projected.event = try route.type!.decoded(from: recorded.data)
                } catch {
                    throw ProjectionFailure(
                        projection: folder.name, position: recorded.position, stream: recorded.stream.rawValue,
                        type: recorded.type, message: "the event does not decode: \(error)")
                }
            }
            do {
                try folder.apply(projected)
            } catch {
                throw ProjectionFailure(
                    projection: folder.name, position: recorded.position, stream: recorded.stream.rawValue,
                    type: recorded.type, message: error.message)
            }
            // A stored row that could not be read was read as missing: nothing folded from it may go on.
            if let failure = folder.readFailure { throw failure }
            folder.applied += 1
        }
    }
}
