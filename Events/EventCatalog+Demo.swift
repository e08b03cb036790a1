extension EventCatalog {
    /// The event types the scripted demo writes: what `pawtrail events list` shows until the domain fills the
    /// real catalog.
    public static let demo = EventCatalog(entries: [
        .init(type: "PetAdded", schemaVersion: 1, area: "pets", fields: ["petId", "name", "species", "born"]),
        .init(type: "BookingRequested", schemaVersion: 1, area: "bookings", fields: ["bookingId", "petId", "service", "slot"]),
        .init(type: "BookingConfirmed", schemaVersion: 1, area: "bookings", fields: ["bookingId", "groomer"]),
        .init(type: "StockReceived", schemaVersion: 1, area: "inventory", fields: ["sku", "quantity"]),
        .init(type: "StockReserved", schemaVersion: 1, area: "inventory", fields: ["sku", "quantity", "orderId"]),
        .init(type: "OrderPlaced", schemaVersion: 1, area: "orders", fields: ["orderId", "petId", "lines", "total"]),
    ])
}
