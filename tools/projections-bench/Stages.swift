import BenchSupport
import EventLog
import EventLogFile
import EventLogSealing
import Events
import Foundation
import Projections

/// `pawtrail-projections-bench stages`: where ours spends its time, stage by stage, in one process on a warm
/// page cache: each pass adds one stage to the one before, so the differences are the stages' costs.
enum Stages {
    static func run(_ options: Options, storePath: String, events: Int) async throws {
        let set = FoldSet(options.types)
        let filter: Set<String>? = options.types == .all ? nil : set.decodedTypes
        let pageSize = 16_384

        var folded: FoldSet?
        func pass(_ stage: Int) async throws -> Double {
            let fresh = FoldSet(options.types)
            defer { folded = fresh }
            let start = ContinuousClock.now
            let file = try FileEventStore.open(path: storePath)
            defer { file.close() }
            let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: storePath))
            var sink: Int64 = 0
            try await store.forEachPage(.all, eventTypes: filter, pageSize: pageSize) { page in
                for recorded in page {
                    sink &+= Int64(recorded.data.count)
                    guard stage >= 1, let route = fresh.routes[recorded.type] else { continue }
                    let event = try route.type.decoded(from: recorded.data)
                    guard stage >= 2, !route.folds.isEmpty else { continue }
                    let projected = ProjectedEvent(
                        position: recorded.position, stream: recorded.stream, recordedAt: recorded.recordedAt,
                        metadata: recorded.metadata, event: event)
                    sink &+= Int64(projected.position & 1)
                    if stage >= 4 { sink &+= projected.occurredAt.microsecondsSinceEpoch & 1 }
                    if stage >= 3 { for fold in route.folds { try fold.apply(projected) } }
                }
                return true
            }
            if sink == 42 { print("") }
            return (ContinuousClock.now - start) / .seconds(1)
        }

        _ = try await pass(0)
        let names = [
            "open + read pages (forEachPage, RecordedEvent materialized)", "+ decode (EventCatalog types)",
            "+ ProjectedEvent built (events some projection lists)", "+ apply (every projection listing the type)",
            "+ occurredAt read once per event (metadata scan + ISO-8601 parse)",
        ]
        print("stages of ours over \(events) events (`--types \(options.types.rawValue)`, \(set.routes.count) types decoded; fastest of 5 passes, the least disturbed by other load):")
        var previous = 0.0
        for stage in 0..<names.count {
            var times: [Double] = []
            for _ in 0..<5 { times.append(try await pass(stage)) }
            let t = times.min()!
            print(
                "  " + names[stage].padding(toLength: 66, withPad: " ", startingAt: 0)
                    + String(format: "%6.3f s  (stage %+6.3f s, %5.0f ns/event)  %9.0f events/s", t, t - previous, (t - previous) / Double(events) * 1e9, Double(events) / t))
            previous = t
        }
        try codec(folded!)
        try await dispatch(storePath: storePath)
    }

    /// What checkpoints and snapshots cost per projection: encoding the folded state, and decoding it back (the
    /// start of a time travel or a catch-up).
    static func codec(_ set: FoldSet) throws {
        print("states (fastest of 3): bytes, encode, decode")
        for fold in set.folds {
            var encode = Double.infinity
            var decode = Double.infinity
            var bytes: [UInt8] = []
            for _ in 0..<3 {
                let t0 = ContinuousClock.now
                bytes = fold.encodedState()
                let t1 = ContinuousClock.now
                try fold.decodeState(bytes)
                let t2 = ContinuousClock.now
                encode = min(encode, (t1 - t0) / .seconds(1))
                decode = min(decode, (t2 - t1) / .seconds(1))
            }
            print(
                "  " + fold.name.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(format: "%12d B  encode %7.1f ms (%5.0f MB/s)  decode %7.1f ms (%5.0f MB/s)", bytes.count, encode * 1e3, Double(bytes.count) / encode / 1e6, decode * 1e3, Double(bytes.count) / decode / 1e6))
        }
    }

    /// How much of `apply` is finding the event's type: the inventory fold as written (a `switch` of `case let x as
    /// T` casts on `any DomainEvent`) against the same updates reached by the type's `ObjectIdentifier` first.
    static func dispatch(storePath: String) async throws {
        let types = InventoryProjection.eventTypes
        var events: [ProjectedEvent] = []
        let file = try FileEventStore.open(path: storePath)
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: storePath))
        try await store.forEachPage(.all, eventTypes: types, pageSize: 16_384) { page in
            for r in page {
                guard let e = try EventCatalog.domain.decode(type: r.type, data: r.data) else { continue }
                events.append(ProjectedEvent(position: r.position, stream: r.stream, recordedAt: r.recordedAt, metadata: r.metadata, event: e))
            }
            return true
        }
        file.close()
        func time(_ body: () throws -> InventoryProjection.State) rethrows -> (Double, InventoryProjection.State) {
            var best = Double.infinity
            var state = InventoryProjection.State()
            for _ in 0..<5 {
                let start = ContinuousClock.now
                state = try body()
                best = min(best, (ContinuousClock.now - start) / .seconds(1))
            }
            return (best, state)
        }
        let (cast, castState) = try time {
            var state = InventoryProjection.State()
            for e in events { try InventoryProjection.apply(&state, e) }
            return state
        }
        let (routed, routedState) = time {
            var state = InventoryProjection.State()
            for e in events { RoutedInventory.apply(&state, e) }
            return state
        }
        precondition(castState == routedState, "the routed inventory fold differs from the projection")
        let n = Double(events.count)
        print(
            String(
                format: "inventory apply over its %d events: %.0f ns/event as written (cast chain), %.0f ns/event routed by ObjectIdentifier with rows changed in place, same state",
                events.count, cast / n * 1e9, routed / n * 1e9))
    }
}

/// The inventory fold with the type found once by `ObjectIdentifier`, the value taken with one `as!`, and rows
/// changed in place with one dictionary lookup (a measurement aid for ``Stages/dispatch(storePath:)``, not a
/// projection).
enum RoutedInventory {
    static let listed = ObjectIdentifier(ProductListed.self)
    static let delisted = ObjectIdentifier(ProductDelisted.self)
    static let relisted = ObjectIdentifier(ProductRelisted.self)
    static let received = ObjectIdentifier(StockReceived.self)
    static let adjusted = ObjectIdentifier(StockAdjusted.self)
    static let reserved = ObjectIdentifier(StockReserved.self)
    static let released = ObjectIdentifier(StockReleased.self)
    static let fulfilled = ObjectIdentifier(StockReservationFulfilled.self)
    static let sold = ObjectIdentifier(StockSoldInStore.self)

    @inline(__always)
    static func update(_ row: inout InventoryProjection.Row, _ body: (inout InventoryProjection.Row) -> Void) { body(&row) }

    static func apply(_ state: inout InventoryProjection.State, _ e: ProjectedEvent) {
        typealias Row = InventoryProjection.Row
        switch ObjectIdentifier(type(of: e.event)) {
        case listed:
            let x = e.event as! ProductListed
            var row = state.products[x.productId] ?? Row()
            row.name = x.name
            row.category = x.category
            row.listed = true
            state.products[x.productId] = row
        case delisted: state.products[(e.event as! ProductDelisted).productId, default: Row()].listed = false
        case relisted: state.products[(e.event as! ProductRelisted).productId, default: Row()].listed = true
        case received:
            let x = e.event as! StockReceived
            state.products[x.productId, default: Row()].onHand += x.quantity
        case adjusted:
            let x = e.event as! StockAdjusted
            state.products[x.productId, default: Row()].onHand += x.delta
        case reserved:
            let x = e.event as! StockReserved
            state.products[x.productId, default: Row()].reserved += x.quantity
        case released:
            let x = e.event as! StockReleased
            state.products[x.productId, default: Row()].reserved -= x.quantity
        case fulfilled:
            // One lookup, the row changed in place (no copy of its strings out of the dictionary and back).
            let x = e.event as! StockReservationFulfilled
            update(&state.products[x.productId, default: Row()]) { row in
                row.reserved -= x.quantity
                row.onHand -= x.quantity
                row.sold += x.quantity
            }
        case sold:
            let x = e.event as! StockSoldInStore
            update(&state.products[x.productId, default: Row()]) { row in
                row.onHand -= x.quantity
                row.sold += x.quantity
            }
        default:
            return
        }
    }
}
