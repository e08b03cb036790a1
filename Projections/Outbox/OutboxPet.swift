public import Events

/// A pet as the outbox needs it.
public struct OutboxPet: FieldCodable, Hashable, Sendable {
    public var name: String
    public var ownerId: String
    public var removed: Bool

    public init(name: String, ownerId: String, removed: Bool = false) {
        self.name = name
        self.ownerId = ownerId
        self.removed = removed
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        name = try r.string("name")
        ownerId = try r.string("ownerId")
        removed = try r.bool("removed")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("name", name)
        w.string("ownerId", ownerId)
        w.bool("removed", removed)
    }
}
