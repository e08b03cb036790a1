import PawtrailJSON

/// `pawtrail view catalog`: search, filter, sort and page the products on sale.
///
/// - `--search WORDS`: every word of the query must begin (ignoring case) a word of the product's name, of one of its
///   tags or of its category, so `lit` finds "Litter" and `cat` finds every product of the category `cat`. Words
///   are runs of letters and digits, so `1.2kg` is the words `1` and `2kg` on both sides and `Me-O` is `me` and `o`.
/// - Each product shows its stock (``ProductStock``): "in stock", "only 3 left" (5 or fewer), "out of stock".
/// - `--category`, `--tag`: equal ignoring case (the domain stores both lowercased).
/// - `--min-price`, `--max-price`: bounds, inclusive, on the selling price in minor units, whatever the currency.
/// - `--sort name|price|popularity` (default `name`), `--desc` reverses it. Ties always fall back to the name, then
///   the product id, ascending, so pages never shuffle. `price` orders by currency first (``Money``'s order), which
///   in a one-currency shop is the amount; `name` ignores case.
/// - `--page N` (1-based, default 1), `--page-size N` (default 20). A page past the last is empty, not an error,
///   so a script can page until it gets no rows; the output always tells the total and the number of pages (at
///   least 1).
/// - Delisted products are hidden unless `--include-delisted`.
///
/// `--desc` and `--include-delisted` are flags: present with no value (or `true`) means on, `false` off.
public enum CatalogView: ProjectionView {
    public typealias Source = CatalogProjection
    public static let name = "catalog"
    public static let summary = "Products on sale: search by words of name and tags, filter, sort and page."
    public static let options = [
        ViewOption("search", "words", help: "Every word must begin a word of the name, a tag or the category (ignoring case)."),
        ViewOption("category", "name", help: "Only products of this category."),
        ViewOption("tag", "tag", help: "Only products with this tag."),
        ViewOption("min-price", "minor-units", help: "Only products priced at least this (minor units)."),
        ViewOption("max-price", "minor-units", help: "Only products priced at most this (minor units)."),
        ViewOption("sort", "name|price|popularity", help: "The order (popularity: units sold).", default: "name"),
        ViewOption("desc", "", help: "A flag: reverse the order."),
        ViewOption("page", "n", help: "The page, from 1.", default: "1"),
        ViewOption("page-size", "n", help: "Products per page.", default: "20"),
        ViewOption("include-delisted", "", help: "A flag: show delisted products too."),
    ]

    /// The orders `--sort` accepts.
    public enum Sort: String, CaseIterable, Sendable {
        case name, price, popularity
    }

    /// The largest `--page-size`.
    public static let maxPageSize: Int64 = 1000

    public static func audience(_ state: CatalogProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .everyone
    }

    public static func render(_ state: CatalogProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let query = Format.words(arguments.value("search") ?? "")
        let category = arguments.value("category")?.lowercased()
        let tag = arguments.value("tag")?.lowercased()
        let minPrice = try arguments.int("min-price", default: 0, range: 0...Int64.max)
        let maxPrice = try arguments.int("max-price", default: Int64.max, range: 0...Int64.max)
        guard minPrice <= maxPrice else {
            throw .invalid("max-price", "\(maxPrice) is below --min-price \(minPrice)")
        }
        let sortText = arguments.value("sort") ?? Sort.name.rawValue
        guard let sort = Sort(rawValue: sortText) else {
            throw .invalid("sort", "'\(sortText)' is not one of \(Sort.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))")
        }
        let descending = try arguments.flag("desc")
        let includeDelisted = try arguments.flag("include-delisted")
        let page = try arguments.int("page", default: 1, range: 1...Int64(Int32.max))
        let pageSize = try arguments.int("page-size", default: 20, range: 1...maxPageSize)

        let matches = state.products.filter { entry in
            let p = entry.value
            guard p.listed || (includeDelisted && p.catalogued) else { return false }
            guard p.price.minorUnits >= minPrice, p.price.minorUnits <= maxPrice else { return false }
            if let category, p.category.lowercased() != category { return false }
            if let tag, !p.tags.contains(where: { $0.lowercased() == tag }) { return false }
            if !query.isEmpty {
                var own = Format.words(p.name) + Format.words(p.category)
                for t in p.tags { own += Format.words(t) }
                guard query.allSatisfy({ q in own.contains { $0.hasPrefix(q) } }) else { return false }
            }
            return true
        }
        // Sort keys computed once per product, not per comparison.
        let keyed = matches.map { (id: $0.key, product: $0.value, name: $0.value.name.lowercased()) }
        let sorted = keyed.sorted { a, b in
            switch primary(sort, a.product, b.product, a.name, b.name) {
            case .some(let aFirst): return descending ? !aFirst : aFirst
            case .none: return (a.name, a.product.name, a.id) < (b.name, b.product.name, b.id)
            }
        }
        let total = sorted.count
        let pages = max(1, (total + Int(pageSize) - 1) / Int(pageSize))
        let start = min(total, (Int(page) - 1) * Int(pageSize))
        let shown = sorted[start..<min(total, start + Int(pageSize))]

        var title = "Catalog"
        if !query.isEmpty { title += " matching '\(query.joined(separator: " "))'" }
        return ViewOutput(
            title: title,
            header: ["PRODUCT", "NAME", "PRICE", "WAS", "CATEGORY", "TAGS", "SOLD", "STOCK"],
            rows: shown.map {
                [
                    $0.id, $0.product.name + ($0.product.listed ? "" : " (delisted)"), Format.money($0.product.price),
                    $0.product.compareAtPrice.map(Format.money) ?? "", $0.product.category,
                    $0.product.tags.joined(separator: ", "), String($0.product.unitsSold),
                    (state.stock[$0.id] ?? ProductStock()).label,
                ]
            },
            rightAligned: [2, 3, 6],
            footer: ["page \(page) of \(pages), \(total) \(total == 1 ? "match" : "matches")"],
            json: .object([
                "page": .int(page), "pageSize": .int(pageSize), "pages": .int(Int64(pages)), "total": .int(Int64(total)),
                "products": .array(shown.map { json($0.id, $0.product, stock: state.stock[$0.id] ?? ProductStock()) }),
            ]))
    }

    /// A product as JSON.
    static func json(_ id: String, _ p: CatalogProjection.Product, stock: ProductStock) -> JSONValue {
        .object([
            "productId": .string(id), "name": .string(p.name), "description": .string(p.description),
            "price": Format.json(p.price), "compareAtPrice": p.compareAtPrice.map(Format.json) ?? .null,
            "category": .string(p.category), "tags": .array(p.tags.map { .string($0) }), "imageRef": .string(p.imageRef),
            "listed": .bool(p.listed), "unitsSold": .int(p.unitsSold), "stock": stock.json,
        ])
    }

    /// Whether `a` comes before `b` by the sort's own key (ascending), or `nil` when the key ties.
    private static func primary(
        _ sort: Sort, _ a: CatalogProjection.Product, _ b: CatalogProjection.Product, _ aName: String, _ bName: String
    ) -> Bool? {
        switch sort {
        case .name: return aName == bName ? nil : aName < bName
        case .price: return a.price == b.price ? nil : a.price < b.price
        case .popularity: return a.unitsSold == b.unitsSold ? nil : a.unitsSold < b.unitsSold
        }
    }

}
