/// A stream category of the workload (`<category>-<n>`), with its share of the 10,000 streams.
enum WorkloadCategory: Int, CaseIterable, Sendable {
    case pet, booking, cart, order, inventory, conversation

    /// The stream id prefix.
    var prefix: String {
        switch self {
        case .pet: "pet"
        case .booking: "booking"
        case .cart: "cart"
        case .order: "order"
        case .inventory: "inventory"
        case .conversation: "conversation"
        }
    }

    /// How many streams of the 10,000 belong to the category (few SKUs in inventory, many carts).
    var streamCount: Int {
        switch self {
        case .pet: 2000
        case .booking: 1500
        case .cart: 2500
        case .order: 2000
        case .inventory: 500
        case .conversation: 1500
        }
    }
}
