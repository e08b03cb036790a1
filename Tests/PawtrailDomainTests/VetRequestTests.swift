import EventLog
import Events
import PawtrailDomain
import Testing

@Suite("Vet requests")
struct VetRequestTests {
    typealias W = PetWorld
    static let request = stream("vet-v-1")

    /// Rex with vet request `v-1` in the given status.
    static func withRequest(_ status: VetRequestStatus) async throws -> DomainScenario {
        let s = try await W.scenario()
        try await s.given(request, VetRequestSubmitted(requestId: "v-1", petId: "rex", ownerId: W.owner, symptoms: "Coughing", urgency: .urgent))
        if status != .submitted { try await s.given(request, VetRequestAnswered(requestId: "v-1", answer: "Bring him in today", answeredBy: W.staff)) }
        if status == .closed { try await s.given(request, VetRequestClosed(requestId: "v-1", closedBy: W.staff)) }
        return s
    }

    // MARK: vet.submit

    @Test func aRequestMayNameItself() async throws {
        let s = try await W.scenario()
        try await s.then(
            W.owner, SubmitVetRequest(petId: "rex", symptoms: "Limping", urgency: .normal, requestId: "v-limp"),
            appends: [(stream("vet-v-limp"), VetRequestSubmitted(requestId: "v-limp", petId: "rex", ownerId: W.owner, symptoms: "Limping", urgency: .normal))])
        try await s.then(
            W.owner, SubmitVetRequest(petId: "rex", symptoms: "Sneezing", urgency: .low, requestId: "v-limp"),
            throws: .alreadyExists("vet request 'v-limp' exists already"))
    }

    @Test func submittingARequest() async throws {
        let s = try await W.scenario()
        let id = W.commandID(41)
        let requestId = W.generated("v", id)
        let command = SubmitVetRequest(petId: "rex", symptoms: " Not eating since yesterday ", urgency: .urgent, preferredTime: t("2026-12-01T15:00:00Z"))
        try await s.then(
            W.owner, command, id: id,
            appends: [
                (Streams.vetRequest(requestId),
                 VetRequestSubmitted(
                    requestId: requestId, petId: "rex", ownerId: W.owner, symptoms: "Not eating since yesterday", urgency: .urgent,
                    preferredTime: t("2026-12-01T15:00:00Z")))
            ])
        try await s.then(W.owner, command, id: id, appends: [])
        try await s.then(
            W.owner, SubmitVetRequest(petId: "rex", symptoms: "Other", urgency: .low), id: id,
            throws: .invalid(field: "commandId", reason: "command id \(id.uuidString.lowercased()) was used by vet.submit with other fields already; a command id names one command"))
        let other = W.generated("v", W.commandID(42))
        try await s.then(
            W.owner, SubmitVetRequest(petId: "rex", symptoms: "Sneezing", urgency: .low), id: W.commandID(42),
            appends: [(Streams.vetRequest(other), VetRequestSubmitted(requestId: other, petId: "rex", ownerId: W.owner, symptoms: "Sneezing", urgency: .low))])
    }

    @Test func submitRules() async throws {
        let s = try await W.scenario()
        try await s.then(W.owner, SubmitVetRequest(petId: "rex", symptoms: "  ", urgency: .normal), throws: .invalid(field: "symptoms", reason: "must not be empty"))
        try await s.then(
            W.owner, SubmitVetRequest(petId: "rex", symptoms: String(repeating: "s", count: 2_001), urgency: .normal),
            throws: .invalid(field: "symptoms", reason: "must be at most 2000 characters"))
        try await s.then(
            W.owner, SubmitVetRequest(petId: "rex", symptoms: "Coughing", urgency: .normal, preferredTime: DomainScenario.now),
            throws: .invalid(field: "preferredTime", reason: "2026-12-01T09:00:00.000000Z is not in the future of the command's clock (2026-12-01T09:00:00.000000Z)"))
        try await s.then(W.owner, SubmitVetRequest(petId: "ghost", symptoms: "Coughing", urgency: .normal), throws: .notFound("pet 'ghost' does not exist"))
        try await s.given(Streams.pet("rex"), PetRemoved(petId: "rex"))
        try await s.then(
            W.owner, SubmitVetRequest(petId: "rex", symptoms: "Coughing", urgency: .normal),
            throws: .invalidState("pet 'rex' was removed and accepts no further commands"))
    }

    @Test(arguments: W.wrongActors)
    func onlyThePetsOwnerSubmits(_ actor: String) async throws {
        try await W.scenario().then(
            actor, SubmitVetRequest(petId: "rex", symptoms: "Coughing", urgency: .normal), throws: W.notOwnerError(actor, SubmitVetRequest.self))
    }

    // MARK: vet.answer and vet.close

    @Test(arguments: [W.staff, W.admin])
    func staffAnswerAgainAndClose(_ actor: String) async throws {
        let s = try await Self.withRequest(.submitted)
        try await s.then(
            actor, AnswerVetRequest(requestId: "v-1", answer: " Keep him hydrated "),
            appends: [(Self.request, VetRequestAnswered(requestId: "v-1", answer: "Keep him hydrated", answeredBy: actor))])
        try await s.then(
            actor, AnswerVetRequest(requestId: "v-1", answer: "Come in at 4 pm"),
            appends: [(Self.request, VetRequestAnswered(requestId: "v-1", answer: "Come in at 4 pm", answeredBy: actor))])
        try await s.then(actor, CloseVetRequest(requestId: "v-1"), appends: [(Self.request, VetRequestClosed(requestId: "v-1", closedBy: actor))])
        try await s.then(actor, CloseVetRequest(requestId: "v-1"), throws: .invalidState("vet request 'v-1' is closed; only a submitted or answered request can be closed"))
    }

    @Test func answerRules() async throws {
        let s = try await Self.withRequest(.submitted)
        try await s.then(W.staff, AnswerVetRequest(requestId: "v-1", answer: ""), throws: .invalid(field: "answer", reason: "must not be empty"))
        try await s.then(W.staff, AnswerVetRequest(requestId: "v-9", answer: "A"), throws: .notFound("vet request 'v-9' does not exist"))
        try await s.then(W.staff, CloseVetRequest(requestId: "v-9"), throws: .notFound("vet request 'v-9' does not exist"))
    }

    @Test(arguments: [W.owner, W.otherCustomer, W.guest, W.noAccount])
    func onlyStaffAnswerAndClose(_ actor: String) async throws {
        let s = try await Self.withRequest(.submitted)
        func error(_ name: String, _ verb: String) -> DomainError {
            switch actor {
            case W.guest: .forbidden("guests cannot \(name); sign up or log in first")
            case W.noAccount: .forbidden("user 'u-nobody' has no account")
            default: .forbidden("only staff \(verb) vet requests; customer '\(actor)' is not staff")
            }
        }
        try await s.then(actor, AnswerVetRequest(requestId: "v-1", answer: "A"), throws: error("vet.answer", "answer"))
        try await s.then(actor, CloseVetRequest(requestId: "v-1"), throws: error("vet.close", "close"))
    }

    @Test func staffMayDiscussAVetRequestWithItsOwner() async throws {
        let s = try await Self.withRequest(.submitted)
        try await s.then(
            W.staff, StartConversation(subject: .vetRequest, subjectId: "v-1", conversationId: "c-1"),
            appends: [(stream("conversation-c-1"), ConversationStarted(conversationId: "c-1", subject: .vetRequest, subjectId: "v-1", ownerId: W.owner, startedBy: W.staff))])
    }

    enum Transition: String, CaseIterable, Sendable { case answer, close }

    @Test(arguments: VetRequestStatus.allCases, Transition.allCases)
    func lifecycle(_ status: VetRequestStatus, _ transition: Transition) async throws {
        let s = try await Self.withRequest(status)
        switch (transition, status) {
        case (.answer, .closed):
            try await s.then(
                W.staff, AnswerVetRequest(requestId: "v-1", answer: "A"),
                throws: .invalidState("vet request 'v-1' is closed; only a submitted or answered request can be answered"))
        case (.answer, _):
            try await s.then(
                W.staff, AnswerVetRequest(requestId: "v-1", answer: "A"),
                appends: [(Self.request, VetRequestAnswered(requestId: "v-1", answer: "A", answeredBy: W.staff))])
        case (.close, .closed):
            try await s.then(
                W.staff, CloseVetRequest(requestId: "v-1"),
                throws: .invalidState("vet request 'v-1' is closed; only a submitted or answered request can be closed"))
        case (.close, _):
            try await s.then(W.staff, CloseVetRequest(requestId: "v-1"), appends: [(Self.request, VetRequestClosed(requestId: "v-1", closedBy: W.staff))])
        }
    }
}
