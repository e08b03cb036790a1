import EventLog
import Events
import Projections
import Testing

@Suite("Event type ids")
struct EventTypeIDTests {
    @Test func anEventsTypeIDIsItsTypesIdentity() {
        let e = ProjectedEvent(
            position: 0, stream: StreamID(unchecked: "order-o-1"), recordedAt: Timestamp(microsecondsSinceEpoch: 0),
            event: OrderConfirmed(orderId: "o-1", confirmedBy: "s-1"))
        #expect(e.typeID == OrderConfirmed.typeID)
        #expect(e.typeID != OrderShipped.typeID, "same fields, another type")
        #expect(e.typeID != OrderPlaced.typeID)
    }
}
