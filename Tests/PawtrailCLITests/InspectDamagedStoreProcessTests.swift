import Foundation
import Testing

/// `log inspect` on a store whose damage keeps it from opening lays the other segments open from their files, with a
/// warning, and reports the damaged one's own damage: the segments around damage are what an operator looks at.
@Suite(.ownThreads) struct InspectDamagedStoreProcessTests {
    @Test func `a store that does not open still has its undamaged segments inspected`() throws {
        let dir = try TemporaryDirectory()
        let store = dir.path("store")
        let small = ["PAWTRAIL_SEGMENT_EVENTS": "4"]
        for n in 0..<10 {
            let r = try PawtrailProcess.run(["--store", store, "log", "append", "--stream", "a-1", "--type", "Noted", "--data", #"{"n":\#(n)}"#], environment: small)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let damaged = store + "/segments/00000000000000000004.seg"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        bytes[0] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let read = try PawtrailProcess.run(["--store", store, "log", "read", "--all"])
        #expect(read.status == 74, "the store does not open")

        let sealed = try PawtrailProcess.run(["--store", store, "log", "inspect", "00000000000000000000.seg", "--json"])
        #expect(sealed.status == 0)
        #expect(sealed.stdout.hasPrefix(#"{"name":"00000000000000000000.seg","formatVersion":3"#), "\(sealed.stdout)")
        #expect(sealed.stderr.hasPrefix("Warning: the store does not open (corrupt data in "), "\(sealed.stderr)")
        #expect(sealed.stderr.hasSuffix("00000000000000000000.seg is laid open from its files alone\n"))
        // A position names the last segment starting at or before it: the active one holds 8 and 9.
        let active = try PawtrailProcess.run(["--store", store, "log", "inspect", "9"])
        #expect(active.status == 0)
        #expect(active.stdout.hasPrefix("Segment 00000000000000000008.seg\n  state:           active\n"), "\(active.stdout)")
        let broken = try PawtrailProcess.run(["--store", store, "log", "inspect", "00000000000000000004"])
        #expect(broken.status == 74)
        #expect(broken.stderr.hasSuffix("00000000000000000004.seg at offset 0: not a Pawtrail segment (bad magic)\n"), "\(broken.stderr)")
        let missing = try PawtrailProcess.run(["--store", store, "log", "inspect", "nope"])
        #expect(missing.status == 65)
    }
}
