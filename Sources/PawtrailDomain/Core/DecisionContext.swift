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
    /// The customer a staff member acts for (`--for`), when one is named.
    public var actedFor: String?

    /// Creates a context.
    public init(actor: Actor, now: Timestamp, commandID: UUID, correlationID: String, commandName: String, actedFor: String? = nil) {
        self.actor = actor
        self.now = now
        self.commandID = commandID
        self.correlationID = correlationID
        self.commandName = commandName
        self.actedFor = actedFor
    }

    /// Whose command it is: the customer a staff member acts for, else the actor. Decisions that own things (a
    /// booking's owner, the cart an order empties) and check ownership use it; the staff-only rules use ``actor``.
    public var principal: Actor {
        actedFor.map { Actor(userID: $0, role: .customer) } ?? actor
    }

    /// An id for a new entity, derived from the command id so that a decision stays a pure function of its
    /// inputs: the prefix (`p` for a pet, so its stream reads `pet-p-…`), a dash and 11 base64url characters of a
    /// 64-bit hash of the whole command id and `index` (which tells apart several ids of one command). Every bit
    /// of the command id counts, so time-based or sequential command ids do not collide; two random command ids
    /// share an id with odds of about n²/2^65 among n ids. With a prefix of up to two letters the id has at most 14
    /// bytes, which Swift keeps inline in the string itself: no allocation and no reference counting wherever the
    /// id is decoded, hashed or stored (read models hold millions of them).
    private static let base64URL: [Unicode.Scalar] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".unicodeScalars)

    public func newID(_ prefix: String, index: Int = 0) -> String {
        var hash = StableHash()
        withUnsafeBytes(of: commandID.uuid) { hash.combine($0) }
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: index).littleEndian) { hash.combine($0) }
        let h = hash.value
        var text = prefix + "-"
        for shift in stride(from: 60, through: 0, by: -6) {
            text.unicodeScalars.append(Self.base64URL[Int((h >> UInt64(shift)) & 63)])
        }
        return text
    }

    /// The id of the command's event at `index` (in the order of its writes): the command id with a mask of the index
    /// mixed in, as a version-8 UUID. A re-sent command is recognised by its first event's id. Part of what the log
    /// holds: never change it. Two event ids, of one command or of two random command ids, coincide with odds of
    /// about 2^-122.
    ///
    /// - Parameters:
    ///   - commandID: The command's id.
    ///   - index: The event's index among the command's events.
    /// - Returns: The event id.
    public static func eventID(commandID: UUID, index: Int) -> UUID {
        func mask(_ salt: UInt8) -> UInt64 {
            var hash = StableHash()
            withUnsafeBytes(of: salt) { hash.combine($0) }
            withUnsafeBytes(of: UInt64(truncatingIfNeeded: index).littleEndian) { hash.combine($0) }
            return hash.value
        }
        let (high, low) = commandID.words
        var id = commandID.uuid
        withUnsafeMutableBytes(of: &id) { bytes in
            bytes.storeBytes(of: high ^ mask(0x65), as: UInt64.self)
            bytes.storeBytes(of: low ^ mask(0x76), toByteOffset: 8, as: UInt64.self)
            bytes[6] = (bytes[6] & 0x0F) | 0x80
            bytes[8] = (bytes[8] & 0x3F) | 0x80
        }
        return UUID(uuid: id)
    }
}
