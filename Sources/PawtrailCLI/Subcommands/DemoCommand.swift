import PawtrailJSON
import EventLog
import Foundation

/// `pawtrail demo`: a scripted, reproducible walk through the store's guarantees with pet-care events —
/// single appends, a multi-stream atomic order, an optimistic-concurrency conflict and its retry, an
/// idempotent retry, reads forward, backward and by category, and the stats.
///
/// Every event id is fixed, and every expected version comes from the script's own earlier results (which an
/// identical retry reports unchanged), so running the demo again on the same store is a no-op that reports
/// each append as already committed.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Append a scripted set of pet-care events, read them back and print the stats.",
        discussion: "Running it again on the same store changes nothing: every append reports 'already committed'.",
        options: [.flag("json", help: "Print one JSON object per step.")],
        run: run)

    /// The fixed id of the `index`-th event of a step.
    static func eventID(step: Int, index: Int) -> UUID {
        let suffix = String(step * 100 + index)
        let padded = String(repeating: "0", count: 12 - suffix.count) + suffix
        // The literal is valid for every step and index the script uses, so the fallback never runs.
        return UUID(uuidString: "7a5d0000-de30-4000-8000-\(padded)") ?? UUID()
    }

    /// A demo event.
    static func event(step: Int, index: Int, _ type: String, _ json: String, actor: String = "demo") -> ProposedEvent {
        ProposedEvent(
            id: eventID(step: step, index: index), type: type, data: Array(json.utf8),
            metadata: [EventMetadata.actor: actor, EventMetadata.correlationID: "demo-step-\(step)"])
    }

    /// Stream ids of the script; all valid.
    static func stream(_ id: String) -> StreamID { StreamID(unchecked: id) }

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let opened = try context.openStore(.write(sync: true))
        let store = opened.events
        let json = context.wantsJSON
        func say(_ line: String) { if !json { context.out(line) } }
        func step(_ name: String, _ title: String, _ result: AppendResult) {
            if json {
                context.out(
                    JSONValue.object([
                        "step": .string(name),
                        "outcome": .string(result.wasAlreadyCommitted ? "already-committed" : "appended"),
                        "result": AppendReport.json(result),
                    ]))
            } else {
                context.out(title)
                context.out("   " + AppendReport.sentence(result, single: false))
            }
        }

        let pet = stream("pet-1")
        let booking = stream("booking-1")
        let litter = stream("inventory-litter")
        let food = stream("inventory-food")
        let order1 = stream("order-1")
        let order2 = stream("order-2")

        // 1. A pet joins.
        let added = try await store.append(
            AppendRequest(
                stream: pet, expected: .noStream,
                events: [event(step: 1, index: 0, "PetAdded", #"{"petId":"pet-1","name":"Biscuit","species":"cat","born":"2023-04-02"}"#)]))
        step("add-pet", "1. Add a pet: PetAdded on pet-1 (expected version no-stream)", added)

        // 2. Stock arrives on two inventory streams, atomically.
        let stocked = try await store.append(
            AppendRequest(
                entries: [
                    .init(stream: litter, event: event(step: 2, index: 0, "StockReceived", #"{"sku":"litter-5kg","quantity":40}"#)),
                    .init(stream: food, event: event(step: 2, index: 1, "StockReceived", #"{"sku":"food-salmon-2kg","quantity":24}"#)),
                ],
                expectations: [.init(stream: litter, expected: .noStream), .init(stream: food, expected: .noStream)]))
        step("receive-stock", "2. Receive stock: StockReceived on inventory-litter and inventory-food (no-stream each)", stocked)

        // 3. A booking.
        let booked = try await store.append(
            AppendRequest(
                stream: booking, expected: .noStream,
                events: [
                    event(step: 3, index: 0, "BookingRequested", #"{"bookingId":"booking-1","petId":"pet-1","service":"grooming","slot":"2026-12-01T10:00:00Z"}"#),
                    event(step: 3, index: 1, "BookingConfirmed", #"{"bookingId":"booking-1","groomer":"sam"}"#, actor: "staff-sam"),
                ]))
        step("book-grooming", "3. Book grooming: BookingRequested, BookingConfirmed on booking-1", booked)

        // 4. An order reserves stock at the versions the inventory streams were read at, and creates the order.
        let litterRead = version(of: litter, in: stocked)
        let foodRead = version(of: food, in: stocked)
        let orderRequest = AppendRequest(
            entries: [
                .init(stream: order1, event: event(step: 4, index: 0, "OrderPlaced", #"{"orderId":"order-1","petId":"pet-1","lines":[{"sku":"litter-5kg","quantity":2},{"sku":"food-salmon-2kg","quantity":1}],"total":5350}"#)),
                .init(stream: litter, event: event(step: 4, index: 1, "StockReserved", #"{"sku":"litter-5kg","quantity":2,"orderId":"order-1"}"#)),
                .init(stream: food, event: event(step: 4, index: 2, "StockReserved", #"{"sku":"food-salmon-2kg","quantity":1,"orderId":"order-1"}"#)),
            ],
            expectations: [
                .init(stream: order1, expected: .noStream), .init(stream: litter, expected: litterRead),
                .init(stream: food, expected: foodRead),
            ])
        let ordered = try await store.append(orderRequest)
        step(
            "place-order",
            "4. Place order-1 atomically: OrderPlaced (no-stream) + StockReserved on inventory-litter at version \(litterRead) "
                + "and inventory-food at version \(foodRead), as read",
            ordered)

        // 5. A competing order still holds the version of inventory-litter read before order-1 reserved: it must
        //    fail, re-read and retry. Each attempt has its own event ids, so a rerun repeats the same story.
        let stale = litterRead
        func competing(attempt: Int, expected: ExpectedVersion) -> AppendRequest {
            AppendRequest(
                entries: [
                    .init(stream: order2, event: event(step: 5, index: attempt * 10, "OrderPlaced", #"{"orderId":"order-2","petId":"pet-1","lines":[{"sku":"litter-5kg","quantity":1}],"total":1450}"#)),
                    .init(stream: litter, event: event(step: 5, index: attempt * 10 + 1, "StockReserved", #"{"sku":"litter-5kg","quantity":1,"orderId":"order-2"}"#)),
                ],
                expectations: [.init(stream: order2, expected: .noStream), .init(stream: litter, expected: expected)])
        }
        say("5. Place order-2, reserving inventory-litter at the stale version \(stale):")
        do {
            let r = try await store.append(competing(attempt: 1, expected: stale))
            // Only possible if someone else rewrote history; report it rather than pretend.
            step("competing-order-stale", "   Unexpectedly appended:", r)
        } catch let error as EventStoreError {
            guard case .wrongExpectedVersion(_, let expected, let actual) = error else { throw error }
            if json {
                context.out(
                    JSONValue.object([
                        "step": .string("competing-order-stale"), "outcome": .string("wrong-expected-version"),
                        "stream": .string(litter.rawValue), "expected": ErrorReporter.json(expected),
                        "actual": actual.map { .uint($0) } ?? .string("no-stream"),
                    ]))
            } else {
                context.out("   Conflict, as intended: \(error.description)")
            }
        }
        let fresh = version(of: litter, in: ordered)
        let retried = try await store.append(competing(attempt: 2, expected: fresh))
        step("competing-order-retry", "   Retry at version \(fresh), where order-1's append left inventory-litter:", retried)

        // 6. The client of step 4 never saw its acknowledgement and sends the same append again.
        let again = try await store.append(orderRequest)
        step("retry-order", "6. Retry order-1's append with the same event ids (a lost acknowledgement):", again)

        // 7. Read back.
        try await show(context, "7. Read order-1 forward:", "read-stream-forward", ReadRequest(source: .stream(order1)), store)
        try await show(
            context, "   Read inventory-litter backward:", "read-stream-backward",
            ReadRequest(source: .stream(litter), direction: .backward), store)
        try await show(context, "   Read the inventory category:", "read-category", ReadRequest(source: .category("inventory")), store)

        // 8. Stats, where the store has files.
        if let maintenance = opened.maintenance {
            let stats = try maintenance.stats()
            if json {
                context.out(JSONValue.object(["step": .string("stats"), "stats": LogStatsCommand.json(stats)]))
            } else {
                context.out("8. log stats:")
                LogStatsCommand.lines(stats).forEach { context.out("   " + $0) }
            }
        }
        return .success
    }

    /// The version a result reports for a stream, as an expectation (`no-stream` when it holds no events).
    private static func version(of stream: StreamID, in result: AppendResult) -> ExpectedVersion {
        result.streams.first { $0.stream == stream }?.version.map { .exact($0) } ?? .noStream
    }

    private static func show(
        _ context: CommandContext, _ title: String, _ name: String, _ request: ReadRequest, _ store: any EventStore
    ) async throws {
        var events: [RecordedEvent] = []
        try await store.forEachPage(request.source, direction: request.direction, from: request.from) { page in
            events += page
            return true
        }
        if context.wantsJSON {
            context.out(JSONValue.object(["step": .string(name), "events": .array(events.map(EventFormatter.json))]))
        } else {
            context.out(title)
            events.forEach { context.out("   " + EventFormatter.line($0, width: EventFormatter.lineWidth - 3)) }
        }
    }
}
