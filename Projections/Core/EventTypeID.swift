public import Events

// Dispatch by type identity. A `switch e.event { case let x as T: ... }` tries one dynamic cast per case until one
// matches, and a failed cast to a struct costs about 30 ns (it looks for bridging and wrapping conversions), so a
// projection reading twenty types pays up to 0.6 µs per event before doing any work. Comparing type identities is
// a pointer comparison; after a match the one cast cannot fail:
//
//     switch e.typeID {
//     case OrderPlaced.typeID:
//         let x = e.event as! OrderPlaced
//         ...

extension ProjectedEvent {
    /// The identity of the event's concrete type, to compare with ``Events/DomainEvent/typeID``.
    @inlinable public var typeID: ObjectIdentifier { ObjectIdentifier(type(of: event)) }
}

extension DomainEvent {
    /// The identity of this event type, to compare with ``ProjectedEvent/typeID``.
    @inlinable public static var typeID: ObjectIdentifier { ObjectIdentifier(self) }
}
