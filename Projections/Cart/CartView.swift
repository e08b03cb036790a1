import PawtrailJSON
import Events

/// `pawtrail view cart --owner ID`: one owner's cart at the products' current prices.
///
/// - Lines in the order their products were first added, each at the product's current price:
///   line total = price × quantity; saving = (compare-at price − price) × quantity where a compare-at price is set.
/// - Subtotal = the sum of the line totals, savings = the sum of the savings, total = the subtotal (no delivery
///   fee or discount is modelled, as in ``OrderPlaced``). Savings are what the compare-at prices say the customer
///   saves; they are already in the prices and are not taken off the total.
/// - The totals count only lines checkout would sell: a line whose product was delisted (status `delisted`), is
///   unknown to the catalog (`unknown`), or is priced in another currency than the cart's (`other-currency`; the
///   cart's currency is that of its first sellable line) is shown but left out, as the checkout refuses it.
///   An empty cart's totals are zero in ``ProductListed/version1Currency`` (the shop's currency).
/// - Each line shows its product's stock (``ProductStock``: "in stock", "only 3 left", "out of stock"), and a line
///   that wants more than is available says so, so the customer learns before checkout; the footer names them. The
///   totals still count the line: the checkout decides, against the stock of that moment.
/// - Recommendations: up to 5 listed products of the categories of the cart's lines (delisted lines included:
///   someone who wanted a product that went off sale wants its alternatives) that are not in the cart, most
///   units sold first, then by name and id.
///
/// An owner with no cart event is not found; a cart emptied by a clear, a checkout or a merge shows empty.
public enum CartView: ProjectionView {
    public typealias Source = CartProjection
    public static let name = "cart"
    public static let summary = "One cart at current prices: lines, subtotal, savings, total and recommendations."
    public static let options = [ViewOption("owner", "id", help: "The cart's owner: a user or a guest id.", required: true)]

    /// How many products are recommended.
    public static let recommendationCount = 5

    /// Why a line is or is not counted in the totals.
    public enum LineStatus: String, Sendable {
        /// On sale in the cart's currency: counted.
        case ok
        /// Delisted since it was added.
        case delisted
        /// Not in the catalog (never listed).
        case unknown
        /// Priced in another currency than the cart's.
        case otherCurrency = "other-currency"
    }

    public static func audience(_ state: CartProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .userAndStaff(try arguments.required("owner"))
    }

    public static func render(_ state: CartProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let owner = try arguments.required("owner")
        guard let cart = state.carts[owner] else { throw .notFound("no cart for '\(owner)'") }
        let lines = cart.orderedLines.map { (id: $0.productId, quantity: $0.line.quantity, product: state.products[$0.productId]) }

        let currency =
            lines.lazy.compactMap { $0.product }.first { $0.listed }?.price.currency
            ?? ProductListed.version1Currency
        var subtotal: Int64 = 0
        var savings: Int64 = 0
        var rows: [[String]] = []
        var jsonLines: [JSONValue] = []
        var categories: Set<String> = []
        var short: [String] = []
        for line in lines {
            guard let p = line.product, p.catalogued else {
                rows.append([line.id, "(unknown product)", String(line.quantity), "", "", "", "", ""])
                jsonLines.append(
                    .object([
                        "productId": .string(line.id), "name": .null, "category": .null, "imageRef": .null,
                        "quantity": .int(line.quantity), "unitPrice": .null, "compareAtPrice": .null, "lineTotal": .null,
                        "saving": .null, "status": .string(LineStatus.unknown.rawValue), "stock": .null,
                    ]))
                continue
            }
            let stock = state.stock[line.id] ?? ProductStock()
            var stockText = stock.label
            if p.listed, stock.available < line.quantity {
                if stock.available > 0 { stockText += " (you have \(line.quantity))" }
                short.append("\(p.name) (\(line.quantity) wanted, \(max(0, stock.available)) available)")
            }
            categories.insert(p.category)
            let status: LineStatus = !p.listed ? .delisted : p.price.currency != currency ? .otherCurrency : .ok
            let lineTotal = Money(p.price.minorUnits * line.quantity, p.price.currency)
            let saving = p.compareAtPrice.map { Money(($0.minorUnits - p.price.minorUnits) * line.quantity, p.price.currency) }
            if status == .ok {
                subtotal += lineTotal.minorUnits
                savings += saving?.minorUnits ?? 0
            }
            let note: String
            switch status {
            case .ok, .unknown: note = ""
            case .delisted: note = " (delisted, not in the totals)"
            case .otherCurrency: note = " (in \(p.price.currency), not in the totals)"
            }
            rows.append([
                line.id, p.name + note, String(line.quantity), Format.money(p.price), p.compareAtPrice.map(Format.money) ?? "",
                Format.money(lineTotal), saving.map(Format.money) ?? "", stockText,
            ])
            jsonLines.append(
                .object([
                    "productId": .string(line.id), "name": .string(p.name), "category": .string(p.category),
                    "imageRef": .string(p.imageRef), "quantity": .int(line.quantity), "unitPrice": Format.json(p.price),
                    "compareAtPrice": p.compareAtPrice.map(Format.json) ?? .null, "lineTotal": Format.json(lineTotal),
                    "saving": saving.map(Format.json) ?? .null, "status": .string(status.rawValue), "stock": stock.json,
                ]))
        }

        let recommended = state.products.entries
            .filter { $0.value.listed && categories.contains($0.value.category) && cart.lines[$0.key] == nil }
            .map { (id: $0.key, product: $0.value, name: $0.value.name.lowercased()) }
            .sorted { ($1.product.unitsSold, $0.name, $0.id) < ($0.product.unitsSold, $1.name, $1.id) }
            .prefix(recommendationCount)

        let sub = Money(subtotal, currency)
        let saved = Money(savings, currency)
        var footer = ["Subtotal: \(Format.money(sub))", "Savings: \(Format.money(saved))", "Total: \(Format.money(sub))"]
        if !short.isEmpty { footer.append("Short of stock at checkout: " + short.joined(separator: ", ")) }
        if !recommended.isEmpty {
            footer.append("Recommended: " + recommended.map { "\($0.product.name) (\($0.id))" }.joined(separator: ", "))
        }
        return ViewOutput(
            title: "Cart of \(owner)" + (lines.isEmpty ? " (empty)" : ""),
            header: ["PRODUCT", "NAME", "QTY", "UNIT PRICE", "WAS", "LINE TOTAL", "SAVING", "STOCK"],
            rows: rows,
            rightAligned: [2, 3, 4, 5, 6],
            footer: footer,
            json: .object([
                "owner": .string(owner), "lines": .array(jsonLines), "subtotal": Format.json(sub),
                "savings": Format.json(saved), "total": Format.json(sub), "shortOfStock": .array(short.map { .string($0) }),
                "recommendations": .array(
                    recommended.map {
                        .object([
                            "productId": .string($0.id), "name": .string($0.product.name),
                            "category": .string($0.product.category), "price": Format.json($0.product.price),
                            "unitsSold": .int($0.product.unitsSold),
                        ])
                    }),
            ]))
    }
}
