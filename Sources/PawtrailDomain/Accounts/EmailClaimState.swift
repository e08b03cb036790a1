public import EventLog
public import Events

/// Who holds an email address (stream `email-<address>`).
public struct EmailClaimState: Aggregate, Hashable {
    /// The user holding it, `nil` when free.
    public var holder: String?

    public init() {}

    public static let snapshotKind = "email"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        holder = try r.optionalString("holder")
    }

    public func write(to w: inout some FieldWriter) {
        w.optionalString("holder", holder)
    }

    public static func evolve(_ state: EmailClaimState, _ event: any DomainEvent) -> EmailClaimState {
        var s = state
        switch event {
        case let e as EmailClaimed: s.holder = e.userId
        case is EmailReleased: s.holder = nil
        default: break
        }
        return s
    }
}

extension Streams {
    /// The claim stream of an email address (normalized with ``Email/normalized(_:)``).
    public static func email(_ normalized: String) -> StreamID { named("email", normalized) }
}
