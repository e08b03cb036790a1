#if canImport(Glibc)
import BenchSupport
import Glibc
#endif

// Entry point: parse, then generate the workload or run the benchmark.
do {
    let options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    switch options.mode {
    case .help: print(BenchOptions.usage)
    case .generate: WorkloadGeneratorCommand.run(options)
    case .segments: exit(await SegmentScaling.run(options))
    case .layout: exit(LayoutCommand.run(options))
    case .run: exit(await BenchRunner(options: options).run())
    }
} catch {
    Console.progress("pawtrail-bench: \(error)\n\n\(BenchOptions.usage)")
    exit(2)
}
