import Testing

@testable import PawtrailCLI

@Suite struct DisplayWidthTests {
    @Test func marksTakeNoColumnAndWideCharactersTwo() {
        #expect(DisplayWidth.of("Rex") == 3)
        // গ + ো (a spacing vowel sign) + স + ল; the virama of ক্ষ takes no column.
        #expect(DisplayWidth.of("গোসল") == 4)
        #expect(DisplayWidth.of("ক্ষ") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1, "a combining accent")
        #expect(DisplayWidth.of("猫") == 2 && DisplayWidth.of("🐶") == 2)
    }

    @Test func tablesPadByDisplayWidth() {
        let lines = TextTable.render([["NAME", "LANGUAGE"], ["নখ কাটা", "bn-BD"], ["nail trim", "en-US"]])
        // Every second column starts at the same terminal column.
        let starts = lines.map { line in
            DisplayWidth.of(String(line[..<line.range(of: line.contains("bn-BD") ? "bn-BD" : line.contains("en-US") ? "en-US" : "LANGUAGE")!.lowerBound]))
        }
        #expect(Set(starts).count == 1, "\(lines)")
        // With character counts the Bangla row would start its second column two columns early.
        #expect("নখ কাটা".count != DisplayWidth.of("নখ কাটা"))
    }
}
