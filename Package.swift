// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Pawtrail",
    products: [
        .executable(name: "pawtrail", targets: ["pawtrail"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        .library(name: "EventLogFile", targets: ["EventLogFile"]),
        .library(name: "EventLogMemory", targets: ["EventLogMemory"]),
        .library(name: "EventLogPostgres", targets: ["EventLogPostgres"]),
        .library(name: "EventLogTestKit", targets: ["EventLogTestKit"]),
    ],
    targets: [
        // C libraries from Debian, wrapped the GRDB way: module.modulemap + shim.h + pkg-config + apt provider.
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // libpq's header only: the library is opened when a PostgreSQL store is first used (CLibPQLoader), not linked.
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        .target(name: "CLibPQLoader", dependencies: ["CLibPQ"], linkerSettings: [.linkedLibrary("dl")]),

        // Hardware CRC-32C (SSE4.2), which Swift cannot emit; a few lines of our own C.
        .target(name: "CPawtrailSupport"),
        // Layer 1: file I/O, checksums, compression. Knows nothing about events.
        .target(name: "PawtrailIO", dependencies: ["CZstd", "CPawtrailSupport"]),
        // JSON values, a strict validator and a parser: below everything that reads or prints JSON.
        .target(name: "PawtrailJSON"),
        // SQLite connections and statements, owned once: the file log's snapshots, the export, the benchmarks' peer.
        .target(name: "PawtrailSQLite", dependencies: ["CSQLite3"]),
        // Layer 2: the store protocol and its value types. Knows nothing about files.
        .target(name: "EventLog"),
        // Layer 2 implementations.
        .target(name: "EventLogFile", dependencies: ["EventLog", "PawtrailIO", "PawtrailSQLite", "CSQLite3"]),
        .target(name: "EventLogMemory", dependencies: ["EventLog"]),
        // Personal data sealed under per-account keys (libsodium) over any store: erasing an account destroys its key.
        .target(name: "EventLogSealing", dependencies: ["EventLog", "CSodium"]),
        // The store on a PostgreSQL server, through libpq.
        .target(name: "EventLogPostgres", dependencies: ["EventLog", "CLibPQ", "CLibPQLoader"]),
        // The conformance cases every backend's tests run against their implementations of the store protocols.
        .target(name: "EventLogTestKit", dependencies: ["EventLog"]),
        // A throw-away PostgreSQL server for the tests of the PostgreSQL store and of the CLI on it.
        .target(name: "PostgresTestSupport"),
        // Layer 3: the domain event catalog and read models.
        .target(name: "Events", dependencies: ["EventLog", "PawtrailJSON"], path: "Events"),
        // Layer 3: the domain's decisions, pure functions over stream states, and the handler that appends them.
        .target(name: "PawtrailDomain", dependencies: ["EventLog", "EventLogSealing", "Events", "PawtrailJSON"]),
        .target(name: "Projections", dependencies: ["EventLog", "Events", "PawtrailJSON"], path: "Projections"),
        // Layer 4: stored states, catch-up, rebuild, audit and time travel for the read models.
        .target(name: "ProjectionRuntime", dependencies: ["EventLog", "Events", "Projections", "PawtrailIO", "PawtrailJSON"]),
        // Read models' states written out as SQLite tables (`projections export --sqlite`).
        .target(name: "ProjectionExport", dependencies: ["CSQLite3", "PawtrailIO", "PawtrailJSON"]),
        // The file store's part of the projection runtime: read models' states as run files beside the log.
        .target(
            name: "ProjectionStateFile", dependencies: ["EventLog", "Projections", "ProjectionRuntime", "PawtrailIO", "PawtrailSQLite", "CSQLite3", "CPawtrailSupport"]),
        // The PostgreSQL store's part of the projection runtime: read models' states in the store's database.
        .target(name: "ProjectionStatePostgres", dependencies: ["EventLog", "EventLogPostgres", "Projections", "ProjectionRuntime"]),
        // The conformance cases every implementation of the read models' state store runs.
        .target(name: "ProjectionRuntimeTestKit", dependencies: ["EventLog", "EventLogTestKit", "Projections", "ProjectionRuntime"]),
        // Layer 5: the CLI, as a library so tests can reach it; the executable is a thin entry point.
        .target(
            name: "PawtrailCLI",
            dependencies: [
                "EventLog", "EventLogFile", "EventLogPostgres", "EventLogSealing", "Events", "PawtrailDomain", "Projections", "ProjectionRuntime", "ProjectionStateFile", "ProjectionStatePostgres",
                "ProjectionExport", "PawtrailJSON", "CPawtrailSupport",
            ]),
        .executableTarget(name: "pawtrail", dependencies: ["PawtrailCLI"]),

        // tools/: benchmarks and workload generators (not tests), and what they share.
        .target(name: "BenchSupport", dependencies: ["PawtrailSQLite"], path: "tools/BenchSupport"),
        .executableTarget(
            name: "pawtrail-bench", dependencies: ["EventLog", "EventLogFile", "CSQLite3", "PawtrailSQLite", "BenchSupport"], path: "tools/bench"),

        .executableTarget(
            name: "pawtrail-codec-bench", dependencies: ["EventLog", "Events", "PawtrailJSON"], path: "tools/codec-bench"),

        .executableTarget(
            name: "pawtrail-projections-bench",
            dependencies: [
                "EventLog", "EventLogFile", "EventLogSealing", "Events", "PawtrailDomain", "Projections", "ProjectionRuntime",
                "ProjectionStateFile", "PawtrailJSON", "CSQLite3", "PawtrailSQLite", "BenchSupport",
            ],
            path: "tools/projections-bench"),

        .executableTarget(name: "pawtrail-pg-bench", dependencies: ["EventLog", "EventLogPostgres"], path: "tools/pg-bench"),

        .testTarget(name: "PawtrailIOTests", dependencies: ["PawtrailIO"]),
        .testTarget(
            name: "EventLogTests",
            dependencies: [
                "EventLog", "EventLogFile", "EventLogMemory", "EventLogSealing", "EventLogTestKit", "PawtrailIO", "PawtrailSQLite", "BenchSupport",
            ]),
        .testTarget(
            name: "EventLogPostgresTests",
            dependencies: [
                "EventLog", "EventLogPostgres", "EventLogTestKit", "PostgresTestSupport", "ProjectionStatePostgres", "ProjectionRuntimeTestKit", "ProjectionRuntime", "Projections",
            ]),
        .testTarget(
            name: "PawtrailDomainTests",
            dependencies: ["PawtrailDomain", "Events", "EventLog", "EventLogMemory", "EventLogSealing", "EventLogTestKit", "PawtrailJSON"]),
        .testTarget(name: "ProjectionsTests", dependencies: ["Projections", "Events", "EventLog", "PawtrailJSON", "BenchSupport"]),
        .testTarget(
            name: "ProjectionRuntimeTests",
            dependencies: [
                "ProjectionRuntime", "ProjectionRuntimeTestKit", "ProjectionStateFile", "Projections", "Events", "EventLog", "EventLogMemory", "EventLogTestKit",
                "EventLogSealing", "PawtrailJSON",
            ]),
        .testTarget(
            name: "PawtrailCLITests",
            dependencies: [
                "PawtrailCLI", "PawtrailJSON", "ProjectionRuntime", "Projections", "EventLog", "EventLogFile", "EventLogMemory", "PawtrailIO",
                "PostgresTestSupport", "PawtrailSQLite",
            ]),
    ]
)

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}
