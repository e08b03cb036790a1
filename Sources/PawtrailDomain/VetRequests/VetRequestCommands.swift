public import EventLog
public import Events

// Vet requests: an owner asks about a pet; staff answer (as often as needed) and close. Simpler than a booking on
// purpose: no slot is held, a preferred time is only a wish.

/// `vet.submit`: the owner of a live pet asks the vet about it.
public struct SubmitVetRequest: DomainCommand, Hashable {
    public static let name = "vet.submit"
    public static let staffMayActFor = true
    public static let summary =
        "Submit a vet request for your pet: symptoms, urgency and an optional preferred time."

    public var petId: String
    public var symptoms: String
    public var urgency: VetUrgency
    public var preferredTime: Timestamp?
    /// The new request's id; generated from the command id when absent.
    public var requestId: String?

    public init(
        petId: String, symptoms: String, urgency: VetUrgency, preferredTime: Timestamp? = nil, requestId: String? = nil
    ) {
        self.petId = petId
        self.symptoms = symptoms
        self.urgency = urgency
        self.preferredTime = preferredTime
        self.requestId = requestId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        symptoms = try r.string("symptoms")
        urgency = try r.choice("urgency", VetUrgency.self)
        preferredTime = try r.optionalTimestamp("preferredTime")
        requestId = try r.optionalString("requestId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("symptoms", symptoms)
        w.choice("urgency", urgency)
        w.optionalTimestamp("preferredTime", preferredTime)
        w.optionalString("requestId", requestId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(petId, field: "petId")
        let pet = try await loader.load(PetState.self, Streams.pet(petId))
        if let requestId { try Validate.id(requestId, field: "requestId") }
        let existing = try await loader.load(VetRequestState.self, Streams.vetRequest(requestId ?? context.newID("v")))
        return try decide(context, pet: pet, existing: existing)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - pet: The pet.
    ///   - existing: The stream of the request id (empty unless the command is re-sent or the id is taken).
    /// - Returns: `VetRequestSubmitted` on a new stream; nothing when the same command was accepted already.
    /// - Throws: ``DomainError/invalid(field:reason:)`` for bad symptoms or a preferred time not in the future; the
    ///   errors of ``PetState/checkActive(_:actor:staffMay:)``.
    public func decide(_ context: DecisionContext, pet: PetState, existing: VetRequestState) throws(DomainError) -> Decision {
        let requestId = self.requestId ?? context.newID("v")
        let cleanSymptoms = try Validate.text(symptoms, field: "symptoms", max: 2_000)
        let event = VetRequestSubmitted(
            requestId: requestId, petId: petId, ownerId: context.principal.userID, symptoms: cleanSymptoms, urgency: urgency,
            preferredTime: preferredTime)
        if existing.exists {
            if existing.submitted == event { return .nothing }
            throw .alreadyExists("vet request '\(requestId)' exists already")
        }
        if let preferredTime { try Validate.future(preferredTime, field: "preferredTime", now: context.now) }
        try pet.checkActive(petId, actor: context.principal)
        return .append(Streams.vetRequest(requestId), event, expected: .noStream)
    }
}

/// `vet.answer`: staff answer a submitted or answered vet request.
public struct AnswerVetRequest: DomainCommand, Hashable {
    public static let name = "vet.answer"
    public static let summary = "Answer a vet request that is not closed (staff); it may be answered more than once."

    public var requestId: String
    public var answer: String

    public init(requestId: String, answer: String) {
        self.requestId = requestId
        self.answer = answer
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requestId = try r.string("requestId")
        answer = try r.string("answer")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("requestId", requestId)
        w.string("answer", answer)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(requestId, field: "requestId")
        return try decide(context, request: try await loader.load(VetRequestState.self, Streams.vetRequest(requestId)))
    }

    /// The pure decision.
    ///
    /// - Throws: ``DomainError/forbidden(_:)`` for non-staff, ``DomainError/invalid(field:reason:)`` for a bad
    ///   answer, ``DomainError/notFound(_:)``, ``DomainError/invalidState(_:)`` when closed.
    public func decide(_ context: DecisionContext, request: VetRequestState) throws(DomainError) -> Decision {
        guard context.actor.isStaff else { throw .forbidden("only staff answer vet requests; \(context.actor) is not staff") }
        let cleanAnswer = try Validate.text(answer, field: "answer", max: 2_000)
        try request.check(requestId, in: [.submitted, .answered], toBe: "answered")
        return .append(
            Streams.vetRequest(requestId),
            VetRequestAnswered(requestId: requestId, answer: cleanAnswer, answeredBy: context.actor.userID))
    }
}

/// `vet.close`: staff close a vet request that is not closed yet.
public struct CloseVetRequest: DomainCommand, Hashable {
    public static let name = "vet.close"
    public static let summary = "Close a vet request (staff); a closed request accepts no further answers."

    public var requestId: String

    public init(requestId: String) {
        self.requestId = requestId
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requestId = try r.string("requestId")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("requestId", requestId)
    }

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        try Validate.id(requestId, field: "requestId")
        return try decide(context, request: try await loader.load(VetRequestState.self, Streams.vetRequest(requestId)))
    }

    /// The pure decision.
    ///
    /// - Throws: ``DomainError/forbidden(_:)`` for non-staff, ``DomainError/notFound(_:)``,
    ///   ``DomainError/invalidState(_:)`` when closed already.
    public func decide(_ context: DecisionContext, request: VetRequestState) throws(DomainError) -> Decision {
        guard context.actor.isStaff else { throw .forbidden("only staff close vet requests; \(context.actor) is not staff") }
        try request.check(requestId, in: [.submitted, .answered], toBe: "closed")
        return .append(Streams.vetRequest(requestId), VetRequestClosed(requestId: requestId, closedBy: context.actor.userID))
    }
}
