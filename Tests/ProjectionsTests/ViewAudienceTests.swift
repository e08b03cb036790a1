import EventLog
import Events
import Projections
import Testing

/// Who may read each view (`--as`): every view, every kind of reader, right and wrong.
@Suite("Views: who may read what")
struct ViewAudienceTests {
    static let ann = Viewer(userID: "u-ann", isStaff: false, isAdmin: false)
    static let bob = Viewer(userID: "u-bob", isStaff: false, isAdmin: false)
    static let guest = Viewer(userID: "guest-7", isStaff: false, isAdmin: false)
    static let sam = Viewer(userID: "u-sam", isStaff: true, isAdmin: false)
    static let ada = Viewer(userID: "u-ada", isStaff: false, isAdmin: true)

    /// Ann's order, pet and conversation.
    static func shop() -> ProjectionScenario {
        var s = ProjectionScenario()
        s.given("order-o-1", FulfilmentProjectionTests.placed("o-1", "u-ann"))
        s.given("pet-p-1", PetAdded(petId: "p-1", ownerId: "u-ann", name: "Rex", species: .dog, breed: nil, birthDate: nil, ageMonths: 24))
        s.given("conversation-c-1", ConversationStarted(conversationId: "c-1", subject: .order, subjectId: "o-1", ownerId: "u-ann", startedBy: "u-ann"))
        return s
    }

    static func audience<V: ProjectionView>(_ view: V.Type, _ arguments: [String: String]) throws -> ViewAudience {
        try V.audience(try shop().state(V.Source.self), ViewArguments(arguments))
    }

    /// Every view with the arguments of one of Ann's entities, and who may read it.
    static func cases() throws -> [(String, ViewAudience, expected: ViewAudience)] {
        [
            ("catalog", try audience(CatalogView.self, [:]), .everyone),
            ("product", try audience(ProductView.self, ["id": "litter"]), .everyone),
            ("cart", try audience(CartView.self, ["owner": "u-ann"]), .userAndStaff("u-ann")),
            ("favourites", try audience(FavouritesView.self, ["user": "u-ann"]), .userAndStaff("u-ann")),
            ("orders", try audience(CustomerOrdersView.self, ["customer": "u-ann"]), .userAndStaff("u-ann")),
            ("order", try audience(OrderDetailView.self, ["id": "o-1"]), .userAndStaff("u-ann")),
            ("order unknown", try audience(OrderDetailView.self, ["id": "o-9"]), .staff),
            ("activity", try audience(ActivityView.self, ["user": "u-ann"]), .userAndStaff("u-ann")),
            ("pets", try audience(OwnerPetsView.self, ["owner": "u-ann"]), .userAndStaff("u-ann")),
            ("pet", try audience(PetView.self, ["id": "p-1"]), .userAndStaff("u-ann")),
            ("pet unknown", try audience(PetView.self, ["id": "p-9"]), .staff),
            ("conversations", try audience(ConversationsView.self, ["user": "u-ann"]), .userAndStaff("u-ann")),
            ("conversation", try audience(ConversationView.self, ["id": "c-1"]), .userAndStaff("u-ann")),
            ("conversation unknown", try audience(ConversationView.self, ["id": "c-9"]), .staff),
            ("inventory", try audience(InventoryView.self, [:]), .staff),
            ("low-stock", try audience(LowStockView.self, [:]), .staff),
            ("sales", try audience(SalesView.self, [:]), .staff),
            ("fulfilment", try audience(FulfilmentView.self, [:]), .staff),
            ("dashboard", try audience(DashboardView.self, [:]), .admins),
            ("agenda", try audience(AgendaView.self, [:]), .staff),
            ("customers", try audience(CustomersView.self, [:]), .staff),
            ("customer", try audience(CustomerView.self, ["id": "u-ann"]), .userAndStaff("u-ann")),
            ("services", try audience(ServicesView.self, [:]), .everyone),
            ("reminders", try audience(RemindersView.self, [:]), .staff),
            ("outbox", try audience(OutboxView.self, [:]), .staff),
        ]
    }

    @Test func everyViewNamesItsReaders() throws {
        for (name, actual, expected) in try Self.cases() { #expect(actual == expected, "\(name)") }
        let named = Set(try Self.cases().map { $0.0.split(separator: " ")[0] }.map(String.init))
        #expect(named == Set(ProjectionCatalog.views.map { $0.name }), "every view is covered")
    }

    @Test func everyRightReaderIsAdmittedAndEveryWrongOneRefused() {
        let readers = [Self.ann, Self.bob, Self.guest, Self.sam, Self.ada]
        func admitted(_ a: ViewAudience) -> [String] { readers.filter { a.admits($0) }.map(\.userID) }
        #expect(admitted(.everyone) == ["u-ann", "u-bob", "guest-7", "u-sam", "u-ada"])
        #expect(admitted(.userAndStaff("u-ann")) == ["u-ann", "u-sam", "u-ada"], "the customer and staff; admins are staff")
        #expect(admitted(.userAndStaff("guest-7")) == ["guest-7", "u-sam", "u-ada"], "a guest reads their own cart")
        #expect(admitted(.staff) == ["u-sam", "u-ada"])
        #expect(admitted(.admins) == ["u-ada"])
    }

    @Test func aViewsArgumentsAreCheckedBeforeItsReaders() {
        #expect(throws: ViewError.missing("owner")) { try Self.audience(CartView.self, [:]) }
        #expect(throws: ViewError.missing("id")) { try Self.audience(OrderDetailView.self, [:]) }
    }
}
