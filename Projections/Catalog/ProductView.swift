import PawtrailJSON

/// `pawtrail view product --id P`: one product's page: its details, description, price, stock and popularity, as a
/// customer sees it (a delisted product still shows, marked, for past orders that link to it).
public enum ProductView: ProjectionView {
    public typealias Source = CatalogProjection
    public static let name = "product"
    public static let summary = "One product's page: details, description, price, stock and units sold."
    public static let options = [ViewOption("id", "product-id", help: "The product's id.", required: true)]

    public static func audience(_ state: CatalogProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .everyone
    }

    public static func render(_ state: CatalogProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let id = try arguments.required("id")
        guard let p = state.products[id], p.catalogued else { throw .notFound("no product '\(id)' in the catalog") }
        let stock = state.stock[id] ?? ProductStock()
        var rows: [[String]] = [
            ["Name", p.name + (p.listed ? "" : " (delisted)")],
            ["Price", Format.money(p.price)],
        ]
        if let was = p.compareAtPrice { rows.append(["Was", Format.money(was)]) }
        rows += [
            ["Category", p.category],
            ["Tags", p.tags.joined(separator: ", ")],
            ["Image", p.imageRef],
            ["Stock", stock.label],
            ["Sold", String(p.unitsSold)],
        ]
        // A description may hold line breaks: one row a line, so the table stays a table.
        let lines = p.description.split(separator: "\n", omittingEmptySubsequences: false)
        for (n, line) in lines.enumerated() where !p.description.isEmpty {
            rows.append([n == 0 ? "Description" : "", String(line)])
        }
        return ViewOutput(
            title: "Product \(id)", header: ["FIELD", "VALUE"], rows: rows,
            json: CatalogView.json(id, p, stock: stock))
    }
}
