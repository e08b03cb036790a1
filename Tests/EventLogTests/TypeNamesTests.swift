@testable import EventLogFile
@testable import EventLogTestKit
import Testing

@Suite struct TypeNamesTests {
    func match(_ names: TypeNames, _ type: String) -> String? {
        Array(type.utf8).withUnsafeBytes { names.match($0) }
    }

    @Test func `a filter matches whole names only, among names of one length and last byte`() {
        // OrderPlaced and OrderShipped... share lengths and last bytes with others here on purpose.
        let names = TypeNames(["OrderPlaced", "OrderCreated", "CartCleared", "A", "PetAdded"])
        #expect(match(names, "OrderPlaced") == "OrderPlaced")
        #expect(match(names, "CartCleared") == "CartCleared", "same length and last byte as OrderPlaced")
        #expect(match(names, "OrderCreated") == "OrderCreated")
        #expect(match(names, "A") == "A")
        for other in ["OrderPlace", "OrderPlacedX", "orderPlaced", "CartClearee", "", "B", "PetAddeD", String(repeating: "x", count: 200)] {
            #expect(match(names, other) == nil, "'\(other)'")
        }
        #expect(match(TypeNames([]), "OrderPlaced") == nil)
    }
}
