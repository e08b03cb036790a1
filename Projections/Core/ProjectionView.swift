public import PawtrailJSON
public import EventLog

/// A way of looking at one projection's state, with arguments: `pawtrail view NAME [--option value]...`.
///
/// # Conformance requirements
/// `render` is a pure function of the state and the arguments; it throws ``ViewError`` for a missing or bad
/// argument or for a key the state does not hold.
public protocol ProjectionView: Sendable {
    /// The projection it reads.
    associatedtype Source: Projection

    /// The view's name (`low-stock`).
    static var name: String { get }
    /// One sentence for help.
    static var summary: String { get }
    /// The arguments it takes, as command-line options.
    static var options: [ViewOption] { get }

    /// Renders the state.
    ///
    /// - Parameters:
    ///   - state: The projection's state (live, or as of a past moment).
    ///   - arguments: The option values given.
    /// - Returns: A table for people and JSON for scripts.
    /// - Throws: ``ViewError``.
    static func render(_ state: Source.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput

    /// Who may read the answer for these arguments (checked before ``render(_:_:)`` when the reader is named). A view
    /// of one entity whose owner is in the state names its owner; one the state does not hold is for staff, so that a
    /// refusal never tells a customer what exists.
    ///
    /// - Parameters:
    ///   - state: The projection's state, as for ``render(_:_:)``.
    ///   - arguments: The option values given.
    /// - Returns: The readers.
    /// - Throws: ``ViewError`` for a missing or bad argument.
    static func audience(_ state: Source.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience

    /// What the view asks of the store's personal index (``PersonalIndex``), for an order or a search by personal
    /// values, which the state keeps as tokens; `nil` (the default) for nothing. The runtime answers it as of the
    /// state's position and hands the answer to ``render(_:_:)`` in ``ViewArguments/personalIndex``.
    ///
    /// - Parameter arguments: The option values given.
    /// - Returns: The query.
    /// - Throws: ``ViewError`` for a missing or bad argument.
    static func personalIndexQuery(_ arguments: ViewArguments) throws(ViewError) -> PersonalIndexQuery?
}

extension ProjectionView {
    public static func personalIndexQuery(_ arguments: ViewArguments) throws(ViewError) -> PersonalIndexQuery? { nil }
}

/// An argument of a view, given as `--name value`.
public struct ViewOption: Sendable, Hashable {
    public var name: String
    public var valueName: String
    public var help: String
    public var isRequired: Bool
    public var defaultDescription: String?

    public init(_ name: String, _ valueName: String, help: String, required: Bool = false, default defaultDescription: String? = nil) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.isRequired = required
        self.defaultDescription = defaultDescription
    }

    /// The `--now` option of a view that counts time (what is due, how old an order is).
    public static func now(_ help: String) -> ViewOption {
        ViewOption("now", "time", help: help, default: "the business time of the last event folded")
    }
}

/// The option values given to a view, with typed accessors that name the option in their errors.
public struct ViewArguments: Sendable {
    public var values: [String: String]
    /// The personal index's answer to the view's ``ProjectionView/personalIndexQuery(_:)``, when it asked one.
    public var personalIndex: PersonalIndexAnswer?

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// The `--now` argument (see ``ViewOption/now(_:)``), or the default: the business time of the last event folded,
    /// so that a view reads the same live, as of a past moment and in a replayed script.
    public func now(default fallback: Timestamp?) throws(ViewError) -> Timestamp? {
        try time("now", default: fallback)
    }

    /// A time argument (UTC ISO-8601), or `fallback` when absent.
    public func time(_ name: String, default fallback: Timestamp?) throws(ViewError) -> Timestamp? {
        guard let text = values[name] else { return fallback }
        guard let t = Timestamp(iso8601: text) else {
            throw .invalid(name, "'\(text)' is not a UTC ISO-8601 time (2026-12-01T09:00:00Z or 2026-12-01)")
        }
        return t
    }

    /// A UTC day argument (`YYYY-MM-DD`), `nil` when absent.
    public func day(_ name: String) throws(ViewError) -> String? {
        guard let text = values[name] else { return nil }
        guard text.utf8.count == 10, Timestamp(iso8601: text + "T00:00:00Z") != nil else {
            throw .invalid(name, "'\(text)' is not a day (YYYY-MM-DD)")
        }
        return text
    }

    /// A flag argument: absent or `false` is off; present with no value, or `true`, is on.
    public func flag(_ name: String) throws(ViewError) -> Bool {
        switch values[name] {
        case nil, "false": return false
        case "", "true": return true
        case let other?: throw .invalid(name, "'\(other)' is not 'true' or 'false' (a flag takes no value)")
        }
    }

    /// A value, `nil` when absent.
    public func value(_ name: String) -> String? { values[name] }

    /// A value that must be given, and not empty (`--user ''` is a bad value, not a missing option).
    public func required(_ name: String) throws(ViewError) -> String {
        guard let v = values[name] else { throw .missing(name) }
        guard !v.isEmpty else { throw .invalid(name, "the value is empty") }
        return v
    }

    /// An integer value, or the default.
    public func int(_ name: String, default value: Int64, range: ClosedRange<Int64> = Int64.min...Int64.max) throws(ViewError) -> Int64 {
        guard let text = values[name] else { return value }
        guard let n = Int64(text), range.contains(n) else {
            throw .invalid(name, "'\(text)' is not an integer between \(range.lowerBound) and \(range.upperBound)")
        }
        return n
    }
}

/// Why a view could not be shown.
public enum ViewError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A required option is missing (a usage error).
    case missing(String)
    /// An option's value is malformed (a usage error).
    case invalid(String, String)
    /// The thing asked for is not in the read model (`no order 'o-9'`).
    case notFound(String)

    public var description: String {
        switch self {
        case .missing(let name): "missing expected argument '--\(name)'"
        case .invalid(let name, let reason): "invalid value for '--\(name)': \(reason)"
        case .notFound(let message): message
        }
    }
}

/// What a view shows: a title, a table (header first) for people, and JSON for scripts.
///
/// The table's rows and the JSON are each made once, when first asked for: a call shows one of them, and making the
/// other for a view of thousands of rows (money and times as text, objects for each row) cost as much as reading them.
public struct ViewOutput {
    public var title: String
    public var header: [String]
    /// Columns aligned right (numbers), by index.
    public var rightAligned: Set<Int>
    /// Lines after the table (totals, notes).
    public var footer: [String]
    private let madeRows: Once<[[String]]>
    private let madeJSON: Once<JSONValue>

    /// The table's rows, without the header.
    public var rows: [[String]] { madeRows.value }
    /// The JSON.
    public var json: JSONValue { madeJSON.value }

    /// Creates a view's output.
    ///
    /// - Parameters:
    ///   - title: The line above the table.
    ///   - header: The table's column names.
    ///   - rows: The table's rows, made only when the table is shown.
    ///   - rightAligned: Columns aligned right (numbers), by index.
    ///   - footer: Lines after the table.
    ///   - json: The JSON, made only when it is shown.
    public init(
        title: String, header: [String], rows: @autoclosure @escaping () -> [[String]], rightAligned: Set<Int> = [], footer: [String] = [],
        json: @autoclosure @escaping () -> JSONValue
    ) {
        self.title = title
        self.header = header
        self.madeRows = Once(rows)
        self.rightAligned = rightAligned
        self.footer = footer
        self.madeJSON = Once(json)
    }

    /// A value made by its first reader and kept for the others (an output is read by the one task that rendered it).
    private final class Once<Value> {
        private var make: (() -> Value)?
        private var made: Value?

        init(_ make: @escaping () -> Value) { self.make = make }

        var value: Value {
            if let made { return made }
            let value = make!()
            made = value
            make = nil
            return value
        }
    }
}
