import BenchSupport
import EventLog
import Events
import Foundation
import PawtrailDomain

/// A simulated pet-care business over many days: the reproducible workload of the projections benchmark.
///
/// It keeps just enough state to make every event one the domain's commands could have written (stock never below
/// what is reserved, lifecycles in order, receipts from the other side once, slots held once), and writes the
/// events directly as domain values, with the metadata ``PawtrailDomain/CommandHandler`` writes (correlation and
/// causation id, actor, role, command, occurredAt), into append batches. Running every step through the command
/// handler would take hours for millions of events.
///
/// The clock is a queue of timed tasks (visits, sign-ups, staff follow-ups, till sales, restocks): each task runs
/// at its time, may schedule later ones, and stamps its events with that time, so the log reads in business order.
/// Only arrays are iterated (Swift's dictionary order differs between processes), and every draw comes from one
/// seeded generator, so a seed and an event count always give the same log.
final class Business {
    /// How big and how fast.
    struct Settings {
        var seed: UInt64
        /// Stop after the command that reaches this many events.
        var targetEvents: Int
        /// The days the workload is spread over (the daily volume follows).
        var days: Int
        /// Events per append (a command's events are never split).
        var batchEvents: Int
    }

    // MARK: Time

    static let second: Int64 = 1_000_000
    static let minute: Int64 = 60 * second
    static let hour: Int64 = 60 * minute
    static let day: Int64 = 24 * hour
    /// 2026-01-01T00:00:00Z.
    static let epoch: Int64 = 1_767_225_600 * second

    let settings: Settings
    var rng: Xoshiro256StarStar
    /// The clock of the task running now (microseconds since 1970).
    var now: Int64 = Business.epoch
    private var heap = TaskHeap()
    private var batch: [AppendRequest.Entry] = []
    /// Events written so far.
    private(set) var eventCount = 0
    /// Commands written so far.
    private(set) var commandCount = 0
    /// Events per type (for the report).
    private(set) var typeCounts: [String: Int] = [:]
    /// The simulated day reached.
    private(set) var dayReached = 0
    private var started = false
    private var finished = false

    // Daily volume, from the target and the days.
    let visitsPerDay: Int
    let signUpsPerDay: Int
    let tillSalesPerDay: Int

    // MARK: The business's state

    let admin = "u-admin"
    var staff: [String] = []
    var customers: [Customer] = []
    var products: [Product] = []
    var orders: [Order] = []
    var pets: [Pet] = []
    var bookings: [Booking] = []
    var vetRequests: [VetRequest] = []
    var conversations: [Conversation] = []

    init(_ settings: Settings) {
        self.settings = settings
        rng = Xoshiro256StarStar(seed: settings.seed)
        let perDay = max(60, settings.targetEvents / max(1, settings.days))
        // About 12 events per visit with what follows it (staff follow-ups, receipts, stock), measured.
        visitsPerDay = max(10, perDay / 12)
        signUpsPerDay = max(1, visitsPerDay / 15)
        tillSalesPerDay = max(1, visitsPerDay / 30)
    }

    // MARK: Batches

    /// The next append: whole commands until at least `batchEvents` events, or `nil` when the target is reached.
    func nextBatch() -> [AppendRequest.Entry]? {
        if !started {
            started = true
            openTheShop()
        }
        while !finished && batch.count < settings.batchEvents {
            guard let task = heap.pop() else {
                finished = true
                break
            }
            now = task.time
            run(task.task)
            if eventCount >= settings.targetEvents { finished = true }
        }
        guard !batch.isEmpty else { return nil }
        defer { batch = [] }
        return batch
    }

    /// Schedules a task at a time (never before now).
    func schedule(_ task: BusinessTask, at time: Int64) {
        heap.push(max(time, now), task)
    }

    /// Schedules a task after a delay in a range.
    func schedule(_ task: BusinessTask, after range: ClosedRange<Int64>) {
        schedule(task, at: now + rng.int64(range))
    }

    private func run(_ task: BusinessTask) {
        switch task {
        case .newDay(let day): startDay(day)
        case .signUp: signUpCustomer()
        case .visit(let c, let steps, let burst): visit(c, steps: steps, burst: burst)
        case .orderStep(let o): orderStep(o)
        case .bookingStep(let b, let generation): bookingStep(b, generation: generation)
        case .vetStep(let v): vetStep(v)
        case .staffReply(let c): staffReply(c)
        case .customerReceipts(let c): customerReceipts(c)
        case .restock: restock()
        case .tillSale: tillSale()
        case .adminWork: adminWork()
        }
    }

    // MARK: Days

    private func openTheShop() {
        now = Self.epoch + 6 * Self.hour
        signUp(id: admin, name: "Ada Rahman", email: "ada@pawtrail.example", language: .enUS, role: .customer)
        command("admin.bootstrap", as: admin, role: .customer, [(Streams.roles, AdminBootstrapped(userId: admin))])
        seedCatalog()
        let staffCount = max(2, min(12, visitsPerDay / 150))
        for n in 1...staffCount {
            now += Self.minute
            let id = "u-staff-\(n)"
            let (first, last) = (rng.pick(Names.first), rng.pick(Names.last))
            signUp(id: id, name: "\(first) \(last)", email: "staff\(n)@pawtrail.example", language: .bnBD, role: .customer)
            command("role.grant", as: admin, role: .admin, [(Streams.roles, RoleGranted(userId: id, role: .staff, grantedBy: admin))])
            staff.append(id)
        }
        // The first customers arrive with the shop.
        for _ in 0..<max(5, visitsPerDay / 4) { schedule(.signUp, after: 0...(12 * Self.hour)) }
        schedule(.newDay(0), at: Self.epoch + 6 * Self.hour + Self.minute)
    }

    private func startDay(_ day: Int) {
        dayReached = day
        let morning = Self.epoch + Int64(day) * Self.day
        for _ in 0..<signUpsPerDay { schedule(.signUp, at: morning + rng.int64((7 * Self.hour)...(23 * Self.hour))) }
        if !customers.isEmpty {
            for _ in 0..<visitsPerDay {
                let c = rng.skewed(customers.count, power: 1.6)
                guard !customers[c].deleted else { continue }
                schedule(.visit(c, steps: rng.int(2...9), burst: -1), at: morning + rng.int64((6 * Self.hour)...(23 * Self.hour + 50 * Self.minute)))
            }
        }
        for _ in 0..<tillSalesPerDay { schedule(.tillSale, at: morning + rng.int64((10 * Self.hour)...(20 * Self.hour))) }
        for h in stride(from: Int64(8), through: 20, by: 3) { schedule(.restock, at: morning + h * Self.hour + rng.int64(0...(10 * Self.minute))) }
        schedule(.adminWork, at: morning + 7 * Self.hour + rng.int64(0...(50 * Self.minute)))
        schedule(.newDay(day + 1), at: morning + Self.day + 6 * Self.hour)
    }

    // MARK: Writing

    /// Appends one command's events with the handler's metadata: a fresh command id as causation and correlation,
    /// the actor and role, the command's name and its clock.
    func command(_ name: String, as actor: String, role: Role, _ events: [(StreamID, any DomainEvent)]) {
        guard !events.isEmpty else { return }
        let commandID = lowercaseUUID(rng.uuid())
        let metadata = EventMetadata(sortedUniquePairs: [
            (key: EventMetadata.actor, value: actor),
            (key: EventMetadata.causationID, value: commandID),
            (key: "command", value: name),
            (key: EventMetadata.correlationID, value: commandID),
            (key: "occurredAt", value: Timestamp(microsecondsSinceEpoch: now).iso8601),
            (key: "role", value: role.rawValue),
        ])
        for (stream, event) in events {
            let type = event.eventType
            batch.append(
                AppendRequest.Entry(
                    stream: stream,
                    event: ProposedEvent(id: rng.uuid(), type: type, data: DomainEventCodec.encode(event), metadata: metadata)))
            typeCounts[type, default: 0] += 1
        }
        eventCount += events.count
        commandCount += 1
    }

    /// A new generated id: the prefix, a dash and 11 base64url characters, the shape of the domain's `newID`.
    func newID(_ prefix: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".unicodeScalars)
        let h = rng.next()
        var text = prefix + "-"
        for shift in stride(from: 60, through: 0, by: -6) { text.unicodeScalars.append(alphabet[Int((h >> UInt64(shift)) & 63)]) }
        return text
    }

    /// The clock as a timestamp.
    var timestamp: Timestamp { Timestamp(microsecondsSinceEpoch: now) }
}

/// A unit of simulated work, run at its time.
enum BusinessTask {
    case newDay(Int)
    case signUp
    /// A customer's app session: `steps` actions left; `burst` more profile edits to make first.
    case visit(Int, steps: Int, burst: Int)
    /// Staff move an order on (confirm, ship, deliver), by its status.
    case orderStep(Int)
    /// Staff move a booking on; stale when the booking's generation changed (a reschedule).
    case bookingStep(Int, generation: Int)
    case vetStep(Int)
    case staffReply(Int)
    case customerReceipts(Int)
    case restock
    case tillSale
    case adminWork
}

/// A min-heap of tasks by time, then by scheduling order (so equal times run first-come, deterministically).
struct TaskHeap {
    private struct Item {
        var time: Int64
        var sequence: UInt64
        var task: BusinessTask
        func before(_ other: Item) -> Bool { time != other.time ? time < other.time : sequence < other.sequence }
    }

    private var items: [Item] = []
    private var sequence: UInt64 = 0

    mutating func push(_ time: Int64, _ task: BusinessTask) {
        sequence += 1
        items.append(Item(time: time, sequence: sequence, task: task))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].before(items[parent]) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (time: Int64, task: BusinessTask)? {
        guard !items.isEmpty else { return nil }
        let top = items[0]
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < items.count && items[l].before(items[m]) { m = l }
                if r < items.count && items[r].before(items[m]) { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return (top.time, top.task)
    }
}
