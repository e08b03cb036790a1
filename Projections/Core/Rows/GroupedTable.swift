public import Events

/// A table whose rows come in groups, one row a part: a conversation's messages, a day's sales. Each part is its own
/// row of exact history, stored with its group's other rows, so an event that adds or changes a part stores that
/// row alone, however long the group grows, and a group is read, live or as of any past position, by its rows.
///
/// Rows are a ``KeyedTable``'s whose keys are the group's key, 0x1F and the part's key (see ``RowKey``); this keeps
/// the parts each group holds in memory, so that listing a group never scans the other groups.
public struct GroupedTable<Record: FieldCodable & Equatable>: StoredTable, Sendable {
    private var rows: KeyedTable<Record>
    /// The parts of each group set or removed in memory (a removed part reads as `nil`).
    private var inMemory: [String: Set<String>] = [:]

    /// An empty table, or one holding a decoded whole state's rows.
    ///
    /// - Parameters:
    ///   - id: The table's id within its state.
    ///   - rows: Rows by their whole keys (``key(group:part:)``).
    public init(id: UInt8, rows: [String: Record] = [:]) {
        self.rows = KeyedTable(id: id, history: .exact, rows: rows)
        for key in rows.keys {
            let (group, part) = Self.split(key)
            inMemory[group, default: []].insert(part)
        }
    }

    /// A row's whole key: the group's key, 0x1F, the part's key.
    public static func key(group: String, part: String) -> String {
        group + "\u{1F}" + part
    }

    private static func split(_ key: String) -> (group: String, part: String) {
        guard let i = key.utf8.firstIndex(of: RowKey.separator) else { return (key, "") }
        return (String(key[..<i]), String(key[key.utf8.index(after: i)...]))
    }

    /// A part, `nil` when the group has none under that key; setting `nil` removes it.
    public subscript(group: String, part: String) -> Record? {
        get { rows[Self.key(group: group, part: part)] }
        set {
            inMemory[group, default: []].insert(part)
            rows[Self.key(group: group, part: part)] = newValue
        }
    }

    /// Changes a part in place (`nil` when there is none; setting `nil` removes it).
    ///
    /// - Returns: What `body` returns.
    public mutating func modify<T, E: Error>(group: String, part: String, _ body: (inout Record?) throws(E) -> T) throws(E) -> T {
        inMemory[group, default: []].insert(part)
        return try rows.modify(Self.key(group: group, part: part), body)
    }

    /// A group's parts, stored and in memory, by part key (unordered: the caller orders them by what they hold).
    public func parts(of group: String) -> [String: Record] {
        var out = rows.storedParts(of: group)
        for part in inMemory[group] ?? [] {
            out[part] = rows[Self.key(group: group, part: part)]
        }
        return out
    }

    /// Every row by its whole key (reads every stored row: an audit's or an export's cost).
    public var entries: [String: Record] { rows.entries }

    // MARK: - StoredTable

    public var tableID: UInt8 { rows.tableID }
    public var history: TableHistory { .exact }

    public mutating func attach(_ source: (any RowSource)?) {
        rows.attach(source)
    }

    public mutating func setRecording(_ on: Bool) {
        rows.setRecording(on)
    }

    public mutating func drainEventChanges(at position: UInt64, into versions: inout RowVersions) {
        rows.drainEventChanges(at: position, into: &versions)
    }

    public mutating func drainSaveChanges(at position: UInt64, into versions: inout RowVersions) {}

    public func addCurrentRows(at position: UInt64, into versions: inout RowVersions) {}

    public func forEachExactRow(_ body: (RowKey, [UInt8]) -> Void) {
        rows.forEachExactRow(body)
    }
}

extension GroupedTable: Equatable {
    /// Tables are equal when they hold the same rows (wherever each is held).
    public static func == (a: GroupedTable, b: GroupedTable) -> Bool { a.entries == b.entries }
}
