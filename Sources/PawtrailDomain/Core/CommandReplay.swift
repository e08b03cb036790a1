import EventLog
import Events
import Foundation

/// Recognises a command re-sent with the id of one already applied (a client that lost the answer and tries again),
/// and gives back what it appended the first time instead of deciding it again.
///
/// A command's events carry ids derived from its command id (``DecisionContext/eventID(commandID:index:)``) and
/// the command id as their causation id; they are one append, so they sit at consecutive positions.
enum CommandReplay {
    /// The metadata key of the digest of a command's fields, on its first event.
    static let digestKey = "commandDigest"

    /// A digest of a command's fields (64 bits of their JSON, in hex), and of the customer acted for when there is
    /// one: what tells a re-send from another command under the same id.
    static func digest(_ command: some DomainCommand, actedFor: String? = nil) -> String {
        var hash = StableHash()
        Array(JSONFieldWriter.json(command).serialized.utf8).withUnsafeBytes { hash.combine($0) }
        if let actedFor { Array(("\u{1F}for:" + actedFor).utf8).withUnsafeBytes { hash.combine($0) } }
        return String(format: "%016llx", hash.value)
    }

    /// The outcome of the command applied earlier under this id, `nil` when none was.
    ///
    /// - Parameters:
    ///   - command: The command now sent.
    ///   - digest: Its ``digest(_:)``.
    ///   - commandID: Its id.
    ///   - userID: Who sends it.
    ///   - store: The store.
    /// - Returns: The earlier outcome, marked replayed.
    /// - Throws: ``DomainError/invalid(field:reason:)`` on `commandId` when the id was used by another command or
    ///   another user; store errors.
    static func earlierOutcome<C: DomainCommand>(
        of command: C, digest: String, commandID: UUID, as userID: String, in store: any EventStore
    ) async throws -> CommandOutcome? {
        let causation = commandID.uuidString.lowercased()
        guard let first = try await store.event(withID: DecisionContext.eventID(commandID: commandID, index: 0)),
            first.metadata[EventMetadata.causationID] == causation
        else { return nil }
        let name = first.metadata["command"] ?? "an unnamed command"
        guard name == C.name else {
            throw DomainError.invalid(
                field: "commandId", reason: "command id \(causation) was used by \(name) already; a command id names one command")
        }
        guard first.metadata[digestKey] == digest else {
            throw DomainError.invalid(
                field: "commandId",
                reason: "command id \(causation) was used by \(name) with other fields already; a command id names one command")
        }
        guard first.metadata[EventMetadata.actor] == userID else {
            throw DomainError.invalid(field: "commandId", reason: "command id \(causation) was used by another user already")
        }
        var recorded: [RecordedEvent] = []
        var from = first.position
        reading: while true {
            let batch = try await store.read(ReadRequest(source: .all, from: from, limit: 64))
            for e in batch.events {
                guard e.metadata[EventMetadata.causationID] == causation else { break reading }
                recorded.append(e)
            }
            guard let next = batch.next else { break }
            from = next
        }
        var events: [CommandOutcome.Appended] = []
        for e in recorded {
            guard let event = try? EventCatalog.domain.decode(type: e.type, data: e.data) else {
                throw EventStoreError.corrupted(
                    location: "event \(e.position)", offset: nil, reason: "its \(e.type) data does not decode as the event catalog's")
            }
            events.append(.init(position: e.position, stream: e.stream, version: e.version, event: event))
        }
        let role = first.metadata["role"].flatMap(Role.init(rawValue:)) ?? .customer
        return CommandOutcome(command: C.name, actor: Actor(userID: userID, role: role), events: events, attempts: 0, replayed: true)
    }
}
