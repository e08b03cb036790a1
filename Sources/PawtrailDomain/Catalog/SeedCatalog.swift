public import Events

/// `catalog.seed`: an admin lists the bundled catalog and books its initial stock, exactly once.
///
/// Once-only comes from one atomic append: the `catalog` marker stream is written with expected `.noStream`
/// together with every listing (each product stream `.noStream`) and its initial stock. Of two seeders racing,
/// from two tasks or two processes, one append wins; the other's fails on the marker, the handler decides again,
/// sees the marker and appends nothing.
public struct SeedCatalog: DomainCommand, Hashable {
    public static let name = "catalog.seed"
    public static let summary = "List the bundled catalog of pet products with their stock, and the salon's default services, once (admins only)."

    public init() {}
    public init(reading r: inout some FieldReader) throws(FieldError) {}
    public func write(to w: inout some FieldWriter) {}

    public func run(_ context: DecisionContext, loading loader: inout StreamLoader) async throws -> Decision {
        let catalog = try await loader.load(CatalogState.self, Streams.catalog)
        // Seeded already, or not an admin: the decision needs no product streams.
        guard !catalog.seeded, context.actor.isAdmin else { return try decide(context, catalog: catalog, existing: [:]) }
        var existing: [String: ProductState] = [:]
        for product in try BundledCatalog.products() {
            existing[product.id] = try await loader.load(ProductState.self, Streams.product(product.id))
        }
        let salon = try await loader.load(SalonState.self, Streams.salon)
        return try decide(context, catalog: catalog, existing: existing, salon: salon)
    }

    /// The pure decision.
    ///
    /// - Parameters:
    ///   - context: The actor.
    ///   - catalog: The marker stream's state.
    ///   - existing: The state of each bundled product's stream, by id (absent: no stream).
    /// - Returns: Nothing when seeded already; else the marker, then each new product's listing and initial stock.
    ///   A bundled id an admin already listed by hand is left as it is: its listing and stock are theirs.
    /// - Throws: ``DomainError/forbidden(_:)`` for a non-admin.
    public func decide(
        _ context: DecisionContext, catalog: CatalogState, existing: [String: ProductState], salon: SalonState = SalonState()
    ) throws(DomainError) -> Decision {
        try context.actor.requireAdmin("seed the catalog")
        guard !catalog.seeded else { return .nothing }
        let products = try BundledCatalog.products().filter { !(existing[$0.id]?.exists ?? false) }
        var writes = [StreamWrite(Streams.catalog, [CatalogSeeded(productIds: products.map(\.id))], expected: .noStream)]
        for product in products {
            writes.append(StreamWrite(Streams.product(product.id), [product.listing], expected: .noStream))
            if product.stock > 0 {
                // Nothing could have reserved stock of an unlisted product, so adding to it is safe at any version.
                writes.append(
                    StreamWrite(
                        Streams.inventory(product.id), [StockReceived(productId: product.id, quantity: product.stock)],
                        expected: .any))
            }
        }
        // The salon's default services and capacity, written out so that they show and can be changed, unless an
        // admin has set the salon already.
        if salon == SalonState() {
            writes.append(StreamWrite(Streams.salon, SalonState.defaults + [SalonCapacitySet(groomers: SalonState.defaultCapacity)]))
        }
        return Decision(writes)
    }
}
