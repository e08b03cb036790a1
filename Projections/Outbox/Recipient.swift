public import Events

/// A recipient as the outbox needs them: their language, what they turned off, whether the account is gone.
public struct Recipient: FieldCodable, Hashable, Sendable {
    public var language: Language
    public var off: [String]
    public var deleted: Bool

    public init(language: Language, off: [String] = [], deleted: Bool = false) {
        self.language = language
        self.off = off
        self.deleted = deleted
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        language = try r.choice("language", Language.self)
        off = try r.strings("off")
        deleted = try r.bool("deleted")
    }

    public func write(to w: inout some FieldWriter) {
        w.choice("language", language)
        w.strings("off", off)
        w.bool("deleted", deleted)
    }

    /// Whether they are told of a topic now.
    public func wants(_ topic: NotificationTopic) -> Bool {
        !deleted && (topic.setting.map { !off.contains($0.rawValue) } ?? true)
    }
}
