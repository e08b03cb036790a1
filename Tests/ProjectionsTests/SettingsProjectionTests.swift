import EventLog
import Events
import Projections
import Testing

@Suite struct SettingsProjectionTests {
    @Test func theLastReadPolicyStands() throws {
        func event(_ e: any DomainEvent, _ p: UInt64) -> ProjectedEvent {
            ProjectedEvent(position: p, stream: StreamID(unchecked: "settings"), recordedAt: Timestamp(microsecondsSinceEpoch: 0), event: e)
        }
        #expect(try SettingsProjection.folded([]).requireViewer == false)
        let on = ReadPolicySet(requireViewer: true, setBy: "u-admin")
        #expect(try SettingsProjection.folded([event(on, 0)]).requireViewer)
        let off = ReadPolicySet(requireViewer: false, setBy: "u-admin")
        #expect(try SettingsProjection.folded([event(on, 0), event(off, 1)]).requireViewer == false)
        let zone = BusinessTimeZoneSet(timeZone: "Asia/Dhaka", setBy: "u-admin")
        #expect(try SettingsProjection.folded([event(on, 0), event(zone, 1)]).requireViewer)
    }
}
