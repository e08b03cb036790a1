public import EventLog
public import Foundation

/// What a decision knows besides state: who acts, the command's clock, and the ids that tie its events together.
public struct DecisionContext: Sendable {
    /// The actor, with the role the store knows.
    public var actor: Actor
    /// The command's clock: rules about the future (a booking slot) and the business time of its events.
    public var now: Timestamp
    /// The command's id: the causation id of its events, and the seed of the ids it generates.
    public var commandID: UUID
    /// The id shared by every event of one user action.
    public var correlationID: String
    /// The command's name (`pet.add`).
    public var commandName: String

    /// Creates a context.
    public init(actor: Actor, now: Timestamp, commandID: UUID, correlationID: String, commandName: String) {
        self.actor = actor
        self.now = now
        self.commandID = commandID
        self.correlationID = correlationID
        self.commandName = commandName
    }

    /// An id for a new entity, derived from the command id so that a decision stays a pure function of its
    /// inputs: the prefix (`p` for a pet, so its stream reads `pet-p-…`), a dash and 12 hex digits; `index`
    /// tells apart several ids of one command.
    public func newID(_ prefix: String, index: Int = 0) -> String {
        var bytes = withUnsafeBytes(of: commandID.uuid) { Array($0) }
        bytes[15] ^= UInt8(truncatingIfNeeded: index)
        bytes[14] ^= UInt8(truncatingIfNeeded: index >> 8)
        let hex = bytes.suffix(6).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        return prefix + "-" + hex.joined()
    }
}
