import EventLog
import Events
import PawtrailJSON

/// `pawtrail view sales [--day YYYY-MM-DD]`: the till's receipts of one business day (in the shop's time zone), in the order they were rung up,
/// each with its staff member, customer (when named), lines, payment and total; the footer sums the day by payment
/// and currency. Without `--day`, the latest day with a sale (as of the moment viewed).
public enum SalesView: ProjectionView {
    public typealias Source = SalesProjection
    public static let name = "sales"
    public static let summary = "The till's receipts of a day: time, staff, customer, lines, payment, total; sums by payment."
    public static let options = [ViewOption("day", "YYYY-MM-DD", help: "The business day (in the shop's time zone).", default: "the latest day with a sale")]

    public static func audience(_ state: SalesProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func render(_ state: SalesProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let day = try arguments.day("day") ?? state.latest["latest"]?.text ?? ""
        let receipts = day.isEmpty ? [] : state.day(day)
        var rows: [[String]] = []
        var items: [JSONValue] = []
        // Sums by payment and currency, in a fixed order.
        var sums: [String: Int64] = [:]
        for (saleId, r) in receipts {
            let lines = r.lines.map { "\($0.quantity) × \($0.name)" }.joined(separator: ", ")
            rows.append([
                r.localTime, saleId, r.soldBy, r.customerId ?? "", lines, r.payment.rawValue,
                Format.money(r.total),
            ])
            sums["\(r.payment.rawValue) \(r.total.currency)", default: 0] += r.total.minorUnits
            items.append(
                .object([
                    "saleId": .string(saleId), "at": Format.json(r.at), "soldBy": .string(r.soldBy),
                    "customerId": .string(r.customerId), "payment": .string(r.payment.rawValue), "total": Format.json(r.total),
                    "lines": .array(
                        r.lines.map {
                            .object([
                                "productId": .string($0.productId), "name": .string($0.name), "quantity": .int($0.quantity),
                                "unitPrice": Format.json($0.unitPrice), "lineTotal": Format.json($0.lineTotal),
                            ])
                        }),
                ]))
        }
        let totals = sums.keys.sorted().map { key -> (payment: String, money: Money) in
            let parts = key.split(separator: " ")
            return (String(parts[0]), Money(sums[key]!, String(parts[1])))
        }
        var footer = ["\(receipts.count) sale\(receipts.count == 1 ? "" : "s")"]
        if !totals.isEmpty { footer.append("Takings: " + totals.map { "\($0.payment) \(Format.money($0.money))" }.joined(separator: ", ")) }
        return ViewOutput(
            title: day.isEmpty ? "Sales (none yet)" : "Sales of \(day)",
            header: ["TIME", "SALE", "STAFF", "CUSTOMER", "ITEMS", "PAYMENT", "TOTAL"], rows: rows, rightAligned: [6],
            footer: footer,
            json: .object([
                "day": day.isEmpty ? .null : .string(day), "sales": .array(items),
                "takings": .array(totals.map { .object(["payment": .string($0.payment), "total": Format.json($0.money)]) }),
            ]))
    }
}
