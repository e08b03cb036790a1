import EventLog
import Events
import Projections
import Testing

@Suite("Event kinds")
struct EventKindTests {
    @Test func anEventsKindIsItsTypesIdentity() {
        let e = ProjectedEvent(
            position: 0, stream: StreamID(unchecked: "order-o-1"), recordedAt: Timestamp(microsecondsSinceEpoch: 0),
            event: OrderConfirmed(orderId: "o-1", confirmedBy: "s-1"))
        #expect(e.kind == OrderConfirmed.kind)
        #expect(e.kind != OrderShipped.kind, "same fields, another type")
        #expect(e.kind != OrderPlaced.kind)
    }
}
