/// Every read model and every view of one, in the order `projections status` and `pawtrail view` list them.
public enum ProjectionCatalog {
    /// The projections.
    public static let projections: [any Projection.Type] = [
        InventoryProjection.self,
        CatalogProjection.self,
        CartProjection.self,
        ActivityProjection.self,
        OrdersProjection.self,
        DashboardProjection.self,
        PetsProjection.self,
        ConversationsProjection.self,
        FavouritesProjection.self,
        SalesProjection.self,
        FulfilmentProjection.self,
        AgendaProjection.self,
        CustomersProjection.self,
        ServicesProjection.self,
        OutboxProjection.self,
        SettingsProjection.self,
    ]

    /// The views.
    public static let views: [any ProjectionView.Type] = [
        InventoryView.self, LowStockView.self,
        CatalogView.self, ProductView.self,
        CartView.self,
        ActivityView.self,
        CustomerOrdersView.self, OrderDetailView.self,
        DashboardView.self,
        PetView.self, OwnerPetsView.self,
        ConversationsView.self, ConversationView.self,
        FavouritesView.self,
        SalesView.self,
        FulfilmentView.self,
        AgendaView.self,
        CustomersView.self, CustomerView.self,
        ServicesView.self,
        RemindersView.self, OutboxView.self,
    ]

    /// What keeps the store's personal index (the one place beside the log that keeps personal values in the clear,
    /// for the directory's order and search).
    public static let personalIndexing: any PersonalIndexing.Type = CustomersDirectory.self

    /// The projection of a name.
    public static func projection(named name: String) -> (any Projection.Type)? {
        projections.first { $0.name == name }
    }

    /// The view of a name.
    public static func view(named name: String) -> (any ProjectionView.Type)? {
        views.first { $0.name == name }
    }
}
