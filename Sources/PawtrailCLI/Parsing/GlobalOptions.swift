/// The options every command accepts, before the group or after the verb.
enum GlobalOptions {
    /// The default store directory when neither `--store` nor `$PAWTRAIL_STORE` names one.
    static let defaultStorePath = "./pawtrail-data"
    /// The environment variable naming the store directory.
    static let storeEnvironmentVariable = "PAWTRAIL_STORE"

    /// `--store PATH`.
    static let store = OptionSpec.value(
        "store", "path", help: "The store: a directory, or a PostgreSQL server's postgresql:// URL.", default: "$\(storeEnvironmentVariable), else \(defaultStorePath)")
    /// `-h, --help`.
    static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")
    /// `--stats`.
    static let stats = OptionSpec.flag(
        "stats", help: "Print what the command cost on standard error at the end: opening the store, streams and events read.")

    /// Every one, in the order help lists them.
    static let all: [OptionSpec] = [store, stats, help]
}
