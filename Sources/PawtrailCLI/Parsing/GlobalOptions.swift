/// The options every command accepts, before the group or after the verb.
enum GlobalOptions {
    /// The default store directory when neither `--store` nor `$PAWTRAIL_STORE` names one.
    static let defaultStorePath = "./pawtrail-data"
    /// The environment variable naming the store directory.
    static let storeEnvironmentVariable = "PAWTRAIL_STORE"

    /// `--store PATH`.
    static let store = OptionSpec.value(
        "store", "path", help: "The store: a directory, or a PostgreSQL server's postgresql:// URL.", default: "$\(storeEnvironmentVariable), else \(defaultStorePath)")
    /// The environment variables behind `--read-store` and `--state-dir`.
    static let readStoreEnvironmentVariable = "PAWTRAIL_READ_STORE"
    static let stateDirectoryEnvironmentVariable = "PAWTRAIL_STATE_DIR"
    /// `--read-store STORE`.
    static let readStore = OptionSpec.value(
        "read-store", "store",
        help: "A replica to serve reads from (views, log reads, order history, projection status): a standby's postgresql:// URL. Commands still go to --store.",
        default: "$\(readStoreEnvironmentVariable), else none")
    /// `--read-your-writes`.
    static let readYourWrites = OptionSpec.flag(
        "read-your-writes", help: "With --read-store: first wait (up to 10 s) until the replica holds every event the store held when the command started.")
    /// `--state-dir PATH`.
    static let stateDirectory = OptionSpec.value(
        "state-dir", "path",
        help: "Keep the read models' states in this directory instead of in the store: a machine serving views from a replica keeps its own.",
        default: "$\(stateDirectoryEnvironmentVariable), else in the store")
    /// `-h, --help`.
    static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")
    /// `--stats`.
    static let stats = OptionSpec.flag(
        "stats", help: "Print what the command cost on standard error at the end: opening the store, streams and events read.")

    /// Every one, in the order help lists them.
    static let all: [OptionSpec] = [store, readStore, readYourWrites, stateDirectory, stats, help]
}
