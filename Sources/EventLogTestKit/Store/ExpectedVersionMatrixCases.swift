import EventLog
import Testing

/// One cell of the expected-version matrix: a stream that is missing or holds three events (version 2), and an
/// expectation; either the version the append leads to or the stream's actual version in the error.
struct ExpectationCase: Sendable, CustomTestStringConvertible {
    /// The stream's version before the append; `nil`: missing.
    var existing: UInt64?
    var expected: ExpectedVersion
    /// Whether the append succeeds.
    var succeeds: Bool

    var testDescription: String {
        "\(expected) on \(existing.map { "a stream at version \($0)" } ?? "a missing stream") → \(succeeds ? "ok" : "wrong expected version")"
    }

    static let all: [ExpectationCase] = [
        .init(existing: nil, expected: .any, succeeds: true),
        .init(existing: nil, expected: .noStream, succeeds: true),
        .init(existing: nil, expected: .streamExists, succeeds: false),
        .init(existing: nil, expected: .exact(0), succeeds: false),
        .init(existing: nil, expected: .exact(2), succeeds: false),
        .init(existing: 2, expected: .any, succeeds: true),
        .init(existing: 2, expected: .noStream, succeeds: false),
        .init(existing: 2, expected: .streamExists, succeeds: true),
        .init(existing: 2, expected: .exact(0), succeeds: false),
        .init(existing: 2, expected: .exact(1), succeeds: false),
        .init(existing: 2, expected: .exact(2), succeeds: true),
        .init(existing: 2, expected: .exact(3), succeeds: false),
        .init(existing: 2, expected: .exact(UInt64.max), succeeds: false),
    ]
}

struct ExpectedVersionMatrixCases {
    static func expectedVersionMatrix(_ h: any StoreHarness, _ c: ExpectationCase) async throws {
        let target: StreamID = "pet-1"
        let bystander: StreamID = "pet-2"
        try await h.store.append(to: bystander, events(2))
        if let existing = c.existing {
            try await h.store.append(to: target, events(Int(existing) + 1))
        }
        try h.checkpoint()
        let before = try await StoreSnapshot(h.store, streams: [target, bystander])

        let batch = events(2, type: "Attempted")
        if c.succeeds {
            let result = try await h.store.append(to: target, expected: c.expected, batch)
            let first = (c.existing.map { $0 + 1 } ?? 0)
            #expect(result.streams == [.init(stream: target, version: first + 1)])
            #expect(result.firstPosition == (before.lastPosition ?? 0) + 1)
            #expect(result.lastPosition == (before.lastPosition ?? 0) + 2)
            #expect(result.wasAlreadyCommitted == false)
            try h.checkpoint()
            let read = try await h.store.events(of: target)
            #expect(read.suffix(2).map(\.id) == batch.map(\.id))
            #expect(read.suffix(2).map(\.version) == [first, first + 1])
        } else {
            await expectError(.wrongExpectedVersion(stream: target, expected: c.expected, actual: c.existing)) {
                try await h.store.append(to: target, expected: c.expected, batch)
            }
            // A failed append leaves no trace.
            try h.checkpoint()
            #expect(try await StoreSnapshot(h.store, streams: [target, bystander]) == before)
            // And the store still takes the next append.
            let next = try await h.store.append(to: target, expected: c.existing.map { .exact($0) } ?? .noStream, [event()])
            #expect(next.firstPosition == (before.lastPosition ?? 0) + 1)
        }
    }

    static func wrongExpectedVersionErrorNamesTheStreamAndBothVersions(_ h: any StoreHarness) async throws {
        try await h.store.append(to: "order-7", events(4))
        let error = await #expect(throws: EventStoreError.self) {
            try await h.store.append(to: "order-7", expected: .exact(1), [event()])
        }
        #expect(error == .wrongExpectedVersion(stream: "order-7", expected: .exact(1), actual: 3))
        #expect(error?.description == "wrong expected version for stream 'order-7': expected 1, but the stream is at version 3")
    }
}
