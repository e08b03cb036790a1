import BenchSupport
import Foundation
import Projections

/// The whole run: the workload (generated or reused), each side in its own child process, the state check, the
/// report.
struct BenchRun {
    let options: Options

    private func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The workload's directory for this seed and size.
    var workloadDirectory: String { options.directory + "/workload-\(options.events)-seed\(options.seed)-days\(options.days)" }
    var storePath: String { workloadDirectory + "/store" }
    var sqlitePath: String { workloadDirectory + "/events.sqlite" }
    var manifestPath: String { workloadDirectory + "/manifest.json" }

    /// The workload's manifest when a complete workload for these options is on disk.
    func existingWorkload() -> WorkloadManifest? {
        guard let data = FileManager.default.contents(atPath: manifestPath),
            let manifest = try? JSONDecoder().decode(WorkloadManifest.self, from: data),
            manifest.generatorVersion == WorkloadManifest.generatorVersion, manifest.seed == options.seed,
            manifest.targetEvents == options.events, manifest.days == options.days,
            FileManager.default.fileExists(atPath: sqlitePath), FileManager.default.fileExists(atPath: storePath)
        else { return nil }
        return manifest
    }

    /// Reuses a matching workload, or generates one in a child process (so this process stays small: Linux
    /// carries a parent's peak memory into a spawned child's ru_maxrss).
    func workloadForRun() throws -> (manifest: WorkloadManifest, generated: Bool) {
        if !options.regenerate, let manifest = existingWorkload() {
            progress("reusing the workload in \(workloadDirectory) (\(manifest.events) events; --regenerate to rebuild it)")
            return (manifest, false)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executablePath())
        process.arguments = [
            "generate", "--regenerate", "--events", String(options.events), "--seed", String(options.seed), "--days",
            String(options.days), "--dir", options.directory,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let manifest = existingWorkload() else {
            throw FoldError("generating the workload failed (exit \(process.terminationStatus)); its error is above")
        }
        return (manifest, true)
    }

    /// Reuses a matching workload, or generates one in this process.
    func prepareWorkload() async throws -> (manifest: WorkloadManifest, generated: Bool) {
        if !options.regenerate, let manifest = existingWorkload() {
            progress("reusing the workload in \(workloadDirectory) (\(manifest.events) events; --regenerate to rebuild it)")
            return (manifest, false)
        }
        try FileManager.default.createDirectory(atPath: workloadDirectory, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: manifestPath)
        progress("generating \(options.events) events (seed \(options.seed), \(options.days) days) into \(storePath)")
        let settings = Business.Settings(seed: options.seed, targetEvents: options.events, days: options.days, batchEvents: 4_000)
        let start = ContinuousClock.now
        let business = try await WorkloadBuilder.generate(storePath: storePath, settings: settings, progress: progress)
        let generateSeconds = (ContinuousClock.now - start) / .seconds(1)
        progress("copying the events as JSON into \(sqlitePath)")
        let exportStart = ContinuousClock.now
        let rows = try await WorkloadBuilder.exportToSQLite(storePath: storePath, sqlitePath: sqlitePath)
        let exportSeconds = (ContinuousClock.now - exportStart) / .seconds(1)
        guard rows == business.eventCount else {
            throw FoldError("the store holds \(rows) events, the generator wrote \(business.eventCount)")
        }
        progress("checking every event against the domain's rules")
        let verifyStart = ContinuousClock.now
        _ = try await WorkloadVerifier.run(storePath: storePath)
        progress("checking that the peer reads every 16th event exactly as stored")
        _ = try await PeerAdapterCheck.run(storePath: storePath, sqlitePath: sqlitePath, stride: 16)
        let verifySeconds = (ContinuousClock.now - verifyStart) / .seconds(1)
        let manifest = WorkloadManifest(
            generatorVersion: WorkloadManifest.generatorVersion, seed: options.seed, targetEvents: options.events, days: options.days,
            events: business.eventCount, commands: business.commandCount, daysSimulated: business.dayReached + 1,
            customers: business.customers.count, products: business.products.count, orders: business.orders.count,
            pets: business.pets.count, bookings: business.bookings.count, conversations: business.conversations.count,
            types: business.typeCounts, storeBytes: WorkloadBuilder.size(of: storePath),
            sqliteBytes: WorkloadBuilder.size(of: sqlitePath), generateSeconds: generateSeconds, exportSeconds: exportSeconds,
            verifySeconds: verifySeconds)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(manifest).write(to: URL(fileURLWithPath: manifestPath))
        progress(
            String(
                format: "generated %d events in %.1f s, copied to SQLite in %.1f s, checked against the domain's rules in %.1f s",
                manifest.events, generateSeconds, exportSeconds, verifySeconds))
        return (manifest, true)
    }

    /// Runs one side in a child process of this binary and reads its result.
    func runSide(_ side: String, run: Int) throws -> SideResult {
        let states = workloadDirectory + "/states/\(side)-\(run)"
        try? FileManager.default.removeItem(atPath: states)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executablePath())
        process.arguments = [
            "--side", side, "--store", storePath, "--sqlite", sqlitePath, "--states", states, "--types", options.types.rawValue, "--ours", options.ours,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FoldError("the \(side) side failed (exit \(process.terminationStatus)); its error is above")
        }
        return try JSONDecoder().decode(SideResult.self, from: data)
    }

    /// This binary, for the children.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs everything; returns the exit status.
    func run() async -> Int32 {
        let startedAt = Date()
        let loadStart = MachineInfo.loadAverage()
        do {
            let (manifest, generated) = try workloadForRun()
            var ours: [SideResult] = []
            var peer: [SideResult] = []
            // Alternate the sides, so a burst of other load on the machine hits both.
            for n in 0..<max(options.runs, options.peerRuns) {
                if n < options.peerRuns {
                    progress("peer rebuild \(n + 1) of \(options.peerRuns)...")
                    peer.append(try runSide("peer", run: n))
                    progress(String(format: "  %.1f s", peer.last!.seconds))
                }
                if n < options.runs {
                    progress("ours rebuild \(n + 1) of \(options.runs)...")
                    ours.append(try runSide("ours", run: n))
                    progress(String(format: "  %.2f s", ours.last!.seconds))
                }
            }
            let check = try StateCheck.compare(reference: ours[0], others: Array(ours.dropFirst()) + peer)
            let report = BenchReport.make(
                options: options, manifest: manifest, generated: generated, ours: ours, peer: peer, check: check,
                startedAt: startedAt, loadStart: loadStart, loadEnd: MachineInfo.loadAverage())
            let markdown = ReportPrinter.markdown(report)
            if options.json {
                FileHandle.standardError.write(Data(markdown.utf8))
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                FileHandle.standardOutput.write(try encoder.encode(report) + Data("\n".utf8))
            } else {
                print(markdown, terminator: "")
            }
            if !check.allEqual {
                progress("FAILED: the two sides' states differ (see the state check above)")
                return 1
            }
            return 0
        } catch {
            progress("pawtrail-projections-bench: \(error)")
            return 1
        }
    }
}

/// Byte equality of every projection's encoded state across all runs of both sides.
struct StateCheck: Codable {
    struct Row: Codable {
        var projection: String
        var bytes: Int
        var digest: String
        var equal: Bool
        /// Which runs differ, with the first differing byte.
        var differences: [String]
    }

    var rows: [Row]
    var allEqual: Bool { rows.allSatisfy(\.equal) && !rows.isEmpty }

    static func compare(reference: SideResult, others: [SideResult]) throws -> StateCheck {
        var rows: [Row] = []
        for state in reference.states {
            let mine = try Data(contentsOf: URL(fileURLWithPath: state.file))
            var differences: [String] = []
            for (n, other) in others.enumerated() {
                guard let theirs = other.states.first(where: { $0.name == state.name }) else {
                    differences.append("\(other.side) run \(n): no state")
                    continue
                }
                let bytes = try Data(contentsOf: URL(fileURLWithPath: theirs.file))
                if bytes != mine {
                    let first = zip(mine, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(mine.count, bytes.count)
                    differences.append("\(other.side) (\(theirs.file)): \(bytes.count) bytes against \(mine.count), first difference at byte \(first)")
                }
            }
            rows.append(Row(projection: state.name, bytes: state.bytes, digest: state.digest, equal: differences.isEmpty, differences: differences))
        }
        return StateCheck(rows: rows)
    }
}
