import BenchSupport
import EventLog
import Events
import Projections

/// Which event types a side decodes.
enum TypeSelection: String, Codable, Sendable {
    /// Only the types some projection of the catalog lists (what a rebuild needs).
    case projections
    /// Every type of the domain catalog, whether or not a projection lists it: the decode path at full load,
    /// whatever projections exist yet.
    case all
}

/// One projection's state being folded, behind a class so the state is mutated in place.
protocol ProjectionFold: AnyObject {
    var name: String { get }
    var eventTypes: Set<String> { get }
    /// Applies one event, naming the projection, position, stream and type when the fold fails.
    func apply(_ event: ProjectedEvent) throws
    /// The state in the field encoding checkpoints store (dictionaries sorted by key, so equal states have equal bytes).
    func encodedState() -> [UInt8]
    /// Decodes an encoded state (and drops it): what loading a checkpoint or snapshot costs.
    func decodeState(_ bytes: [UInt8]) throws
}

final class Fold<P: Projection>: ProjectionFold {
    var state = P.State()
    var name: String { P.name }
    var eventTypes: Set<String> { P.eventTypes }

    func apply(_ event: ProjectedEvent) throws {
        do {
            try P.apply(&state, event)
        } catch {
            throw FoldError(
                "projection \(P.name) failed on event \(event.position) (\(event.stream), \(event.event.eventType)): \(error)")
        }
    }

    func encodedState() -> [UInt8] {
        state.encoded()
    }

    func decodeState(_ bytes: [UInt8]) throws {
        // Kept alive to the end, so the decoding is timed whole and not optimized away.
        withExtendedLifetime(try P.State(encoded: bytes)) {}
    }
}

struct FoldError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Every projection of ``ProjectionCatalog`` with its state, and for each event type the folds that read it: both
/// sides fold through this, with the very same `apply` functions.
final class FoldSet {
    /// What one event type needs: its Swift type and the folds that list it (possibly none, with `.all`).
    struct Route {
        var type: any DomainEvent.Type
        var folds: [any ProjectionFold]
    }

    let folds: [any ProjectionFold]
    /// By type name: the types to decode.
    let routes: [String: Route]

    init(_ selection: TypeSelection, catalog: EventCatalog = .domain) {
        folds = ProjectionCatalog.projections.map { Self.fold($0) }
        var routes: [String: Route] = [:]
        for entry in catalog.entries {
            let readers = folds.filter { $0.eventTypes.contains(entry.type) }
            if selection == .all || !readers.isEmpty {
                routes[entry.type] = Route(type: entry.eventType, folds: readers)
            }
        }
        self.routes = routes
    }

    /// The type names decoded.
    var decodedTypes: Set<String> { Set(routes.keys) }

    private static func fold<P: Projection>(_ projection: P.Type) -> any ProjectionFold { Fold<P>() }

    /// The encoded states, in catalog order.
    func states() -> [(name: String, bytes: [UInt8])] {
        folds.map { ($0.name, $0.encodedState()) }
    }
}

/// What one side did: counts for the report and the encoded states for the equality check.
struct RebuildOutcome {
    /// Events the side read from its storage (filtered reads skip the rest before they are materialized).
    var eventsRead = 0
    /// Events decoded into domain values.
    var eventsDecoded = 0
    /// Calls of `apply` over all projections.
    var applications = 0
    /// Each projection's encoded state.
    var states: [(name: String, bytes: [UInt8])] = []
    /// The rebuild's own time, when getting the states out for the check costs more than having them (ours reads
    /// its checkpoints back); `nil` to time the whole call.
    var seconds: Double?
}
