import EventLog
import Events
@testable import ProjectionRuntime
import ProjectionStateFile
import Projections
import Testing

/// A rebuild's folders hand their row versions to the store's writer page by page (a page is 8,192 events), and the
/// writer writes a run whenever it holds enough; a hand-over larger than a run is written as it is and its memory
/// handed back to the folder to fill again. However the two sizes compare, what is stored must be the fold.
@Suite("Rebuilds handing their rows over in parts")
struct RebuildHandOverTests {
    /// More than two pages of events of every keyed projection: accounts that log in, edit their profiles, fill
    /// carts and favourites, and place orders, in one batch per account and round.
    static func busyBusiness(_ w: World) async throws {
        try await w.shop(orders: 0)
        for round in 0..<6 {
            for n in 0..<40 {
                let user = "u-\(n)"
                var events: [any DomainEvent] = []
                if round == 0 { events.append(AccountSignedUp(userId: user, name: "User \(n)", email: "\(user)@x.test", language: .enUS)) }
                for k in 0..<20 {
                    events.append(LoggedIn(userId: user, sessionId: "s-\(round)-\(k)"))
                    events.append(k % 2 == 0 ? CartItemAdded(ownerId: user, productId: "litter", quantity: 1) : CartItemRemoved(ownerId: user, productId: "litter"))
                    events.append(k % 3 == 0 ? FavouriteRemoved(ownerId: user, productId: "litter") : FavouriteAdded(ownerId: user, productId: "litter"))
                    events.append(ProfileUpdated(userId: user, name: nil, phone: "+880 \(k)", address: nil))
                }
                _ = try await w.store.append(
                    AppendRequest(
                        stream: StreamID(unchecked: "user-\(user)-\(round)"),
                        events: events.map { ProposedEvent(type: $0.eventType, data: DomainEventCodec.encode($0)) }))
                let order = "o-\(round)-\(n)"
                try await w.append("order-\(order)", ScopedTimeTravelTests.placed(order, user))
                try await w.append("order-\(order)", OrderConfirmed(orderId: order, confirmedBy: "u-sam"))
            }
        }
    }

    @Test(arguments: [(1 << 10, 64 << 10), (64 << 10, 1 << 10), (16 << 10, 16 << 10)] as [(Int, Int)])
    func `every past state is the fold to its position, whatever the sizes of hand-overs and runs`(handOver: Int, run: Int) async throws {
        let w = try World()
        try await Self.busyBusiness(w)
        let last = try #require(try await w.store.lastPosition())
        #expect(last > 2 * 8_192, "more than two pages")
        var engine = ProjectionEngine(store: w.store, states: FileProjectionStateStore(storePath: w.scratch.path, spillBytes: run), snapshotInterval: 1_000)
        engine.spillBytes = handOver
        _ = try await engine.rebuild(ProjectionCatalog.projections)
        let all = try await w.store.readAll()
        for p in ProjectionCatalog.projections {
            // Each check folds the log up to its position: positions around the pages' ends, where hand-overs happen.
            for n in [0, 8_191, 8_192, 12_000, 16_383, 16_384, last] as [UInt64] {
                #expect(try await p.pastRows(engine, n) == (try p.foldedRows(all, through: n)), "\(p.name) as of \(n)")
            }
            let audit = try await p.audited(engine)
            #expect(audit.differences.isEmpty, "\(p.name): \(audit.differences.prefix(3))")
        }
    }
}
