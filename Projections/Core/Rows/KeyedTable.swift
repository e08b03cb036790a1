public import Events

/// A dictionary of a read model's state whose entries are stored as rows (see ``KeyedProjectionState``): in a
/// rebuild every entry is in memory, as in a plain dictionary; attached to stored rows (``attach(_:)``), an entry is
/// read from them the first time it is asked for, and only the entries a fold or a view touches are ever read or
/// held. Every change is recorded, so that the runtime stores just the rows that changed: each version of them, for
/// a table of ``TableHistory/exact`` history, or the newest, for ``TableHistory/current``.
///
/// Reading an entry through the subscript's getter decodes it from its row each time (a getter cannot keep it);
/// modifying it (`table[key, default: ...].field = ...`) brings it into memory once.
public struct KeyedTable<Record: FieldCodable & Equatable>: StoredTable, Sendable {
    public let tableID: UInt8
    public let history: TableHistory
    /// The entries in memory: every entry in a rebuild, those read or written otherwise.
    private var loaded: [String: Record]
    /// Keys removed in memory while stored rows may still hold them.
    private var removed: Set<String> = []
    /// Keys changed by the current event, for an exact table.
    private var touched: [String] = []
    /// Keys changed since the last save, for a current table attached to stored rows.
    private var dirty: Set<String> = []
    private var source: (any RowSource)?
    /// Whether changes are recorded for the runtime (off by default: a fold in a test or an audit keeps none).
    private var recording = false

    /// An empty table.
    ///
    /// - Parameters:
    ///   - id: The table's id within its state.
    ///   - history: How long its rows are kept.
    ///   - rows: Entries to start with (a decoded whole state).
    public init(id: UInt8, history: TableHistory, rows: [String: Record] = [:]) {
        tableID = id
        self.history = history
        loaded = rows
    }

    // MARK: - Reading and writing entries

    /// An entry, `nil` when the table has none.
    public subscript(key: String) -> Record? {
        get {
            if let r = loaded[key] { return r }
            return fetch(key)
        }
        set {
            willChange(key)
            if let newValue {
                loaded[key] = newValue
                removed.remove(key)
            } else {
                loaded[key] = nil
                if source != nil { removed.insert(key) }
            }
        }
        _modify {
            bringIn(key)
            willChange(key)
            yield &loaded[key]
            if loaded[key] == nil {
                if source != nil { removed.insert(key) }
            } else {
                removed.remove(key)
            }
        }
    }

    /// An entry, or `value` when the table has none (which a modification stores).
    public subscript(key: String, default value: @autoclosure () -> Record) -> Record {
        get { self[key] ?? value() }
        _modify {
            bringIn(key)
            willChange(key)
            removed.remove(key)
            yield &loaded[key, default: value()]
        }
    }

    /// Modifies an entry in place (`nil` when the table has none; setting `nil` removes it), in one lookup.
    ///
    /// - Parameter body: Changes the entry.
    /// - Returns: What `body` returns.
    public mutating func modify<T, E: Error>(_ key: String, _ body: (inout Record?) throws(E) -> T) throws(E) -> T {
        try body(&self[key])
    }

    /// Removes an entry.
    ///
    /// - Returns: The entry removed, `nil` when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> Record? {
        let old = self[key]
        self[key] = nil
        return old
    }

    /// Whether the table holds an entry.
    public func contains(_ key: String) -> Bool { self[key] != nil }

    /// Every entry: those stored merged with those in memory. Reads every stored row of the table: for small tables
    /// (products, roles) and for a rebuild's state, which is all in memory.
    public var entries: [String: Record] {
        guard let source = readable else { return loaded }
        var out: [String: Record] = [:]
        for (k, bytes) in source.rows(table: tableID) {
            let key = k.key
            if removed.contains(key) || loaded[key] != nil { continue }
            if let r = Self.decode(bytes) { out[key] = r }
        }
        for (k, v) in loaded { out[k] = v }
        return out
    }

    /// Whether the table holds no entry (see ``entries``).
    public var isEmpty: Bool { count == 0 }

    /// How many entries the table holds (see ``entries``).
    public var count: Int { readable == nil ? loaded.count : entries.count }

    // MARK: - StoredTable

    public mutating func attach(_ source: (any RowSource)?) {
        self.source = source
    }

    public mutating func setRecording(_ on: Bool) {
        recording = on
        if !on {
            touched = []
            dirty = []
        }
    }

    public mutating func drainEventChanges(at position: UInt64, into versions: inout RowVersions) {
        guard history == .exact, !touched.isEmpty else { return }
        let table = tableID
        for (n, key) in touched.enumerated() where !touched[..<n].contains(key) {
            versions.add(position: position, keep: true, record: loaded[key]) { b in
                b.append(table)
                b.append(contentsOf: key.utf8)
            }
        }
        touched.removeAll(keepingCapacity: true)
    }

    public mutating func drainSaveChanges(at position: UInt64, into versions: inout RowVersions) {
        guard history == .current, !dirty.isEmpty else { return }
        let table = tableID
        for key in dirty {
            versions.add(position: position, keep: false, record: loaded[key]) { b in
                b.append(table)
                b.append(contentsOf: key.utf8)
            }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    public func addCurrentRows(at position: UInt64, into versions: inout RowVersions) {
        guard history == .current else { return }
        let table = tableID
        for (key, record) in loaded {
            versions.add(position: position, keep: false, record: record) { b in
                b.append(table)
                b.append(contentsOf: key.utf8)
            }
        }
    }

    public func forEachExactRow(_ body: (RowKey, [UInt8]) -> Void) {
        guard history == .exact else { return }
        for (key, record) in entries { body(RowKey(table: tableID, key: key), Self.encode(record)) }
    }

    // MARK: - Rows

    /// A record's row: its field encoding.
    static func encode(_ record: Record) -> [UInt8] {
        var w = BinaryFieldWriter(capacity: 64)
        record.write(to: &w)
        return w.bytes
    }

    /// A record from its row; `nil` when the bytes do not decode (the source's failure says why).
    static func decode(_ bytes: [UInt8]) -> Record? {
        var r = BinaryFieldReader(bytes)
        guard let record = try? Record(reading: &r), r.isAtEnd else { return nil }
        return record
    }

    /// The source rows are read through: none for a current table read as of a past position (see
    /// ``RowSource/isPast``).
    private var readable: (any RowSource)? {
        guard let source, history == .exact || !source.isPast else { return nil }
        return source
    }

    /// The stored entries whose keys are parts of `group` (the group's key, 0x1F, the part's key), by part, leaving
    /// out those in memory or removed there: a caller keeping its own list of the group's parts in memory overlays
    /// those (see ``GroupedTable``). Reads the group's rows, stored together.
    func storedParts(of group: String) -> [String: Record] {
        guard let source = readable else { return [:] }
        var out: [String: Record] = [:]
        for (k, bytes) in source.rows(group: RowKey.groupPrefix(table: tableID, group: group)) {
            guard let part = k.parts.part else { continue }
            let key = k.key
            if removed.contains(key) || loaded[key] != nil { continue }
            if let r = Self.decode(bytes) { out[part] = r }
        }
        return out
    }

    /// Reads the stored rows of several entries at once, ahead of looking them up one by one (see
    /// ``RowSource/prefetch(_:)``); entries in memory are not read again.
    ///
    /// - Parameter keys: The entries about to be looked up.
    public func prefetch(_ keys: some Sequence<String>) {
        guard let source = readable else { return }
        let wanted = keys.filter { loaded[$0] == nil && !removed.contains($0) }.map { RowKey(table: tableID, key: $0) }
        if wanted.count > 1 { source.prefetch(wanted) }
    }

    /// An entry read from the stored rows, `nil` when they hold none (or none that decodes).
    private func fetch(_ key: String) -> Record? {
        guard let source = readable, !removed.contains(key), let bytes = source.row(RowKey(table: tableID, key: key)) else { return nil }
        return Self.decode(bytes)
    }

    /// Brings a stored entry into memory before it changes.
    private mutating func bringIn(_ key: String) {
        guard source != nil, loaded[key] == nil, let stored = fetch(key) else { return }
        loaded[key] = stored
    }

    private mutating func willChange(_ key: String) {
        guard recording else { return }
        switch history {
        case .exact: touched.append(key)
        case .current: if source != nil { dirty.insert(key) }
        }
    }
}

extension KeyedTable: Equatable {
    /// Tables are equal when they hold the same entries (wherever each is held).
    public static func == (a: KeyedTable, b: KeyedTable) -> Bool {
        a.tableID == b.tableID && a.entries == b.entries
    }
}
