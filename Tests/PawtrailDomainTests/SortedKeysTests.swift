import Events
import Testing

/// Dictionaries are encoded in `String`'s order of their keys: the byte-wise sort of ASCII keys gives exactly that
/// order, and keys past ASCII take the string sort.
@Suite struct SortedKeysTests {
    @Test func sortsAsStringsSort() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ-_019~ \u{0}\u{7F}")
        let wide = ["é", "e\u{301}", "Å", "\u{212B}", "😀", "ſ", "z"]
        for round in 0..<400 {
            var keys = Set<String>()
            for _ in 0..<Int.random(in: 0...60, using: &rng) {
                let length = Int.random(in: 0...24, using: &rng)
                var k = String((0..<length).map { _ in alphabet.randomElement(using: &rng)! })
                // A shared prefix longer than the sixteen bytes compared first.
                if Bool.random(using: &rng) { k = "order-o-0000000000" + k }
                if round % 4 == 0, Bool.random(using: &rng) { k += wide.randomElement(using: &rng)! }
                keys.insert(k)
            }
            #expect(SortedKeys.of(keys) == keys.sorted(), "\(keys.sorted())")
        }
    }
}
