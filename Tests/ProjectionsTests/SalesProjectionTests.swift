import Events
import PawtrailJSON
import Projections
import Testing

@Suite("Sales projection")
struct SalesProjectionTests {
    static func line(_ id: String, _ name: String, _ price: Int64, _ quantity: Int64, _ currency: String = "BDT") -> PurchaseLine {
        PurchaseLine(
            productId: id, name: name, category: "cat", imageRef: "img", unitPrice: Money(price, currency), quantity: quantity,
            lineTotal: Money(price * quantity, currency))
    }

    static func sale(_ id: String, by staff: String = "u-sam", for customer: String? = nil, _ lines: [PurchaseLine], _ payment: StorePayment) -> InStoreSaleCompleted {
        InStoreSaleCompleted(
            saleId: id, soldBy: staff, lines: lines, total: Money(lines.reduce(0) { $0 + $1.lineTotal.minorUnits }, lines[0].lineTotal.currency),
            payment: payment, customerId: customer)
    }

    /// Two sales on 1 December (one for Ann), one late on 2 December, in ringing order.
    static func scenario() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("sale-s-1", sale("s-1", [line("litter", "Cat Litter", 62_000, 2)], .cash), at: "2026-12-01T09:30:00Z")
        s.given("sale-s-2", sale("s-2", by: "u-kim", for: "u-ann", [line("food", "Kitten Food", 69_000, 1), line("toy", "Mouse", 25_000, 3)], .card), at: "2026-12-01T16:45:00Z")
        s.given("sale-s-3", sale("s-3", [line("bowl", "Bowl", 35_000, 1)], .cash), at: "2026-12-02T23:59:59Z")
        return s
    }

    @Test func aDaysReceiptsInRingingOrderWithTakingsByPayment() throws {
        let out = try Self.scenario().view(SalesView.self, ["day": "2026-12-01"])
        #expect(out.title == "Sales of 2026-12-01")
        #expect(out.header == ["TIME", "SALE", "STAFF", "CUSTOMER", "ITEMS", "PAYMENT", "TOTAL"])
        #expect(
            out.rows == [
                ["09:30", "s-1", "u-sam", "", "2 × Cat Litter", "cash", "1,240.00 BDT"],
                ["16:45", "s-2", "u-kim", "u-ann", "1 × Kitten Food, 3 × Mouse", "card", "1,440.00 BDT"],
            ])
        #expect(out.footer == ["2 sales", "Takings: card 1,440.00 BDT, cash 1,240.00 BDT"])
        guard case .array(let sales)? = out.json["sales"] else { Issue.record("no sales"); return }
        #expect(sales.map { $0["customerId"] } == [.null, .string("u-ann")])
    }

    @Test func withoutADayTheLatestDayWithASaleIsShown() throws {
        var s = Self.scenario()
        #expect(try s.view(SalesView.self).title == "Sales of 2026-12-02")
        // A sale rung up later on an earlier business day (a replayed script) does not move the latest day back.
        s.given("sale-s-4", Self.sale("s-4", [Self.line("bowl", "Bowl", 35_000, 2)], .card), at: "2026-12-01T18:00:00Z")
        #expect(try s.view(SalesView.self).title == "Sales of 2026-12-02")
        #expect(try s.view(SalesView.self, ["day": "2026-12-01"]).rows.map { $0[1] } == ["s-1", "s-2", "s-4"])
    }

    @Test func aDayWithoutSalesAndAStoreWithoutAnyAreEmptyNotErrors() throws {
        let out = try Self.scenario().view(SalesView.self, ["day": "2026-11-30"])
        #expect(out.rows.isEmpty && out.footer == ["0 sales"] && out.json["takings"] == .array([]))
        let none = try ProjectionScenario().view(SalesView.self)
        #expect(none.title == "Sales (none yet)" && none.json["day"] == .null)
    }

    @Test(arguments: ["2026-13-01", "yesterday", "2026-12-1", "2026-12-01T00:00:00Z"])
    func aDayIsYYYYMMDD(_ day: String) {
        #expect(throws: ViewError.invalid("day", "'\(day)' is not a day (YYYY-MM-DD)")) {
            try Self.scenario().view(SalesView.self, ["day": day])
        }
    }

    @Test func takingsAreSummedPerPaymentAndCurrency() throws {
        var s = ProjectionScenario()
        s.given("sale-a", Self.sale("a", [Self.line("x", "X", 500, 2, "USD")], .cash), at: "2026-12-03T10:00:00Z")
        s.given("sale-b", Self.sale("b", [Self.line("y", "Y", 10_000, 1)], .cash), at: "2026-12-03T11:00:00Z")
        s.given("sale-c", Self.sale("c", [Self.line("x", "X", 500, 1, "USD")], .cash), at: "2026-12-03T12:00:00Z")
        #expect(try s.view(SalesView.self).footer == ["3 sales", "Takings: cash 100.00 BDT, cash 15.00 USD"])
    }
}
