import EventLog
import Events
import Foundation
import PawtrailDomain
import Testing

/// The people of the shop scenarios: an admin, a staff member, two customers; plus ids that are no one.
enum Shop {
    static let admin = "u-ada"
    static let staff = "u-sam"
    static let ann = "u-ann"
    static let bob = "u-bob"
    static let guest = "guest-7"
    static let nobody = "u-nobody"

    /// A scenario with the shop's people: ada bootstrapped admin, sam granted staff, ann and bob customers.
    static func floor() async throws -> DomainScenario {
        let s = DomainScenario()
        for id in [admin, staff, ann, bob] {
            try await s.given(Streams.account(id), AccountSignedUp(userId: id, name: id, email: "\(id)@example.com", language: .enUS))
        }
        try await s.given(Streams.roles, AdminBootstrapped(userId: admin), RoleGranted(userId: staff, role: .staff, grantedBy: admin))
        return s
    }

    /// The listing of a test product: name `Name of <id>`, category `cat`, image `img_<id>`.
    static func listing(_ id: String, price: Int64, currency: String = "BDT") -> ProductListed {
        ProductListed(productId: id, name: "Name of \(id)", price: Money(price, currency), category: "cat", imageRef: "img_\(id)")
    }

    /// The snapshot line of a test product.
    static func line(_ id: String, price: Int64, quantity: Int64, currency: String = "BDT") -> PurchaseLine {
        PurchaseLine(
            productId: id, name: "Name of \(id)", category: "cat", imageRef: "img_\(id)", unitPrice: Money(price, currency),
            quantity: quantity, lineTotal: Money(price * quantity, currency))
    }

    /// The forbidden error of an admins-only command for each actor who is not an admin.
    static func notAdmin(_ command: String, _ action: String) -> [(String, DomainError)] {
        [
            (staff, .forbidden("only admins \(action); staff '\(staff)' is not one")),
            (ann, .forbidden("only admins \(action); customer '\(ann)' is not one")),
            (guest, .forbidden("guests cannot \(command); sign up or log in first")),
            (nobody, .forbidden("user '\(nobody)' has no account")),
        ]
    }

    /// The forbidden error of a staff command for each actor who is not staff.
    static func notStaff(_ command: String, _ action: String) -> [(String, DomainError)] {
        [
            (ann, .forbidden("only staff \(action); customer '\(ann)' is not staff")),
            (bob, .forbidden("only staff \(action); customer '\(bob)' is not staff")),
            (guest, .forbidden("guests cannot \(command); sign up or log in first")),
            (nobody, .forbidden("user '\(nobody)' has no account")),
        ]
    }
}

extension DomainScenario {
    /// Lists a product and, when `stock` > 0, receives that stock.
    func product(_ id: String, price: Int64 = 10_000, stock: Int64 = 0, currency: String = "BDT") async throws {
        try await given(Streams.product(id), Shop.listing(id, price: price, currency: currency))
        if stock > 0 { try await given(Streams.inventory(id), StockReceived(productId: id, quantity: stock)) }
    }

    /// Puts products in a cart.
    func cart(_ owner: String, _ lines: (String, Int64)...) async throws {
        for (id, quantity) in lines {
            try await given(Streams.cart(owner), CartItemAdded(ownerId: owner, productId: id, quantity: quantity))
        }
    }

    /// A stream's state, read fresh from the store.
    func state<A: Aggregate>(_ type: A.Type, _ stream: StreamID) async throws -> A {
        var loader = StreamLoader(store: store)
        return try await loader.load(type, stream)
    }

    /// Expects each actor's attempt to be refused with its error.
    func refuses<C: DomainCommand>(
        _ command: C, _ cases: [(String, DomainError)], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for (user, error) in cases {
            try await then(user, command, throws: error, sourceLocation: sourceLocation)
        }
    }
}
