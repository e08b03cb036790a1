import EventLog
import Events
import PawtrailJSON

/// `pawtrail view favourites --user ID`: a customer's or guest's favourite products in the order added.
public enum FavouritesView: ProjectionView {
    public typealias Source = FavouritesProjection
    public static let name = "favourites"
    public static let summary = "A customer's or guest's favourite products, in the order added."
    public static let options = [ViewOption("user", "id", help: "The customer or guest.", required: true)]

    public static func audience(_ state: FavouritesProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .userAndStaff(try arguments.required("user"))
    }

    public static func render(_ state: FavouritesProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let user = try arguments.required("user")
        // Someone who never marked a favourite has none: that is an empty list, not an unknown key.
        let owner = state.owners[user] ?? FavouritesProjection.Favourites()
        let favourites = owner.products.sorted { ($0.value.order, $0.key) < ($1.value.order, $1.key) }
        state.products.prefetch(favourites.map(\.key))
        var footer = ["\(favourites.count) favourite\(favourites.count == 1 ? "" : "s")"]
        if let into = owner.mergedInto, let at = owner.mergedAt {
            footer.append("\(owner.mergedCount) merged into \(into) at \(PetCareText.minute(at))")
        }
        return ViewOutput(
            title: "Favourites of \(user)",
            header: ["PRODUCT", "NAME", "ADDED"],
            rows: favourites.map {
                let product = state.products[$0.key]
                let name = (product?.name ?? "") + (product?.listed == false ? " (delisted)" : "")
                return [$0.key, name, PetCareText.minute($0.value.addedAt)]
            },
            footer: footer,
            json: .object([
                "userId": .string(user),
                "favourites": .array(
                    favourites.map {
                        let product = state.products[$0.key]
                        return .object([
                            "productId": .string($0.key), "name": .string(product?.name),
                            "listed": product.map { .bool($0.listed) } ?? .null, "addedAt": Format.json($0.value.addedAt),
                        ])
                    }),
                "mergedInto": .string(owner.mergedInto), "mergedAt": PetCareText.json(owner.mergedAt),
            ]))
    }
}
