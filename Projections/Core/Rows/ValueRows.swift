public import EventLog
public import Events

/// A text as a row's record: a name, an owner's id, a day.
public struct TextRow: FieldCodable, Hashable, Sendable {
    public var text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        text = try r.string("text")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("text", text)
    }
}

/// A time as a row's record: when something last happened.
public struct TimeRow: FieldCodable, Hashable, Sendable {
    public var at: Timestamp

    public init(_ at: Timestamp) {
        self.at = at
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        at = try r.timestamp("at")
    }

    public func write(to w: inout some FieldWriter) {
        w.timestamp("at", at)
    }
}

/// A count as a row's record: how many of something.
public struct CountRow: FieldCodable, Hashable, Sendable {
    public var count: Int64

    public init(_ count: Int64) {
        self.count = count
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        count = try r.int("count")
    }

    public func write(to w: inout some FieldWriter) {
        w.int("count", count)
    }
}
