import EventLog
import EventLogMemory
import Events
import Foundation
import PawtrailDomain
import Testing

/// The cast of the pets, bookings and vet tests: Ann owns the dog Rex, Bob is another customer, Sam is staff, Ada
/// an admin; `guest-1` is a guest and `u-nobody` has no account.
enum PetWorld {
    static let owner = "u-ann"
    static let otherCustomer = "u-bob"
    static let staff = "u-sam"
    static let admin = "u-ada"
    static let guest = "guest-1"
    static let noAccount = "u-nobody"

    /// The pet every test starts with.
    static let rex = PetAdded(petId: "rex", ownerId: owner, name: "Rex", species: .dog, breed: "Beagle", ageMonths: 30, weightGrams: 11_000)

    /// A scenario with the accounts, the roles and Rex.
    static func scenario() async throws -> DomainScenario {
        let s = DomainScenario()
        for id in [owner, otherCustomer, staff, admin] {
            try await s.given(Streams.account(id), AccountSignedUp(userId: id, name: id, email: "\(id)@example.com", language: .enUS))
        }
        try await s.given(
            Streams.roles, AdminBootstrapped(userId: admin), RoleGranted(userId: staff, role: .staff, grantedBy: admin))
        try await s.given(Streams.pet("rex"), rex)
        return s
    }

    /// A fixed command id, so generated ids are known in advance.
    static func commandID(_ n: Int) -> UUID {
        let digits = String(n)
        return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
    }

    /// The id a command with this command id generates for `prefix`.
    static func generated(_ prefix: String, _ commandID: UUID) -> String {
        DecisionContext(
            actor: Actor(userID: owner, role: .customer), now: DomainScenario.now, commandID: commandID, correlationID: "",
            commandName: ""
        ).newID(prefix)
    }

    /// The error a command gets from an actor who is not the pet's owner: every wrong actor there is.
    static func notOwnerError<C: DomainCommand>(_ actor: String, _ command: C.Type, petId: String = "rex") -> DomainError {
        switch actor {
        case otherCustomer: .forbidden("pet '\(petId)' belongs to another owner; customer '\(actor)' may not act on it")
        case staff: .forbidden("pet '\(petId)' belongs to another owner; staff '\(actor)' may not act on it")
        case admin: .forbidden("pet '\(petId)' belongs to another owner; admin '\(actor)' may not act on it")
        case guest: .forbidden("guests cannot \(C.name); sign up or log in first")
        default: .forbidden("user '\(actor)' has no account")
        }
    }

    /// Every actor who is not Rex's owner.
    static let wrongActors = [otherCustomer, staff, admin, guest, noAccount]
}

/// `2026-12-05T10:00:00Z` as a timestamp.
func t(_ iso: String) -> Timestamp { Timestamp(iso8601: iso)! }

extension DomainScenario {
    /// Runs a command under a fixed command id and returns what it appended.
    func when<C: DomainCommand>(_ userID: String, _ command: C, id: UUID, now: Timestamp = DomainScenario.now) async throws
        -> [(StreamID, any DomainEvent)]
    {
        let outcome = try await handler.handle(command, as: userID, now: now, commandID: id)
        // A re-send appends nothing now; its outcome repeats what the first one appended.
        return outcome.appendedNow.map { ($0.stream, $0.event) }
    }

    /// Expects the command, under a fixed command id, to append exactly these events.
    func then<C: DomainCommand>(
        _ userID: String, _ command: C, id: UUID, now: Timestamp = DomainScenario.now,
        appends expected: [(StreamID, any DomainEvent)], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let actual = try await when(userID, command, id: id, now: now)
        #expect(
            actual.count == expected.count && zip(actual, expected).allSatisfy { $0.0 == $1.0 && Self.same($0.1, $1.1) },
            "appended \(Self.describe(actual)), expected \(Self.describe(expected))", sourceLocation: sourceLocation)
    }

    /// Expects the command, under a fixed command id, to be rejected with exactly this error, appending nothing.
    func then<C: DomainCommand>(
        _ userID: String, _ command: C, id: UUID, now: Timestamp = DomainScenario.now, throws expected: DomainError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try await store.lastPosition()
        do {
            let actual = try await when(userID, command, id: id, now: now)
            Issue.record("expected \(expected.kind): \(expected), but it appended \(Self.describe(actual))", sourceLocation: sourceLocation)
        } catch let error as DomainError {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
        #expect(try await store.lastPosition() == before, "a rejected command appended events", sourceLocation: sourceLocation)
    }
}

/// A store whose first `parties` appends wait for each other: every racer has decided from the same versions
/// before any of them commits, so the race is real and not left to scheduling luck.
struct BarrierStore: EventStore {
    let inner: InMemoryEventStore
    let barrier: Barrier

    init(_ inner: InMemoryEventStore = InMemoryEventStore(), parties: Int) {
        self.inner = inner
        barrier = Barrier(parties)
    }

    func append(_ request: AppendRequest) async throws -> AppendResult {
        await barrier.arrive()
        return try await inner.append(request)
    }

    func read(_ request: ReadRequest) async throws -> ReadBatch { try await inner.read(request) }
    func streamVersion(of stream: StreamID) async throws -> UInt64? { try await inner.streamVersion(of: stream) }
    func lastPosition() async throws -> UInt64? { try await inner.lastPosition() }
    func lastPosition(atOrBefore time: Timestamp) async throws -> UInt64? { try await inner.lastPosition(atOrBefore: time) }
    func waitForAppends(after position: UInt64?, timeout: Duration) async throws -> Bool {
        try await inner.waitForAppends(after: position, timeout: timeout)
    }
}

/// Holds the first `parties` arrivals until all have arrived; later arrivals pass at once.
actor Barrier {
    private var remaining: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ parties: Int) { remaining = parties }

    func arrive() async {
        guard remaining > 0 else { return }
        remaining -= 1
        if remaining == 0 {
            for w in waiting { w.resume() }
            waiting = []
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }
}

/// Runs an async throwing body and captures its outcome, for racing commands side by side.
func attempt<T: Sendable>(_ body: @Sendable () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
