public import Events

/// A command of the domain: a value read from the command line or a JSON line, which loads the state it needs and
/// decides, purely, which events to append.
///
/// # Conformance requirements
/// - `name` is `area.verb` (`pet.add`); the CLI runs it as `pawtrail area verb`.
/// - ``run(_:loading:)`` reads streams only through the loader: every stream it loads becomes part of the
///   append's expectations, so a concurrent change to anything the decision looked at makes the append fail and
///   the handler decide again.
/// - The decision itself is a pure function of the loaded states, the command and the context.
public protocol DomainCommand: FieldCodable {
    /// `area.verb`.
    static var name: String { get }
    /// One sentence for help.
    static var summary: String { get }
    /// Whether the actor must hold a live account (default `true`). Sign-up creates one; guest commands have none.
    static var actorNeedsAccount: Bool { get }
    /// Whether guests may issue it (default `false`).
    static var allowsGuests: Bool { get }
    /// Whether staff may issue it for a customer (`--for USER`: a customer who phones in, a walk-in at the clinic),
    /// the decision then acting as that customer (``DecisionContext/principal``) (default `false`).
    static var staffMayActFor: Bool { get }
    /// Whether a deleted account may still issue it (default `false`): it ends something the account left open
    /// (a pet's bookings, an order not yet shipped), which the deletion winds down.
    static var windsDownDeletedAccount: Bool { get }

    /// Loads what the decision needs and decides.
    ///
    /// - Parameters:
    ///   - context: The actor, clock and ids.
    ///   - loader: Reads stream states and records their versions.
    /// - Returns: The events to append.
    /// - Throws: ``DomainError`` when the command is rejected; store errors from loading.
    func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision
}

extension DomainCommand {
    public static var actorNeedsAccount: Bool { true }
    public static var allowsGuests: Bool { false }
    public static var staffMayActFor: Bool { false }
    public static var windsDownDeletedAccount: Bool { false }

    /// The fields of the command, for help and the catalog.
    public static var fields: [FieldDescriptor] { SchemaRecorder.fields(of: Self.self) }
}
