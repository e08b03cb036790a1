import EventLog
import Foundation
import Testing

/// Reads: a stream by version, the log and a category by position, in both directions, in pages, filtered.
struct ReadCases {
    /// A log of 30 events over five streams of three categories, interleaved:
    /// positions 0..<30; event i goes to `streams[i % 5]`; types alternate Even/Odd by position. Each event
    /// carries ~200 bytes of incompressible padding, so 4 KiB segments spread the log over several segments.
    static let streams: [StreamID] = ["order-1", "inventory-a", "order-2", "order", "orders-1"]

    static func populate(_ h: any StoreHarness) async throws -> [RecordedEvent] {
        // Appends of 1..4 events each, in position order; each event goes to streams[position % 5].
        var position = 0
        var size = 1
        while position < 30 {
            let n = min(size, 30 - position)
            let entries = (position..<(position + n)).map { p in
                AppendRequest.Entry(
                    stream: streams[p % 5],
                    event: event(p % 2 == 0 ? "Even" : "Odd", "{\"p\":\(p),\"pad\":\"\(noise(400))\"}"))
            }
            _ = try await h.store.append(AppendRequest(entries: entries))
            position += n
            size = size % 4 + 1
        }
        try h.expectRolledOver()
        try h.checkpoint()
        let all = try await h.store.readAll()
        try #require(all.map(\.position) == Array(0..<30))
        return all
    }

    static func streamForwardPagesUntilNextIsNil(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        let mine = all.filter { $0.stream == "order-1" }  // positions 0, 5, …, 25: versions 0...5
        #expect(mine.map(\.version) == Array(0...5))

        var pages: [[UInt64]] = []
        var cursor: UInt64? = 0
        while let from = cursor {
            let batch = try await h.store.read(ReadRequest(source: .stream("order-1"), from: from, limit: 4))
            pages.append(batch.events.map(\.version))
            cursor = batch.next
        }
        #expect(pages == [[0, 1, 2, 3], [4, 5]])
        let page = try await h.store.read(ReadRequest(source: .stream("order-1"), from: 2, limit: 2))
        #expect(page.events == Array(mine[2...3]))
        #expect(page.next == 4)
        // Exactly filling the last page: next may point past the end or be nil, but the next page is then empty.
        #expect(try await h.store.readAll(.stream("order-1"), pageSize: 3) == mine)
        #expect(try await h.store.readAll(.stream("order-1"), pageSize: 1) == mine)
        #expect(try await h.store.readAll(.stream("order-1"), from: 3, pageSize: 100) == Array(mine[3...]))
    }

    static func streamBackwardPagesUntilNextIsNil(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        let mine = all.filter { $0.stream == "inventory-a" }  // versions 0...5
        let first = try await h.store.read(ReadRequest(source: .stream("inventory-a"), direction: .backward, limit: 4))
        #expect(first.events.map(\.version) == [5, 4, 3, 2])
        #expect(first.next == 1)
        let second = try await h.store.read(
            ReadRequest(source: .stream("inventory-a"), direction: .backward, from: 1, limit: 4))
        #expect(second.events.map(\.version) == [1, 0])
        #expect(second.next == nil)
        #expect(try await h.store.readAll(.stream("inventory-a"), direction: .backward, pageSize: 2) == mine.reversed())
        #expect(
            try await h.store.readAll(.stream("inventory-a"), direction: .backward, from: 3, pageSize: 2)
                == mine[0...3].reversed())
        // Backward from past the end starts at the end.
        #expect(
            try await h.store.readAll(.stream("inventory-a"), direction: .backward, from: 1000) == mine.reversed())
    }

    static func allForwardFromAPosition(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        let page = try await h.store.read(ReadRequest(source: .all, from: 7, limit: 5))
        #expect(page.events.map(\.position) == [7, 8, 9, 10, 11])
        #expect(page.next == 12)
        #expect(try await h.store.readAll(.all, from: 7, pageSize: 5) == Array(all[7...]))
        #expect(try await h.store.readAll(.all, pageSize: 29) == all)
        #expect(try await h.store.readAll(.all, pageSize: 30) == all)
        #expect(try await h.store.readAll(.all, pageSize: 31) == all)
        let last = try await h.store.read(ReadRequest(source: .all, from: 29, limit: 5))
        #expect(last.events.map(\.position) == [29])
        #expect(last.next == nil)
    }

    static func allBackward(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        let page = try await h.store.read(ReadRequest(source: .all, direction: .backward, limit: 4))
        #expect(page.events.map(\.position) == [29, 28, 27, 26])
        #expect(page.next == 25)
        let from = try await h.store.read(ReadRequest(source: .all, direction: .backward, from: 10, limit: 4))
        #expect(from.events.map(\.position) == [10, 9, 8, 7])
        #expect(try await h.store.readAll(.all, direction: .backward, pageSize: 7) == all.reversed())
        #expect(try await h.store.readAll(.all, direction: .backward, from: 3, pageSize: 7) == all[0...3].reversed())
        let first = try await h.store.read(ReadRequest(source: .all, direction: .backward, from: 0, limit: 4))
        #expect(first.events.map(\.position) == [0])
        #expect(first.next == nil)
    }

    static func categoryIsTheStreamIDBeforeTheFirstDash(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        // `order` holds order-1, order-2 and the stream "order" itself, not "orders-1".
        let expected = all.filter { ["order-1", "order-2", "order"].contains($0.stream) }
        #expect(expected.count == 18)
        for size in [1, 4, 1000] {
            #expect(try await h.store.readAll(.category("order"), pageSize: size) == expected, "page size \(size)")
            #expect(
                try await h.store.readAll(.category("order"), direction: .backward, pageSize: size) == expected.reversed(),
                "page size \(size)")
        }
        #expect(try await h.store.readAll(.category("orders")) == all.filter { $0.stream == "orders-1" })
        #expect(try await h.store.readAll(.category("inventory")) == all.filter { $0.stream == "inventory-a" })
        #expect(try await h.store.readAll(.category("ord")).isEmpty)
        #expect(try await h.store.readAll(.category("order-1")).isEmpty)
        #expect(try await h.store.readAll(.category("nothing")).isEmpty)
        // From a position, both directions.
        #expect(try await h.store.readAll(.category("order"), from: 11, pageSize: 2) == expected.filter { $0.position >= 11 })
        #expect(
            try await h.store.readAll(.category("order"), direction: .backward, from: 11, pageSize: 2)
                == expected.filter { $0.position <= 11 }.reversed())
        // Pages never exceed the limit and hold only the category.
        let page = try await h.store.read(ReadRequest(source: .category("order"), limit: 4))
        #expect(page.events.count <= 4)
        #expect(page.events.allSatisfy { $0.stream.category == "order" })
        #expect(page.next != nil)
    }

    static func filterByEventType(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        #expect(try await h.store.readAll(.all, pageSize: 3, eventTypes: ["Even"]) == all.filter { $0.type == "Even" })
        #expect(
            try await h.store.readAll(.all, direction: .backward, pageSize: 3, eventTypes: ["Odd"])
                == all.filter { $0.type == "Odd" }.reversed())
        #expect(try await h.store.readAll(.all, eventTypes: ["Even", "Odd"]) == all)
        #expect(try await h.store.readAll(.all, eventTypes: ["Missing"]).isEmpty)
        #expect(try await h.store.readAll(.all, eventTypes: []).isEmpty)
        #expect(
            try await h.store.readAll(.stream("order-1"), pageSize: 2, eventTypes: ["Odd"])
                == all.filter { $0.stream == "order-1" && $0.type == "Odd" })
        #expect(
            try await h.store.readAll(.category("order"), pageSize: 2, eventTypes: ["Even"])
                == all.filter { $0.stream.category == "order" && $0.type == "Even" })
        #expect(
            try await h.store.readAll(.category("order"), direction: .backward, pageSize: 2, eventTypes: ["Even"])
                == all.filter { $0.stream.category == "order" && $0.type == "Even" }.reversed())
    }

    /// A category and an event type name bytes, as a stream id does (see `StreamID`): a category or type that is
    /// only canonically equivalent to another (precomposed "é" against "e" + U+0301; the Kelvin sign U+212A, which
    /// Unicode decomposes to a plain "K") is another name, and matches nothing the other names. `String` equality
    /// would match them; a byte-comparing store (the file log, SQL text) would not.
    static func categoryAndTypeFiltersCompareBytesLikeStreamIDs(_ h: any StoreHarness) async throws {
        let precomposed = try sid("caf\u{E9}-1")
        let decomposed = try sid("cafe\u{301}-2")
        try await h.store.append(to: precomposed, [event("Kelvin")])
        try await h.store.append(to: decomposed, [event("Kelvin")])
        try h.checkpoint()
        let all = try await h.store.readAll()
        try #require(all.count == 2)
        for direction in [ReadDirection.forward, .backward] {
            let ordered = direction == .forward ? all : all.reversed()
            #expect(
                try await h.store.readAll(.category("caf\u{E9}"), direction: direction) == ordered.filter { $0.stream == precomposed },
                "\(direction)")
            #expect(
                try await h.store.readAll(.category("cafe\u{301}"), direction: direction) == ordered.filter { $0.stream == decomposed },
                "\(direction)")
            // "\u{212A}elvin" == "Kelvin" as Strings, but it is not that type (nor any valid one: types are ASCII).
            let kelvinSign: Set<String> = ["\u{212A}elvin"]
            #expect(try await h.store.readAll(.all, direction: direction, eventTypes: kelvinSign).isEmpty, "\(direction)")
            #expect(try await h.store.readAll(.stream(precomposed), direction: direction, eventTypes: kelvinSign).isEmpty, "\(direction)")
            #expect(
                try await h.store.readAll(.category("caf\u{E9}"), direction: direction, eventTypes: kelvinSign).isEmpty, "\(direction)")
            #expect(try await h.store.readAll(.all, direction: direction, eventTypes: ["Kelvin"]) == ordered, "\(direction)")
            #expect(
                try await h.store.readAll(.stream(precomposed), direction: direction, eventTypes: ["Kelvin"])
                    == ordered.filter { $0.stream == precomposed }, "\(direction)")
        }
    }

    /// `next` is the first event a page did not examine: after a full page, one past its last event (forward) or one
    /// before it (backward), even when every event left is filtered out (the next page is then empty, with no
    /// `next`); a page that examined the source to its end has no `next`. Pinned for stream, log and category reads.
    static func nextAfterAFullFilteredPageIsTheFirstEventNotExamined(_ h: any StoreHarness) async throws {
        // Positions 0...5 in order-1 (versions 0...5): A B A B B B; then position 6 in pet-1: A.
        try await h.store.append(to: "order-1", [event("A"), event("B"), event("A"), event("B"), event("B"), event("B")])
        try await h.store.append(to: "pet-1", [event("A")])
        try h.checkpoint()
        let empty = ReadBatch(events: [], next: nil)
        for source in [ReadSource.stream("order-1"), .category("order")] {
            let page = try await h.store.read(ReadRequest(source: source, limit: 2, eventTypes: ["A"]))
            #expect(page.events.map(\.position) == [0, 2], "\(source)")
            #expect(page.next == 3, "\(source)")
            #expect(try await h.store.read(ReadRequest(source: source, from: 3, limit: 2, eventTypes: ["A"])).events.isEmpty, "\(source)")
            let back = try await h.store.read(ReadRequest(source: source, direction: .backward, limit: 1, eventTypes: ["A"]))
            #expect(back.events.map(\.position) == [2], "\(source)")
            #expect(back.next == 1, "\(source)")
            let rest = try await h.store.read(ReadRequest(source: source, direction: .backward, from: 1, limit: 1, eventTypes: ["A"]))
            #expect(rest.events.map(\.position) == [0], "\(source)")
            #expect(rest.next == nil, "\(source)")
        }
        #expect(try await h.store.read(ReadRequest(source: .stream("order-1"), from: 3, limit: 2, eventTypes: ["A"])) == empty)
        // The log: the page ends on A at 2; 3...5 are B, 6 is A again.
        let log = try await h.store.read(ReadRequest(source: .all, limit: 2, eventTypes: ["A"]))
        #expect(log.events.map(\.position) == [0, 2])
        #expect(log.next == 3)
        let tail = try await h.store.read(ReadRequest(source: .all, from: 3, limit: 2, eventTypes: ["A"]))
        #expect(tail == ReadBatch(events: [try await h.store.readAll().last!], next: nil))
        // The category's events end at 5, but the log goes on: a category page examines the log, not just the category.
        let category = try await h.store.read(ReadRequest(source: .category("order"), from: 3, limit: 2, eventTypes: ["A"]))
        #expect(category == empty)
    }

    /// Backward reads from a `from` past the end (up to `UInt64.max`) start at the end, for every source.
    static func backwardReadsFromPastTheEndStartAtTheEnd(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        let order1 = all.filter { $0.stream == "order-1" }
        let order = all.filter { $0.stream.category == "order" }
        for from in [UInt64(30), 31, 1000, UInt64.max - 1, UInt64.max] {
            let log = try await h.store.read(ReadRequest(source: .all, direction: .backward, from: from, limit: 3))
            #expect(log == ReadBatch(events: all.suffix(3).reversed(), next: 26), "from \(from)")
            let category = try await h.store.read(ReadRequest(source: .category("order"), direction: .backward, from: from, limit: 3))
            #expect(category.events == order.suffix(3).reversed(), "from \(from)")
            #expect(category.next == order.suffix(3).first!.position - 1, "from \(from)")
            let stream = try await h.store.read(ReadRequest(source: .stream("order-1"), direction: .backward, from: from, limit: 3))
            #expect(stream == ReadBatch(events: order1.suffix(3).reversed(), next: 2), "from \(from)")
            #expect(try await h.store.readAll(.stream("order-1"), direction: .backward, from: from, pageSize: 4) == order1.reversed())
            #expect(try await h.store.readAll(.category("order"), direction: .backward, from: from, pageSize: 4) == order.reversed())
        }
    }

    static func readingPastTheEndIsEmptyWithNoNext(_ h: any StoreHarness) async throws {
        _ = try await Self.populate(h)
        let empty = ReadBatch(events: [], next: nil)
        #expect(try await h.store.read(ReadRequest(source: .stream("order-1"), from: 6)) == empty)
        #expect(try await h.store.read(ReadRequest(source: .stream("order-1"), from: 100)) == empty)
        #expect(try await h.store.read(ReadRequest(source: .stream("order-1"), from: UInt64.max)) == empty)
        #expect(try await h.store.read(ReadRequest(source: .all, from: 30)) == empty)
        #expect(try await h.store.read(ReadRequest(source: .all, from: UInt64.max)) == empty)
        #expect(try await h.store.read(ReadRequest(source: .category("order"), from: 30)) == empty)
        #expect(try await h.store.read(ReadRequest(source: .stream("missing-1"))) == empty)
        #expect(try await h.store.read(ReadRequest(source: .stream("missing-1"), direction: .backward)) == empty)
        #expect(try await h.store.read(ReadRequest(source: .category("missing"), direction: .backward)) == empty)
    }

    static func emptyStoreReadsAreEmpty(_ h: any StoreHarness) async throws {
        let empty = ReadBatch(events: [], next: nil)
        for direction in [ReadDirection.forward, .backward] {
            #expect(try await h.store.read(ReadRequest(source: .all, direction: direction)) == empty)
            #expect(try await h.store.read(ReadRequest(source: .category("order"), direction: direction)) == empty)
            #expect(try await h.store.read(ReadRequest(source: .stream("order-1"), direction: direction)) == empty)
            #expect(try await h.store.read(ReadRequest(source: .all, direction: direction, from: 0)) == empty)
        }
    }

    static func limitZeroOrNegativeIsRejected(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "order-1", events(1))
        for limit in [0, -1, Int.min] {
            for source in [ReadSource.all, .stream("order-1"), .category("order")] {
                await expectInvalidRequest("limit \(limit) on \(source)") {
                    try await h.store.read(ReadRequest(source: source, limit: limit))
                }
            }
        }
    }

    static func forEachPageVisitsEverythingAndStops(_ h: any StoreHarness) async throws {
        let all = try await Self.populate(h)
        var seen: [RecordedEvent] = []
        try await h.store.forEachPage(.all, pageSize: 7) { page in
            seen += page
            return true
        }
        #expect(seen == all)
        var pages = 0
        try await h.store.forEachPage(.all, pageSize: 7) { _ in
            pages += 1
            return false
        }
        #expect(pages == 1)
    }

    /// A filtered read may return short or even empty pages with a `next` (a store may bound how many events one
    /// page examines); following `next` must still find every match, in both directions.
    static func sparseFilteredReadsOverManyEventsFindEveryMatch(_ h: any StoreHarness) async throws {
        // 70,000 events; the matches are at positions 5, 69,990 and 69,995: the gap of 69,985 between the first
        // two is more than the 65,536 events the file store examines per page, so some page comes back short.
        var rare: [UUID] = []
        for chunk in 0..<7 {
            var entries = (0..<EventLimits.maxEventsPerAppend).map { _ in
                AppendRequest.Entry(stream: "noise-1", event: event("Noise"))
            }
            for (c, at) in [(0, 5), (6, 9_990), (6, 9_995)] where c == chunk {
                let e = event("Rare", "{\"chunk\":\(chunk)}")
                rare.append(e.id)
                entries[at] = AppendRequest.Entry(stream: "rare-1", event: e)
            }
            _ = try await h.store.append(AppendRequest(entries: entries))
        }
        try h.checkpoint()
        #expect(try await h.store.lastPosition() == 69_999)
        #expect(try await h.store.readAll(.category("rare"), pageSize: 2).map(\.id) == rare)
        #expect(try await h.store.readAll(.category("rare"), direction: .backward, pageSize: 2).map(\.id) == rare.reversed())
        #expect(try await h.store.readAll(.all, pageSize: 3, eventTypes: ["Rare"]).map(\.id) == rare)
        #expect(
            try await h.store.readAll(.all, direction: .backward, pageSize: 3, eventTypes: ["Rare"]).map(\.id)
                == rare.reversed())
        #expect(try await h.store.readAll(.category("nothing"), pageSize: 2).isEmpty)
    }
}
