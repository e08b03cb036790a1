public import Events

// Dispatch by type identity. A `switch e.event { case let x as T: ... }` tries one dynamic cast per case until one
// matches, and a failed cast to a struct costs about 30 ns (it looks for bridging and wrapping conversions), so a
// projection reading twenty types pays up to 0.6 µs per event before doing any work. Comparing type identities is
// a pointer comparison; after a match the one cast cannot fail:
//
//     switch e.kind {
//     case OrderPlaced.kind:
//         let x = e.event as! OrderPlaced
//         ...

extension ProjectedEvent {
    /// The identity of the event's concrete type, to compare with ``Events/DomainEvent/kind``.
    @inlinable public var kind: ObjectIdentifier { ObjectIdentifier(type(of: event)) }
}

extension DomainEvent {
    /// The identity of this event type, to compare with ``ProjectedEvent/kind``.
    @inlinable public static var kind: ObjectIdentifier { ObjectIdentifier(self) }
}
