import EventLog
@testable import EventLogTestKit
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

/// The canonical-text reader reads every canonical UUID as Foundation's parser does, in either case, and leaves
/// anything else to it.
@Suite struct CanonicalUUIDTextTests {
    func read(_ text: String) -> UUID? {
        Array(text.utf8).withUnsafeBufferPointer { UUID(canonicalText: $0) }
    }

    @Test func readsCanonicalTextAsFoundationDoes() {
        for _ in 0..<2_000 {
            let id = UUID.random()
            #expect(read(id.uuidString) == id)
            #expect(read(id.uuidString.lowercased()) == id)
            #expect(read(id.uuidString) == UUID(uuidString: id.uuidString))
        }
        #expect(read("00000000-0000-0000-0000-000000000000") == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        #expect(read("FFFFFFFF-ffff-FFFF-ffff-FFFFFFFFFFFF") == UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"))
    }

    @Test(arguments: [
        "", "0e6d6f4a-0000-4000-8000-00000000000", "0e6d6f4a-0000-4000-8000-0000000000011", "0e6d6f4a00000-4000-8000-000000000001",
        "0e6d6f4a-0000-4000-8000_000000000001", "0e6d6f4g-0000-4000-8000-000000000001", " e6d6f4a-0000-4000-8000-000000000001",
        "{0e6d6f4a-0000-4000-8000-000000000001}", "0e6d6f4a-0000-4000-8000-00000000000é",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(read(text) == nil)
    }
}
