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

    @Test func asciiTextIsCountedAsEachScalarCountsIt() {
        // Every ASCII byte, controls included, alone and mixed with non-ASCII text that takes the scalar path.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &generator))
            }
            let text = String(String.UnicodeScalarView(scalars))
            #expect(DisplayWidth.of(text) == scalars.reduce(0) { $0 + DisplayWidth.of($1) }, "\(Array(text.utf8))")
            #expect(DisplayWidth.of(text + "ক্ষ") == DisplayWidth.of(text) + 2)
        }
        #expect(DisplayWidth.of("a\tb\u{7F}c") == 3, "controls and DEL take no column")
    }

    @Test func tablesPadEveryColumnButTheLastAndAlignNumbersRight() {
        let lines = TextTable.render([["ID", "UNITS", "NOTE"], ["o-1", "5", "gift"], ["o-22", "120", ""], ["o-3"]], rightAligned: [1])
        #expect(lines == ["ID    UNITS  NOTE", "o-1       5  gift", "o-22    120", "o-3"])
    }
}
