import EventLog
import EventLogMemory
import EventLogSealing
import Events
import PawtrailJSON
import ProjectionRuntime
import ProjectionStateFile
import Projections
import Testing

@Suite("Personal values kept as tokens")
struct PersonalReferenceTests {
    @Test func `a token round-trips, and text around tokens stays text`() {
        let r = PersonalReference(position: 42, ordinal: 3)
        let p = PersonalReference(position: 7, ordinal: 0, preview: 80)
        #expect(PersonalReference.pieces(of: r.token) == [.reference(r)])
        #expect(PersonalReference.pieces(of: "Hi \(r.token), \(p.token)!") == [.text("Hi "), .reference(r), .text(", "), .reference(p), .text("!")])
        #expect(PersonalReference.pieces(of: "plain") == [.text("plain")])
        // Broken tokens are text.
        let open = String(PersonalReference.start)
        let close = String(PersonalReference.end)
        for broken in [open + "42.3", open + "x.3" + close, open + "42" + close, open + "42.3.0" + close, open + "1.2.3.4" + close] {
            #expect(!PersonalReference.pieces(of: broken).contains { if case .reference = $0 { true } else { false } }, "\(broken)")
        }
        #expect(PersonalReference.preview(r.token, 10) == PersonalReference(position: 42, ordinal: 3, preview: 10).token)
        #expect(PersonalReference.preview("one  two\nthree", 8) == "one two…")
    }

    @Test func `an event decoded for references names each personal value, and its other strings cannot forge a token`() throws {
        let forged = PersonalReference(position: 0, ordinal: 0).token
        let sent = MessageSent(conversationId: "c-1" + forged, messageId: "m-1", senderId: "u-ann", text: "hello " + forged, customerId: "u-ann")
        let data = DomainEventCodec.encode(sent)
        let (event, count) = try DomainEventCodec.decode(MessageSent.self, from: data, referencingPersonalValuesAt: 9)
        #expect(count == 1)
        #expect(event.text == PersonalReference(position: 9, ordinal: 0).token)
        #expect(!PersonalReference.mayHoldTokens(event.conversationId), "\(event.conversationId)")
        #expect(try DomainEventCodec.personalValues(of: MessageSent.self, from: data) == ["hello " + forged])
        // An event with no personal values decodes the same either way.
        let listed = ProductListed(productId: "p", name: "Litter", price: Money(1, "BDT"), category: "cat", tags: [], imageRef: "i")
        let plain = try DomainEventCodec.decode(ProductListed.self, from: DomainEventCodec.encode(listed), referencingPersonalValuesAt: 1)
        #expect(plain.event == listed && plain.personalValues == 0)
    }

    /// A sealing store with three customers' orders and messages.
    static func shop() async throws -> (store: SealingEventStore, keys: MemoryPersonalDataKeys) {
        let keys = MemoryPersonalDataKeys()
        let store = SealingEventStore(base: InMemoryEventStore(), keys: keys)
        func append(_ stream: String, _ event: any DomainEvent) async throws {
            _ = try await store.append(
                AppendRequest(stream: StreamID(unchecked: stream), events: [ProposedEvent(type: event.eventType, data: DomainEventCodec.encode(event))]))
        }
        try await append("roles", AdminBootstrapped(userId: "u-ada"))
        for user in ["u-ann", "u-bob", "u-cy"] {
            try await append("account-\(user)", AccountSignedUp(userId: user, name: "Name of \(user)", email: "\(user)@example.org", language: .enUS))
            var placed = ScopedTimeTravelTests.placed("o-\(user)", user)
            placed.recipientName = "Recipient \(user)"
            placed.deliveryAddress = "Address of \(user)"
            try await append("order-o-\(user)", placed)
            try await append(
                "conversation-c-\(user)",
                ConversationStarted(conversationId: "c-\(user)", subject: .order, subjectId: "o-\(user)", ownerId: user, startedBy: user))
            try await append(
                "conversation-c-\(user)",
                MessageSent(conversationId: "c-\(user)", messageId: "m-1", senderId: user, text: "Secret of \(user)", customerId: user))
        }
        return (store, keys)
    }

    @Test func `the read models that keep tokens are the same bytes before and after an erasure, and their views show the erasure`() async throws {
        let (store, keys) = try await Self.shop()
        let scratch = try Scratch()
        let engine = ProjectionEngine(store: store, states: FileProjectionStateStore(storePath: scratch.path))
        let types: [any Projection.Type] = [OrdersProjection.self, ConversationsProjection.self, ActivityProjection.self, OutboxProjection.self]
        for type in types { #expect(type.foldsPersonalReferences && !type.holdsPersonalData, "\(type.name)") }
        _ = try await engine.rebuild(types)
        let before = try await OrdersProjection.storedEncoding(engine)
        let resolver = PersonalValueResolver(store: store)
        let order = try await resolver.resolve(try OrderDetailView.render(try await engine.load(OrdersProjection.self).state, ViewArguments(["id": "o-u-bob"])).json)
        #expect(order.serialized.contains("Recipient u-bob") && order.serialized.contains("Address of u-bob"), "\(order.serialized)")
        let thread = try await resolver.resolve(
            try ConversationView.render(try await engine.load(ConversationsProjection.self).state, ViewArguments(["id": "c-u-bob"])).json)
        #expect(thread.serialized.contains("Secret of u-bob"), "\(thread.serialized)")
        #expect(!(try await engine.load(OrdersProjection.self).state.orders["o-u-bob"]!.recipientName.contains("u-bob")))

        try await keys.destroyKey(for: "u-bob")
        // A rebuild after the erasure stores the very same rows: they never held the values.
        _ = try await engine.rebuild(types)
        #expect(try await OrdersProjection.storedEncoding(engine) == before)
        for type in types { #expect(try await type.audited(engine).differences.isEmpty, "\(type.name)") }
        let erased = PersonalValueResolver(store: store)
        let orderAfter = try await erased.resolve(
            try OrderDetailView.render(try await engine.load(OrdersProjection.self).state, ViewArguments(["id": "o-u-bob"])).json)
        #expect(orderAfter.serialized.contains(PersonalSection.erasedText) && !orderAfter.serialized.contains("Recipient u-bob"), "\(orderAfter.serialized)")
        let threadAfter = try await erased.resolve(
            try ConversationView.render(try await engine.load(ConversationsProjection.self).state, ViewArguments(["id": "c-u-bob"])).json)
        #expect(!threadAfter.serialized.contains("Secret of u-bob"), "\(threadAfter.serialized)")
        let other = try await erased.resolve(
            try ConversationView.render(try await engine.load(ConversationsProjection.self).state, ViewArguments(["id": "c-u-cy"])).json)
        #expect(other.serialized.contains("Secret of u-cy"), "another customer's values are untouched")
    }

    @Test func `a token whose event is not in the log shows as missing, never as another value`() async throws {
        let (store, _) = try await Self.shop()
        let resolver = PersonalValueResolver(store: store)
        let last = try #require(try await store.lastPosition())
        #expect(try await resolver.resolve("to " + PersonalReference(position: last + 5, ordinal: 0).token) == "to " + PersonalValueResolver.missingText)
        #expect(try await resolver.resolve(PersonalReference(position: 1, ordinal: 7).token) == PersonalValueResolver.missingText)
        #expect(try await resolver.resolve(PersonalReference(position: 1, ordinal: 0).token) == "Name of u-ann")
    }
}

@Suite("The directory from the personal index")
struct DirectoryIndexTests {
    /// Accounts signing up, renaming, changing email and phone, one deleted at the end.
    static func accounts() async throws -> (store: SealingEventStore, keys: MemoryPersonalDataKeys, deletedAt: UInt64) {
        let keys = MemoryPersonalDataKeys()
        let store = SealingEventStore(base: InMemoryEventStore(), keys: keys)
        func append(_ user: String, _ event: any DomainEvent) async throws {
            _ = try await store.append(
                AppendRequest(
                    stream: StreamID(unchecked: "account-\(user)"), events: [ProposedEvent(type: event.eventType, data: DomainEventCodec.encode(event))]))
        }
        let names = ["Zoe Park", "adam Quill", "Émile Roux", "Bea Stone", "adam Quill", "Yuri Tal", "Cleo Ude", "Dan Vos"]
        for (n, name) in names.enumerated() {
            try await append("u-\(n)", AccountSignedUp(userId: "u-\(n)", name: name, email: "user\(n)@mail.example", language: .enUS))
        }
        let at = Timestamp(iso8601: "2026-12-01T00:00:00Z")!
        try await append("u-0", ProfileUpdated(userId: "u-0", name: "Aaron Park", phone: "+880 1711 000000"))
        try await append("u-3", EmailChanged(userId: "u-3", oldEmail: "user3@mail.example", newEmail: "bea@stone.example", reauthenticatedAt: at))
        try await append("u-5", ProfileUpdated(userId: "u-5", address: "Road 5"))
        try await append("u-1", ProfileUpdated(userId: "u-1", name: "Zack Quill"))
        try await append("u-6", AccountDeleted(userId: "u-6", reauthenticatedAt: at))
        let deletedAt = try #require(try await store.lastPosition())
        return (store, keys, deletedAt)
    }

    /// The ids a directory page shows, in order, and the total.
    static func ids(_ output: ViewOutput) -> ([String], Int64) {
        guard case .object(let pairs) = output.json, case .array(let items)? = pairs.first(where: { $0.key == "customers" })?.value,
            case .int(let total)? = pairs.first(where: { $0.key == "total" })?.value
        else { return ([], -1) }
        return (items.compactMap { item -> String? in
            guard case .object(let p) = item, case .string(let id)? = p.first(where: { $0.key == "userId" })?.value else { return nil }
            return id
        }, total)
    }

    @Test func `every page and search as of every position is the fold's, without the erased account`() async throws {
        let (store, _, deletedAt) = try await Self.accounts()
        let scratch = try Scratch()
        let engine = ProjectionEngine(store: store, states: FileProjectionStateStore(storePath: scratch.path))
        let all = try await store.read(ReadRequest(source: .all, from: 0, limit: 10_000)).events
        let queries: [[String: String]] = [
            [:], ["page-size": "3"], ["page-size": "3", "page": "2"], ["search": "quill"], ["search": "ad"], ["search": "stone"],
            ["search": "1711"], ["search": "8801711"], ["include-deleted": "", "page-size": "4"], ["include-deleted": "", "page-size": "4", "page": "3"],
        ]
        // The index folds the deletion first, as `account delete` has it do: it erases the account's past as well.
        _ = try await engine.answer(try #require(try CustomersView.personalIndexQuery(ViewArguments())), asOf: deletedAt)
        for n in 0...deletedAt {
            let state = try await engine.state(CustomersProjection.self, atPosition: n)
            // The fold with the values in the clear, and without the erased account before its deletion: the index
            // forgets its past too.
            var plain = try CustomersProjection.folded(all.prefix { $0.position <= n }.map(projected))
            if n < deletedAt { plain.customers["u-6"] = nil }
            for values in queries {
                var arguments = ViewArguments(values)
                let query = try #require(try CustomersView.personalIndexQuery(arguments))
                arguments.personalIndex = try await engine.answer(query, asOf: n).answer
                let (shown, total) = Self.ids(try CustomersView.render(state, arguments))
                let (expected, expectedTotal) = Self.ids(try CustomersView.render(plain, ViewArguments(values)))
                #expect(shown == expected && total == expectedTotal, "\(values) as of \(n): \(shown) \(total), the fold's \(expected) \(expectedTotal)")
            }
        }
    }
}
