public import EventLog
public import Events

/// A vet request as decisions see it (stream `vet-<requestId>`).
public struct VetRequestState: Aggregate, Equatable {
    /// The event that created it: a re-sent `vet.submit` is recognised by it.
    public var submitted: VetRequestSubmitted?
    /// The pet.
    public var petId = ""
    /// The pet's owner, who submitted it (messaging reads it to tell who owns a request).
    public var ownerId = ""
    /// Where it is.
    public var status: VetRequestStatus = .submitted

    /// Whether the request was submitted.
    public var exists: Bool { submitted != nil }

    public init() {}

    public static let snapshotKind = "vet-request"
    public static let schemaVersion = 1

    public init(reading r: inout some FieldReader) throws(FieldError) {
        submitted = try r.records("submitted", VetRequestSubmitted.self).first
        petId = try r.string("petId")
        ownerId = try r.string("ownerId")
        status = try r.choice("status", VetRequestStatus.self)
    }

    public func write(to w: inout some FieldWriter) {
        w.records("submitted", submitted.map { [$0] } ?? [])
        w.string("petId", petId)
        w.string("ownerId", ownerId)
        w.choice("status", status)
    }

    public static func evolve(_ state: VetRequestState, _ event: any DomainEvent) -> VetRequestState {
        var s = state
        switch event {
        case let e as VetRequestSubmitted:
            s.submitted = e
            s.petId = e.petId
            s.ownerId = e.ownerId
            s.status = .submitted
        case is VetRequestAnswered:
            s.status = .answered
        case is VetRequestClosed:
            s.status = .closed
        default:
            break
        }
        return s
    }

    /// Checks that the request exists and is in one of the allowed statuses, naming the current one otherwise.
    ///
    /// - Throws: ``DomainError/notFound(_:)`` or ``DomainError/invalidState(_:)``.
    public func check(_ requestId: String, in allowed: [VetRequestStatus], toBe verb: String) throws(DomainError) {
        guard exists else { throw .notFound("vet request '\(requestId)' does not exist") }
        guard allowed.contains(status) else {
            let names = allowed.map(\.rawValue).joined(separator: " or ")
            throw .invalidState("vet request '\(requestId)' is \(status.rawValue); only a \(names) request can be \(verb)")
        }
    }
}

extension Streams {
    /// A vet request's stream.
    public static func vetRequest(_ requestId: String) -> StreamID { named("vet", requestId) }
}
