public import EventLog
public import Events

/// Who holds an email address (stream `email-<address>`).
public struct EmailClaimState: Aggregate, Hashable {
    /// The user holding it, `nil` when free.
    public var holder: String?

    public init() {}

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
