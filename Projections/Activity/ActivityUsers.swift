import Events

/// Every user's activity history as stored rows: per user, one row of what the rules need to know about the account
/// (language and cart, newest only) and one row per entry, keyed by the entry's position, of exact history. An
/// event changes an entry or two at the end of one history, or drops the oldest, so it stores those rows, not the
/// whole history; and the history as of any past position is its entries' rows as of it.
///
/// In a rebuild every history is in memory; attached to stored rows, a history is read (its account row and its
/// entries' rows, one group) the first time it is asked for.
public struct ActivityUsers: StoredTable, Sendable {
    /// The table of account rows (language and cart).
    static let accountTable: UInt8 = 1
    /// The table of entry rows (a group per user, a part per entry).
    static let entryTable: UInt8 = 2

    public var tableID: UInt8 { Self.accountTable }
    public var history: TableHistory { .exact }

    private var loaded: [String: UserActivity]
    private var source: (any RowSource)?
    private var recording = false
    /// Users changed by the current event.
    private var touched: [String] = []
    /// Users whose account row changed since the last save (attached to stored rows).
    private var dirty: Set<String> = []

    /// The histories to start with (a decoded whole state).
    public init(_ users: [String: UserActivity] = [:]) {
        loaded = users
    }

    /// A user's history, `nil` when they have none.
    public subscript(user: String) -> UserActivity? {
        loaded[user] ?? fetch(user)
    }

    /// A user's history, or an empty one (which a change stores).
    public subscript(user: String, default value: @autoclosure () -> UserActivity) -> UserActivity {
        get { self[user] ?? value() }
        _modify {
            if loaded[user] == nil {
                var history = fetch(user) ?? value()
                history.entries.tracksChanges = recording
                loaded[user] = history
            }
            if recording {
                touched.append(user)
                if source != nil { dirty.insert(user) }
            }
            yield &loaded[user]!
        }
    }

    /// Every history: those stored merged with those in memory (reads every stored entry: an audit's or an
    /// export's cost).
    public var all: [String: UserActivity] {
        guard let source else { return loaded }
        var out = loaded
        for (key, _) in source.rows(table: Self.accountTable) where out[key.key] == nil {
            if let history = fetch(key.key) { out[key.key] = history }
        }
        if source.isPast {
            // Account rows are not kept for the past: the entries' groups name the users.
            for (key, _) in source.rows(table: Self.entryTable) {
                let user = key.parts.group
                if out[user] == nil, let history = fetch(user) { out[user] = history }
            }
        }
        return out
    }

    // MARK: - StoredTable

    public mutating func attach(_ source: (any RowSource)?) {
        self.source = source
    }

    public mutating func setRecording(_ on: Bool) {
        recording = on
        for user in loaded.keys { loaded[user]!.entries.tracksChanges = on }
        if !on {
            touched = []
            dirty = []
        }
    }

    public mutating func drainEventChanges(at position: UInt64, into versions: inout RowVersions) {
        guard !touched.isEmpty else { return }
        for (n, user) in touched.enumerated() where !touched[..<n].contains(user) {
            let (changed, removed) = loaded[user]!.entries.takeChanges()
            for entry in changed {
                versions.add(position: position, keep: true, record: entry) { Self.appendEntryKey(user, entry.position, to: &$0) }
            }
            for p in removed {
                versions.add(position: position, keep: true, record: ActivityEntry?.none) { Self.appendEntryKey(user, p, to: &$0) }
            }
        }
        touched.removeAll(keepingCapacity: true)
    }

    public mutating func drainSaveChanges(at position: UInt64, into versions: inout RowVersions) {
        for user in dirty {
            versions.add(position: position, keep: false, record: Account(loaded[user]!)) { Self.appendAccountKey(user, to: &$0) }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    public func addCurrentRows(at position: UInt64, into versions: inout RowVersions) {
        for (user, history) in loaded {
            versions.add(position: position, keep: false, record: Account(history)) { Self.appendAccountKey(user, to: &$0) }
        }
    }

    public func forEachExactRow(_ body: (RowKey, [UInt8]) -> Void) {
        for (user, history) in all {
            for entry in history.entries { body(Self.entryKey(user, entry.position), Self.encode(entry)) }
        }
    }

    // MARK: - Rows

    /// An entry's row key: the user's group, the entry's position zero-padded so that rows sort as entries do.
    static func entryKey(_ user: String, _ position: Int64) -> RowKey {
        var bytes: [UInt8] = []
        appendEntryKey(user, position, to: &bytes)
        return RowKey(bytes: bytes)
    }

    static func appendEntryKey(_ user: String, _ position: Int64, to bytes: inout [UInt8]) {
        bytes.append(entryTable)
        bytes.append(contentsOf: user.utf8)
        bytes.append(RowKey.separator)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 19))
        var rest = UInt64(max(0, position))
        var i = start + 18
        while rest > 0 {
            bytes[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            i -= 1
        }
    }

    static func appendAccountKey(_ user: String, to bytes: inout [UInt8]) {
        bytes.append(accountTable)
        bytes.append(contentsOf: user.utf8)
    }

    /// The account row: language and cart.
    struct Account: FieldCodable {
        var language: String
        var cart: [String: Int64]

        init(_ history: UserActivity) {
            language = history.language
            cart = history.cart
        }

        init(reading r: inout some FieldReader) throws(FieldError) {
            language = try r.string("language")
            cart = try r.counts("cart")
        }

        func write(to w: inout some FieldWriter) {
            w.string("language", language)
            w.counts("cart", cart)
        }
    }

    static func encode(_ entry: ActivityEntry) -> [UInt8] {
        var w = BinaryFieldWriter(capacity: 96)
        entry.write(to: &w)
        return w.bytes
    }

    /// A history read from the stored rows, `nil` when they hold none. Rows that do not decode are left out (the
    /// source's failure says why, and the runtime fails the read).
    private func fetch(_ user: String) -> UserActivity? {
        guard let source else { return nil }
        var history = UserActivity()
        var found = false
        if !source.isPast, let bytes = source.row(RowKey(table: Self.accountTable, key: user)) {
            var r = BinaryFieldReader(bytes)
            if let account = try? Account(reading: &r) {
                history.language = account.language
                history.cart = account.cart
                found = true
            }
        }
        var entries: [ActivityEntry] = []
        for (_, bytes) in source.rows(group: RowKey.groupPrefix(table: Self.entryTable, group: user)) {
            var r = BinaryFieldReader(bytes)
            if let entry = try? ActivityEntry(reading: &r) { entries.append(entry) }
        }
        guard found || !entries.isEmpty else { return nil }
        history.entries = EntryList(entries)
        return history
    }
}

extension ActivityUsers: Equatable {
    /// Tables are equal when they hold the same histories (wherever each is held).
    public static func == (a: ActivityUsers, b: ActivityUsers) -> Bool { a.all == b.all }
}
