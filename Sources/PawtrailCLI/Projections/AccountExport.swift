import EventLog
import PawtrailDomain
import PawtrailJSON
import ProjectionRuntime
import Projections

/// `pawtrail account export --user U`: everything the shop holds about a living account (the right of access), as
/// one JSON object: the account's own events, its directory entry, pets, orders, activity, favourites, cart and
/// conversations, each as its view answers it now. The user themselves or staff may export it.
enum AccountExport {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Print everything the shop holds about a living account, as one JSON object (its owner or staff).",
        options: [
            .value("user", "user", help: "The account to export.", required: true),
            .value(
                "as", "user", help: "The reader: the account's owner or the shop's staff.",
                default: "the store's operator, unless the store requires a reader"),
        ],
        run: { context in try await run(context) })

    static func run(_ context: CommandContext) async throws -> ExitCode {
        guard let user = context.arguments.value("user"), !user.isEmpty else {
            throw context.arguments.usageError("missing expected argument '--user'")
        }
        try EventLimits.validateStreamID("account-" + user)
        let engine = try await ProjectionsCommand.engine(context)
        if let viewer = try await ViewReader.viewer(context, engine: engine), !ViewAudience.userAndStaff(user).admits(viewer) {
            throw CommandFailure(kind: .forbidden, message: "'\(viewer.userID)' may not read this view")
        }
        var account: [JSONValue] = []
        try await engine.store.forEachPage(.stream(StreamID(unchecked: "account-" + user))) { page in
            account += page.map(EventFormatter.json)
            return true
        }
        let customer = try await engine.load(CustomersProjection.self)
        try customer.checkReads()
        guard let entry = customer.state.customers[user] else { throw CommandFailure(kind: .notFound, message: "no account '\(user)'") }
        guard !entry.deleted else {
            throw CommandFailure(kind: .failure, message: "the account '\(user)' is deleted; only a living account is exported")
        }
        var pairs: [JSONValue.Pair] = [.init(key: "userId", value: .string(user)), .init(key: "accountEvents", value: .array(account))]
        pairs.append(.init(key: "profile", value: render(CustomerView.self, ["id": user], customer.state)))
        pairs.append(.init(key: "pets", value: try await json(OwnerPetsView.self, ["owner": user], engine)))
        pairs.append(.init(key: "orders", value: try await json(CustomerOrdersView.self, ["customer": user], engine)))
        pairs.append(.init(key: "activity", value: try await json(ActivityView.self, ["user": user], engine)))
        pairs.append(.init(key: "favourites", value: try await json(FavouritesView.self, ["user": user], engine)))
        pairs.append(.init(key: "cart", value: try await json(CartView.self, ["owner": user], engine)))
        pairs.append(.init(key: "conversations", value: try await json(ConversationsView.self, ["user": user], engine)))
        context.out(try await PersonalValueResolver(store: engine.store).resolve(JSONValue.object(pairs)))
        return .success
    }

    /// A view's answer for the account, live; a view with nothing for it answers `null`.
    private static func json<V: ProjectionView>(_ view: V.Type, _ values: [String: String], _ engine: ProjectionEngine) async throws -> JSONValue {
        let loaded = try await engine.load(V.Source.self)
        try loaded.checkReads()
        return render(V.self, values, loaded.state)
    }

    private static func render<V: ProjectionView>(_ view: V.Type, _ values: [String: String], _ state: V.Source.State) -> JSONValue {
        (try? V.render(state, ViewArguments(values)).json) ?? .null
    }
}
