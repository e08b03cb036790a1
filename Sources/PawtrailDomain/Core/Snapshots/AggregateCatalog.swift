/// Every aggregate of the domain, by the kind its snapshots are kept under: what `snapshots verify` folds a snapshot's
/// stream with to check it.
public enum AggregateCatalog {
    /// The aggregates.
    public static let all: [any Aggregate.Type] = [
        AccountState.self, EmailClaimState.self, RolesState.self, BookingState.self, PetScheduleState.self, CartState.self,
        CatalogState.self, ProductState.self, FavouritesState.self, InventoryState.self, ConversationState.self,
        SubjectOwnerState.self, OrderState.self, SaleState.self, PetState.self, VetRequestState.self,
    ]

    private static let byKind: [String: any Aggregate.Type] = Dictionary(all.map { ($0.snapshotKind, $0) }, uniquingKeysWith: { a, _ in a })

    /// The aggregate whose snapshots go by a kind, `nil` for none.
    public static func aggregate(kind: String) -> (any Aggregate.Type)? { byKind[kind] }
}
