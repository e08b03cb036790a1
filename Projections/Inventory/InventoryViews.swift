import PawtrailJSON

/// `pawtrail view inventory`: every product's stock.
public enum InventoryView: ProjectionView {
    public typealias Source = InventoryProjection
    public static let name = "inventory"
    public static let summary = "Stock per product: on hand, reserved, available and sold."
    public static let options = [ViewOption("category", "name", help: "Only products of this category.")]

    public static func audience(_ state: InventoryProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func render(_ state: InventoryProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let category = arguments.value("category")
        let rows = state.products.sorted { $0.key < $1.key }.filter { category == nil || $0.value.category == category }
        return output(title: "Inventory", rows)
    }

    static func output(title: String, _ rows: [(key: String, value: InventoryProjection.Row)]) -> ViewOutput {
        ViewOutput(
            title: title,
            header: ["PRODUCT", "NAME", "ON HAND", "RESERVED", "AVAILABLE", "SOLD"],
            rows: rows.map { [$0.key, $0.value.name + ($0.value.listed ? "" : " (delisted)"), String($0.value.onHand), String($0.value.reserved), String($0.value.available), String($0.value.sold)] },
            rightAligned: [2, 3, 4, 5],
            json: .array(
                rows.map {
                    .object([
                        "productId": .string($0.key), "name": .string($0.value.name), "category": .string($0.value.category),
                        "listed": .bool($0.value.listed), "onHand": .int($0.value.onHand), "reserved": .int($0.value.reserved),
                        "available": .int($0.value.available), "sold": .int($0.value.sold),
                    ])
                }))
    }
}

/// `pawtrail view low-stock`: listed products whose available units are at or below a threshold.
public enum LowStockView: ProjectionView {
    public typealias Source = InventoryProjection
    public static let name = "low-stock"
    public static let summary = "Listed products with few units available, fewest first."
    public static let options = [ViewOption("threshold", "n", help: "The most available units that count as low.", default: "5")]

    public static func audience(_ state: InventoryProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func render(_ state: InventoryProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let threshold = try arguments.int("threshold", default: 5, range: 0...1_000_000)
        let rows = state.products.filter { $0.value.listed && $0.value.available <= threshold }
            .sorted { ($0.value.available, $0.key) < ($1.value.available, $1.key) }
        return InventoryView.output(title: "Low stock (available ≤ \(threshold))", rows)
    }
}
