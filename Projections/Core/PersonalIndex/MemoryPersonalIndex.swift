import Foundation

/// A ``PersonalIndex`` in memory: for tests, for stores without a place of their own, and for a reader that cannot
/// write its store's index.
public final class MemoryPersonalIndex: PersonalIndex, @unchecked Sendable {
    private struct Version {
        var entry: PersonalIndexEntry
        var from: UInt64
        var to: UInt64?
    }

    private let lock = NSLock()
    private var stored: (version: Int, position: UInt64)?
    private var entries: [String: [Version]] = [:]
    private var remembered: [UInt64: (subject: String, values: [String])] = [:]

    /// Creates an empty index.
    public init() {}

    public func checkpoint() async throws -> (version: Int, position: UInt64)? {
        lock.withLock { stored }
    }

    public func apply(_ changes: [PersonalIndexChange], from: UInt64?, through: UInt64, version: Int) async throws -> Bool {
        lock.withLock {
            guard stored?.position == from, from == nil || stored?.version == version else { return false }
            for change in changes {
                switch change {
                case .put(let subject, let entry, let at):
                    var versions = entries[subject] ?? []
                    if let last = versions.indices.last, versions[last].to == nil { versions[last].to = at }
                    versions.append(Version(entry: entry, from: at, to: nil))
                    entries[subject] = versions
                case .erase(let subject):
                    entries[subject] = nil
                    remembered = remembered.filter { $0.value.subject != subject }
                case .remember(let position, let subject, let values):
                    remembered[position] = (subject, values)
                }
            }
            stored = (version, through)
            return true
        }
    }

    public func reset() async throws {
        lock.withLock {
            stored = nil
            entries = [:]
            remembered = [:]
        }
    }

    public func values(at positions: [UInt64]) async throws -> [UInt64: [String]] {
        lock.withLock {
            var out: [UInt64: [String]] = [:]
            for p in positions { if let r = remembered[p] { out[p] = r.values } }
            return out
        }
    }

    public func rememberedPositions() async throws -> [UInt64] {
        lock.withLock { remembered.keys.sorted() }
    }

    public func entry(of subject: String) async throws -> PersonalIndexEntry? {
        lock.withLock { entries[subject]?.last.flatMap { $0.to == nil ? $0.entry : nil } }
    }

    public func subjects(asOf position: UInt64, matching words: [String], offset: Int, limit: Int) async throws -> (subjects: [String], total: Int) {
        let found: [(String, String)] = lock.withLock {
            entries.compactMap { subject, versions in
                guard let v = versions.last(where: { $0.from <= position && ($0.to.map { $0 > position } ?? true) }) else { return nil }
                guard words.allSatisfy({ w in v.entry.terms.contains { $0.hasPrefix(w) } }) else { return nil }
                return (v.entry.sortKey, subject)
            }
        }
        // By bytes, as a database's binary collation orders them.
        let sorted = found.sorted { a, b in
            a.0.utf8.elementsEqual(b.0.utf8) ? a.1.utf8.lexicographicallyPrecedes(b.1.utf8) : a.0.utf8.lexicographicallyPrecedes(b.0.utf8)
        }
        return (Array(sorted.dropFirst(offset).prefix(limit).map(\.1)), sorted.count)
    }
}
