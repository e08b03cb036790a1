/// Every aggregate of the domain, by the kind its snapshots are kept under: what `snapshots verify` folds a snapshot's
/// stream with to check it.
public enum AggregateCatalog {
    /// The aggregates.
    public static let all: [any Aggregate.Type] = [
        AccountState.self, EmailClaimState.self, RolesState.self, BookingState.self, PetScheduleState.self, CartState.self,
        CatalogState.self, ProductState.self, FavouritesState.self, InventoryState.self, ConversationState.self,
        SubjectOwnerState.self, OrderState.self, SaleState.self, PetState.self, VetRequestState.self, ShopSettingsState.self,
        SalonState.self, SalonDayState.self, NotificationState.self,
    ]

    private static let byKind: [String: any Aggregate.Type] = Dictionary(all.map { ($0.snapshotKind, $0) }, uniquingKeysWith: { a, _ in a })

    /// The aggregates that fold the streams of a category (the part of a stream's name before its first `-`, or the
    /// whole name of a stream without one): a booking's, an order's and a vet request's stream is also folded for
    /// its conversations' owner.
    public static func aggregates(ofCategory category: String) -> [any Aggregate.Type] {
        byCategory[category] ?? []
    }

    private static let byCategory: [String: [any Aggregate.Type]] = [
        "account": [AccountState.self], "email": [EmailClaimState.self], "roles": [RolesState.self],
        "booking": [BookingState.self, SubjectOwnerState.self], "petschedule": [PetScheduleState.self], "cart": [CartState.self],
        "catalog": [CatalogState.self], "product": [ProductState.self], "favourites": [FavouritesState.self],
        "inventory": [InventoryState.self], "conversation": [ConversationState.self],
        "order": [OrderState.self, SubjectOwnerState.self], "sale": [SaleState.self], "pet": [PetState.self],
        "vet": [VetRequestState.self, SubjectOwnerState.self], "salon": [SalonState.self], "salonday": [SalonDayState.self],
        "notification": [NotificationState.self],
    ]

    /// The aggregate whose snapshots go by a kind, `nil` for none.
    public static func aggregate(kind: String) -> (any Aggregate.Type)? { byKind[kind] }
}
