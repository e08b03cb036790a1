public import EventLog
public import Events
public import PawtrailJSON
public import Projections

/// Opens the personal values that read models keep as tokens (``Events/PersonalReference``) in what a view or an
/// export shows: each token is replaced by the value in the event it names, read from the log through the store,
/// which opens it with its subject's key, or reads it as erased when the key is gone. Each event is read once.
///
/// A view renders its rows from the state; ``resolve(_:)-(String)`` and its siblings then open the tokens in them,
/// so the views themselves stay pure functions of the state.
public final class PersonalValueResolver {
    /// What a token shows when its event is not in the log or has fewer personal values (a read model that does
    /// not belong to this log, which its resume check rebuilds).
    public static let missingText = "[missing]"

    private let store: any EventStore
    private let catalog: EventCatalog
    private let index: (any PersonalIndex)?
    private var values: [UInt64: [String]] = [:]

    /// Creates a resolver.
    ///
    /// - Parameters:
    ///   - store: The store the tokens' events are read from: one that opens personal sections.
    ///   - catalog: The event types.
    ///   - index: A personal index whose remembered values are taken before the log is read, caught up to the
    ///     position of what is shown or beyond.
    public init(store: any EventStore, catalog: EventCatalog = .domain, index: (any PersonalIndex)? = nil) {
        self.store = store
        self.catalog = catalog
        self.index = index
    }

    /// A string with its tokens opened.
    ///
    /// - Parameter text: A string a view or an export shows.
    /// - Returns: The string with each token replaced by its value.
    /// - Throws: What reading the store throws.
    public func resolve(_ text: String) async throws -> String {
        guard PersonalReference.mayHoldTokens(text) else { return text }
        let pieces = PersonalReference.pieces(of: text)
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let t): out += t
            case .reference(let r): out += try await value(r)
            }
        }
        return out
    }

    /// Rows of strings with their tokens opened.
    public func resolve(_ rows: [[String]]) async throws -> [[String]] {
        try await prefetch(rows.lazy.flatMap { $0 })
        var out = rows
        for i in out.indices {
            for j in out[i].indices where PersonalReference.mayHoldTokens(out[i][j]) { out[i][j] = try await resolve(out[i][j]) }
        }
        return out
    }

    /// A JSON value with the tokens in its strings and keys opened.
    public func resolve(_ json: JSONValue) async throws -> JSONValue {
        var strings: [String] = []
        Self.collect(json, into: &strings)
        try await prefetch(strings)
        return try await resolving(json)
    }

    private static func collect(_ json: JSONValue, into strings: inout [String]) {
        switch json {
        case .string(let s): if PersonalReference.mayHoldTokens(s) { strings.append(s) }
        case .array(let items): for item in items { collect(item, into: &strings) }
        case .object(let pairs):
            for p in pairs {
                if PersonalReference.mayHoldTokens(p.key) { strings.append(p.key) }
                collect(p.value, into: &strings)
            }
        case .null, .bool, .int, .uint, .raw: return
        }
    }

    /// Takes the values of the tokens in these strings from the index, all at once, where it remembers them.
    private func prefetch(_ strings: some Sequence<String>) async throws {
        guard let index else { return }
        var wanted: Set<UInt64> = []
        for s in strings where PersonalReference.mayHoldTokens(s) {
            for case .reference(let r) in PersonalReference.pieces(of: s) where values[r.position] == nil { wanted.insert(r.position) }
        }
        guard !wanted.isEmpty else { return }
        for (position, known) in try await index.values(at: wanted.sorted()) { values[position] = known }
    }

    private func resolving(_ json: JSONValue) async throws -> JSONValue {
        switch json {
        case .string(let s): return PersonalReference.mayHoldTokens(s) ? .string(try await resolve(s)) : json
        case .array(let items):
            var out = items
            for i in out.indices { out[i] = try await resolving(out[i]) }
            return .array(out)
        case .object(let pairs):
            var out = pairs
            for i in out.indices {
                out[i].value = try await resolving(out[i].value)
                if PersonalReference.mayHoldTokens(out[i].key) { out[i].key = try await resolve(out[i].key) }
            }
            return .object(out)
        case .null, .bool, .int, .uint, .raw: return json
        }
    }

    /// One token's value, as a preview when it asks for one.
    private func value(_ reference: PersonalReference) async throws -> String {
        let all: [String]
        if let known = values[reference.position] {
            all = known
        } else {
            all = try await personalValues(at: reference.position)
            values[reference.position] = all
        }
        guard reference.ordinal < all.count else { return Self.missingText }
        let value = all[reference.ordinal]
        return reference.preview.map { PersonalReference.previewed(value, $0) } ?? value
    }

    private func personalValues(at position: UInt64) async throws -> [String] {
        guard let event = try await store.event(at: position), let type = catalog.eventType(named: event.type),
            DomainEventCodec.isDomainEncoded(event.data)
        else { return [] }
        return (try? type.personalValues(in: event.data)) ?? []
    }
}
