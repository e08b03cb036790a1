// pawtrail-projections-bench: rebuilds every projection from a seeded pet-care workload, ours (the file store,
// binary events) beside a peer (JSON in SQLite, Foundation's JSONDecoder), each side in its own process; checks
// both end with byte-equal states. Run it with tools/projections-bench.sh.
import BenchSupport
import Foundation

do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    switch options.mode {
    case .help:
        print(Options.usage)
    case .generate:
        let (manifest, _) = try await BenchRun(options: options).prepareWorkload()
        print("\(manifest.events) events in \(BenchRun(options: options).workloadDirectory)")
    case .stages:
        let run = BenchRun(options: options)
        let (manifest, _) = try await run.prepareWorkload()
        try await Stages.run(options, storePath: run.storePath, events: manifest.events)
    case .verify:
        let run = BenchRun(options: options)
        _ = try await run.prepareWorkload()
        let count = try await WorkloadVerifier.run(storePath: run.storePath)
        print("\(count) events follow the domain's rules (\(run.storePath))")
        let read = try await PeerAdapterCheck.run(storePath: run.storePath, sqlitePath: run.sqlitePath, stride: 1)
        print("\(read) events read by the peer's JSONDecoder adapter equal the stored events (\(run.sqlitePath))")
    case .timetravel:
        let run = BenchRun(options: options)
        _ = try await run.prepareWorkload()
        try await TimeTravelBench.run(storePath: run.storePath, samples: 21, seed: options.seed)
    case .side(let side):
        let result = try await SideRunner.run(side, options)
        FileHandle.standardOutput.write(try JSONEncoder().encode(result) + Data("\n".utf8))
    case .run:
        exit(await BenchRun(options: options).run())
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("pawtrail-projections-bench: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("pawtrail-projections-bench: \(error)\n".utf8))
    exit(1)
}
