public import EventLog

// The vet area: an owner's vet requests about a pet, answered and closed by staff (stream `vet-<requestId>`).

/// How soon the owner needs the vet.
public enum VetUrgency: String, FieldChoice {
    case low, normal, urgent
}

/// Where a vet request is: submitted -> answered (any number of times) -> closed; or submitted -> closed.
public enum VetRequestStatus: String, FieldChoice {
    case submitted, answered, closed
}

/// An owner asked the vet about a pet.
public struct VetRequestSubmitted: DomainEvent {
    public static let eventType = "VetRequestSubmitted"
    public static let area = "vet"
    public static let summary = "An owner submitted a vet request for their pet: symptoms, urgency and a preferred time."
    public var requestId: String
    public var petId: String
    /// The pet's owner, who submitted it.
    public var ownerId: String
    public var symptoms: String
    public var urgency: VetUrgency
    public var preferredTime: Timestamp?

    public init(
        requestId: String, petId: String, ownerId: String, symptoms: String, urgency: VetUrgency,
        preferredTime: Timestamp? = nil
    ) {
        self.requestId = requestId
        self.petId = petId
        self.ownerId = ownerId
        self.symptoms = symptoms
        self.urgency = urgency
        self.preferredTime = preferredTime
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requestId = try r.string("requestId")
        petId = try r.string("petId")
        ownerId = try r.string("ownerId")
        symptoms = try r.string("symptoms")
        urgency = try r.choice("urgency", VetUrgency.self)
        preferredTime = try r.optionalTimestamp("preferredTime")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("requestId", requestId)
        w.string("petId", petId)
        w.string("ownerId", ownerId)
        w.string("symptoms", symptoms)
        w.choice("urgency", urgency)
        w.optionalTimestamp("preferredTime", preferredTime)
    }
}

/// Staff answered a vet request (a request may be answered again until it is closed).
public struct VetRequestAnswered: DomainEvent {
    public static let eventType = "VetRequestAnswered"
    public static let area = "vet"
    public static let summary = "Staff answered a vet request; it can be answered again until it is closed."
    public var requestId: String
    public var answer: String
    public var answeredBy: String

    public init(requestId: String, answer: String, answeredBy: String) {
        self.requestId = requestId
        self.answer = answer
        self.answeredBy = answeredBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requestId = try r.string("requestId")
        answer = try r.string("answer")
        answeredBy = try r.string("answeredBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("requestId", requestId)
        w.string("answer", answer)
        w.string("answeredBy", answeredBy)
    }
}

/// Staff closed a vet request; it accepts no further answers.
public struct VetRequestClosed: DomainEvent {
    public static let eventType = "VetRequestClosed"
    public static let area = "vet"
    public static let summary = "Staff closed a vet request; it accepts no further answers."
    public var requestId: String
    public var closedBy: String

    public init(requestId: String, closedBy: String) {
        self.requestId = requestId
        self.closedBy = closedBy
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        requestId = try r.string("requestId")
        closedBy = try r.string("closedBy")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("requestId", requestId)
        w.string("closedBy", closedBy)
    }
}

/// The vet area's event types, in catalog order.
public enum VetEvents {
    public static let all: [any DomainEvent.Type] = [
        VetRequestSubmitted.self, VetRequestAnswered.self, VetRequestClosed.self,
    ]
}

extension VetRequestSubmitted: OwnedSubjectCreated {
    /// The pet's owner: the customer side of a conversation about the request.
    public var subjectOwnerId: String { ownerId }
}
