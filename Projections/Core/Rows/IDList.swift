public import Events

/// A list of ids as a row: an owner's pets, a customer's orders or conversations, in the order they came. The
/// index rows that let a view of one owner read that owner's entities alone.
public struct IDList: FieldCodable, Hashable, Sendable {
    public var ids: [String]

    public init(_ ids: [String] = []) {
        self.ids = ids
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        ids = try r.strings("ids")
    }

    public func write(to w: inout some FieldWriter) {
        w.strings("ids", ids)
    }
}
