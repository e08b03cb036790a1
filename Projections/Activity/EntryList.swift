/// A user's activity entries, oldest first, that remember which of them changed: the activity history is stored as
/// one row per entry (see ``ActivityUsers``), and each event changes an entry or two at the end, or drops some at
/// the start, so the rows to store are those, not the whole history.
///
/// Entries are identified by ``ActivityEntry/position`` (the event that began them), which only grows along the
/// list. Equality and hashing look at the entries alone.
public struct EntryList: RandomAccessCollection, MutableCollection, Sendable, Hashable {
    /// The entries.
    public private(set) var elements: [ActivityEntry]
    /// Positions of entries added or changed since ``takeChanges()`` (a few: an event changes an entry or two).
    private var changed: [Int64] = []
    /// Positions of entries removed since ``takeChanges()``.
    private var removed: [Int64] = []
    /// Whether changes are remembered (only for a history whose rows are stored: a plain fold remembers none, so
    /// that what it never takes does not pile up).
    public var tracksChanges = false

    public init(_ elements: [ActivityEntry] = []) {
        self.elements = elements
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { elements.count }

    public subscript(i: Int) -> ActivityEntry {
        get { elements[i] }
        set {
            if tracksChanges {
                note(elements[i].position)
                note(newValue.position)
            }
            elements[i] = newValue
        }
        _modify {
            let before = elements[i].position
            yield &elements[i]
            if tracksChanges {
                note(before)
                note(elements[i].position)
            }
        }
    }

    private mutating func note(_ position: Int64) {
        if !changed.contains(position) { changed.append(position) }
    }

    public mutating func append(_ entry: ActivityEntry) {
        elements.append(entry)
        if tracksChanges { note(entry.position) }
    }

    @discardableResult
    public mutating func remove(at i: Int) -> ActivityEntry {
        let e = elements.remove(at: i)
        if tracksChanges {
            changed.removeAll { $0 == e.position }
            removed.append(e.position)
        }
        return e
    }

    public mutating func removeFirst(_ n: Int) {
        if tracksChanges {
            for e in elements[..<n] {
                changed.removeAll { $0 == e.position }
                removed.append(e.position)
            }
        }
        elements.removeFirst(n)
    }

    /// The entries added or changed and the positions of those removed since the last call, which it forgets.
    public mutating func takeChanges() -> (changed: [ActivityEntry], removed: [Int64]) {
        defer {
            changed.removeAll(keepingCapacity: true)
            removed.removeAll(keepingCapacity: true)
        }
        // Entries are ordered by position: each changed one is found by bisection (a position changed to another
        // in place, as a replaced entry is, leaves one that is not there, and is passed over). An event nearly always
        // changes the newest entries, so those are looked at first: a bisection of a long history waits on a cache
        // miss at each step.
        let present = changed.compactMap { p -> ActivityEntry? in
            var lo = 0
            var hi = elements.count
            var near = hi
            while near > 0, hi - near < 4, elements[near - 1].position >= p { near -= 1 }
            if near == 0 || elements[near - 1].position < p { lo = near; hi = near }
            while lo < hi {
                let mid = (lo + hi) / 2
                if elements[mid].position < p { lo = mid + 1 } else { hi = mid }
            }
            return lo < elements.count && elements[lo].position == p ? elements[lo] : nil
        }
        return (present, removed)
    }

    /// Forgets what changed (a fold that stores nothing).
    public mutating func forgetChanges() {
        if !changed.isEmpty { changed.removeAll() }
        if !removed.isEmpty { removed.removeAll() }
    }

    public static func == (a: EntryList, b: EntryList) -> Bool { a.elements == b.elements }
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}
