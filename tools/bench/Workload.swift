import BenchSupport
import EventLog
import Foundation

/// The reproducible pet-care workload: a seeded stream of events over 10,000 streams with skewed popularity,
/// grouped into commits.
///
/// Everything comes from the seed. Event ids, types, streams and data come from one xoshiro256** sequence, so
/// the n-th event is the same whatever the commit size; the correlation id and actor of a commit are derived
/// from `(seed, commit index)`, so they are shared by the events of one commit.
struct Workload {
    /// The number of streams, split over the categories by ``WorkloadCategory/streamCount``.
    static let streamCount = WorkloadCategory.allCases.reduce(0) { $0 + $1.streamCount }
    /// The default skew of stream popularity inside a category (probability ∝ 1/rank^0.9).
    static let defaultSkew = 0.9
    /// Business time of the first event (2026-06-01T00:00:00Z); events advance ~1.7 s apart on average.
    static let startTime: Int64 = 1_780_272_000_000_000

    /// The seed.
    let seed: UInt64
    private var rng: Xoshiro256StarStar
    private let streams: [StreamID]
    private let firstIndex: [Int]
    private let samplers: [ZipfSampler]
    private let typeTable: [WorkloadEventType]
    /// Next version per stream index; 0 means the stream is empty (the version is this value minus one).
    private var nextVersion: [UInt64]
    private var commitCount = 0
    private var clock: Int64

    /// Creates the workload for a seed.
    ///
    /// - Parameters:
    ///   - seed: The seed everything comes from.
    ///   - skew: The Zipf exponent of stream popularity inside a category; 0 picks streams uniformly.
    init(seed: UInt64, skew: Double = Workload.defaultSkew) {
        self.seed = seed
        rng = Xoshiro256StarStar(seed: seed)
        var names: [StreamID] = []
        var first: [Int] = []
        var samplers: [ZipfSampler] = []
        for category in WorkloadCategory.allCases {
            first.append(names.count)
            for n in 1...category.streamCount {
                names.append(StreamID(unchecked: "\(category.prefix)-\(n)"))
            }
            samplers.append(ZipfSampler(count: category.streamCount, exponent: skew))
        }
        streams = names
        firstIndex = first
        self.samplers = samplers
        typeTable = WorkloadEventType.allCases.flatMap { [WorkloadEventType](repeating: $0, count: $0.weight) }
        nextVersion = [UInt64](repeating: 0, count: names.count)
        clock = Self.startTime
    }

    /// The next commit of `size` events.
    mutating func nextCommit(size: Int) -> WorkloadCommit {
        let (correlationID, actor) = commitIdentity(commitCount)
        commitCount += 1
        let metadata = EventMetadata(sortedUniquePairs: [
            (key: EventMetadata.actor, value: actor), (key: EventMetadata.correlationID, value: correlationID),
        ])
        var events: [WorkloadEvent] = []
        events.reserveCapacity(size)
        for _ in 0..<size { events.append(nextEvent(metadata: metadata)) }
        return WorkloadCommit(events: events)
    }

    /// Generates `count` events grouped `perCommit` to a commit (the last commit may be smaller).
    mutating func commits(events count: Int, perCommit: Int) -> [WorkloadCommit] {
        var result: [WorkloadCommit] = []
        result.reserveCapacity(count / perCommit + 1)
        var left = count
        while left > 0 {
            let n = min(perCommit, left)
            result.append(nextCommit(size: n))
            left -= n
        }
        return result
    }

    private mutating func nextEvent(metadata: EventMetadata) -> WorkloadEvent {
        let type = typeTable[rng.below(typeTable.count)]
        let category = type.category
        let rank = samplers[category.rawValue].sample(&rng)
        // A multiplicative scramble (7919 is prime, coprime to every category size) maps rank to stream number, so
        // that apart from the hottest (`<category>-1`) the popular streams are spread over the numbers.
        let number = (rank * 7919) % category.streamCount + 1
        let index = firstIndex[category.rawValue] + number - 1
        let id = PetCareData.uuid(&rng)
        clock += Int64(rng.int(in: 200_000...3_200_000))
        let data = PetCareData.build(type, streamNumber: number, at: Timestamp(microsecondsSinceEpoch: clock), rng: &rng)
        let next = nextVersion[index]
        nextVersion[index] = next + 1
        return WorkloadEvent(
            streamIndex: index, stream: streams[index], versionBefore: next == 0 ? nil : next - 1,
            event: ProposedEvent(id: id, type: type.name, data: data, metadata: metadata))
    }

    /// The correlation id and actor of commit `n`, a pure function of the seed and `n`.
    private func commitIdentity(_ n: Int) -> (String, String) {
        let base = SplitMix64.mix(seed ^ 0x636F_7272_656C_6174) &+ UInt64(n) &* 0x9E37_79B9_7F4A_7C15
        let a = SplitMix64.mix(base)
        let b = SplitMix64.mix(a ^ 0x5A5A_5A5A_5A5A_5A5A)
        var raw = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            raw[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i)))
            raw[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i)))
        }
        let actor = "user-\(SplitMix64.mix(b) % 5000 + 1)"
        return (JSONBuffer.lowercaseString(PetCareData.makeUUID(raw)), actor)
    }
}
