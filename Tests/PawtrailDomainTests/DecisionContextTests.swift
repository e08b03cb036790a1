import EventLog
import Foundation
import PawtrailDomain
import Testing

@Suite("Decision context")
struct DecisionContextTests {
    static func context(_ uuid: String) -> DecisionContext {
        DecisionContext(
            actor: Actor(userID: "u", role: .customer), now: DomainScenario.now, commandID: UUID(uuidString: uuid)!,
            correlationID: "", commandName: "")
    }

    @Test func generatedIdsDependOnTheWholeCommandIdAndTheIndex() {
        var seen: Set<String> = []
        // Sequential command ids, several indexes each: ids a naive "last bytes XOR index" scheme would repeat.
        for n in 0..<512 {
            let digits = String(n, radix: 16)
            let c = Self.context("00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits)
            for index in 0..<4 { #expect(seen.insert(c.newID("x", index: index)).inserted) }
        }
        // Time-based (v1) UUIDs of one host share their last six bytes.
        let a = Self.context("6ba7b810-9dad-11d1-80b4-00c04fd430c8").newID("s")
        let b = Self.context("7ca7b810-9dad-11d1-80b4-00c04fd430c8").newID("s")
        #expect(a != b)
        #expect(a.count == 13 && a.hasPrefix("s-"))
        // The same command id always gives the same id, so a decision stays pure.
        #expect(Self.context("6ba7b810-9dad-11d1-80b4-00c04fd430c8").newID("s") == a)
    }
}
