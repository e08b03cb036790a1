import Events
import Projections
import Testing

@Suite struct FormatTests {
    @Test func moneyGroupsThousandsAndKeepsTwoDecimals() {
        let cases: [(Int64, String)] = [
            (0, "0.00 BDT"), (5, "0.05 BDT"), (99, "0.99 BDT"), (100, "1.00 BDT"), (123_456, "1,234.56 BDT"),
            (100_000_000, "1,000,000.00 BDT"), (-1, "-0.01 BDT"), (-123_456, "-1,234.56 BDT"),
            (Int64.max, "92,233,720,368,547,758.07 BDT"), (Int64.min, "-92,233,720,368,547,758.08 BDT"),
        ]
        for (minor, text) in cases {
            #expect(Format.money(Money(minor, "BDT")) == text)
        }
    }
}
