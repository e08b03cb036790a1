import BenchSupport
import EventLog
import EventLogFile
import EventLogSealing
import Foundation
import ProjectionRuntime
import ProjectionStateFile
import Projections

/// Ours as the product runs it: `ProjectionEngine.rebuild` of every projection in one pass, with its stored states
/// (rows with their history, snapshots) written to a fresh directory (what `pawtrail projections rebuild --all` does).
struct EngineRebuild: ProjectionRebuilder {
    var label: String { "ProjectionEngine.rebuild (states and their history written)" }

    func rebuild(storePath path: String, types: TypeSelection) async throws -> RebuildOutcome {
        let start = ContinuousClock.now
        let file = try FileEventStore.open(path: path)
        defer { file.close() }
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: path))
        let scratch = path + "-engine-\(getpid())"
        try? FileManager.default.removeItem(atPath: scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let engine = ProjectionEngine(store: store, states: FileProjectionStateStore(storePath: scratch))
        let result = try await engine.rebuild(ProjectionCatalog.projections)
        var outcome = RebuildOutcome()
        // The rebuild ends with every state folded and its checkpoint written; reading them back for the check
        // below is the benchmark's, not the rebuild's.
        outcome.seconds = (ContinuousClock.now - start) / .seconds(1)
        outcome.eventsRead = result.eventsRead
        outcome.eventsDecoded = result.eventsDecoded
        for p in ProjectionCatalog.projections {
            let (applied, state) = try await p.storedState(engine)
            outcome.applications += Int(applied)
            outcome.states.append((p.name, state))
        }
        return outcome
    }
}

/// Time travel as `pawtrail view NAME --at-position N` answers it, at random positions of the workload: each
/// projection from its nearest snapshot, and a view that folds only its own stream (one order).
enum TimeTravelBench {
    static func run(storePath path: String, samples: Int, seed: UInt64) async throws {
        let file = try FileEventStore.open(path: path)
        defer { file.close() }
        let store = SealingEventStore(base: file, keys: FilePersonalDataKeys(storePath: path))
        let scratch = path + "-timetravel"
        try? FileManager.default.removeItem(atPath: scratch)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let engine = ProjectionEngine(store: store, states: FileProjectionStateStore(storePath: scratch))
        let clock = ContinuousClock()
        let started = clock.now
        _ = try await engine.rebuild(ProjectionCatalog.projections)
        print("rebuild with snapshots: \(clock.now - started)")
        guard let last = try await store.lastPosition() else { return }
        var rng = SplitMix64(seed: seed)
        let positions = (0..<samples).map { _ in UInt64.random(in: 0...last, using: &rng) }
        func report(_ name: String, _ times: [Duration]) {
            let ms = times.map { Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1e3 }.sorted()
            let median = ms[ms.count / 2]
            let p90 = ms[min(ms.count - 1, ms.count * 9 / 10)]
            print(name.padding(toLength: 42, withPad: " ", startingAt: 0) + String(format: "median %8.1f ms   p90 %8.1f ms   max %8.1f ms", median, p90, ms.last!))
        }
        for p in ProjectionCatalog.projections {
            var times: [Duration] = []
            for n in positions {
                let t0 = clock.now
                _ = try await p.stateAt(engine, n)
                times.append(clock.now - t0)
            }
            report("\(p.name) (whole, from snapshot)", times)
        }
        // Views of one entity, as `pawtrail view ... --at-position N` answers them: the keyed orders read as of the
        // position (only the rows the view asks for), then rendered.
        let orders = try await engine.load(OrdersProjection.self).state
        let orderIDs = orders.orders.entries.keys.sorted()
        let customers = orders.byCustomer.entries.keys.sorted()
        var orderTimes: [Duration] = []
        var customerTimes: [Duration] = []
        for n in positions {
            let orderArgs = ViewArguments(["id": orderIDs.randomElement(using: &rng)!])
            var t0 = clock.now
            _ = try? OrderDetailView.render(try await engine.state(OrdersProjection.self, atPosition: n), orderArgs)
            orderTimes.append(clock.now - t0)
            let customerArgs = ViewArguments(["customer": customers.randomElement(using: &rng)!])
            t0 = clock.now
            _ = try? CustomerOrdersView.render(try await engine.state(OrdersProjection.self, atPosition: n), customerArgs)
            customerTimes.append(clock.now - t0)
        }
        report("view orders --customer (rows as of n)", customerTimes)
        report("view order --id (rows as of n)", orderTimes)
    }
}

extension Projection {
    /// The stored state, as stored (no catch-up), in the field encoding, and the events it applied.
    static func storedState(_ engine: ProjectionEngine) async throws -> (Int64, [UInt8]) {
        let loaded = try await engine.load(Self.self, catchUp: false)
        let status = try await engine.status([Self.self])
        return (status.first?.eventsApplied ?? 0, loaded.state.encoded(reserving: 1 << 16))
    }

    static func stateAt(_ engine: ProjectionEngine, _ position: UInt64) async throws -> Int {
        _ = try await engine.state(Self.self, atPosition: position)
        return 0
    }
}
