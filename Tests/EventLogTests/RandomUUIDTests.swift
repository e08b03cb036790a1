import EventLog
import Foundation
import Testing

@Suite struct RandomUUIDTests {
    @Test func randomUUIDsAreVersion4VariantRFCAndDistinct() {
        var seen: Set<UUID> = []
        for _ in 0..<10_000 {
            let id = UUID.random()
            let text = id.uuidString
            #expect(Array(text)[14] == "4", "\(text)")
            #expect("89AB".contains(Array(text)[19]), "\(text)")
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }
}
