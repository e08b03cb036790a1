public import EventLog
public import Events
import EventLogSealing

/// Who holds an email address (stream `email-<digest>`; `email-<address>` in stores from before personal data was
/// sealed).
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
    /// The claim stream of an email address (normalized with ``Email/normalized(_:)``): named by the address's
    /// BLAKE2b digest, so that no stream name spells a personal email address.
    public static func email(_ normalized: String) -> StreamID { named("email", Sealer.digest(normalized)) }

    /// The claim stream stores written before sealing used: named by the address itself.
    public static func legacyEmail(_ normalized: String) -> StreamID { named("email", normalized) }
}

/// Where an address's claim is kept: the digest-named stream, unless the store holds an older claim under the
/// address's own name, which stays the claim until it is released.
public enum EmailClaims {
    /// Loads the claim of an address.
    ///
    /// - Parameters:
    ///   - address: The normalized address.
    ///   - loader: The command's loader.
    /// - Returns: The claim and the stream its next event goes to.
    /// - Throws: What the loader throws.
    public static func load(_ address: String, loading loader: inout StreamLoader) async throws -> (EmailClaimState, StreamID) {
        let current = try await loader.load(EmailClaimState.self, Streams.email(address))
        // A digest-named claim is only ever made while no older claim holds the address, and an older claim, once
        // released, is never made again: so an address with a digest stream needs no look at the older one.
        guard loader.expectation(for: Streams.email(address)) == .noStream else { return (current, Streams.email(address)) }
        let legacy = try await loader.load(EmailClaimState.self, Streams.legacyEmail(address))
        return legacy.holder != nil ? (legacy, Streams.legacyEmail(address)) : (current, Streams.email(address))
    }
}
