/// The options every command accepts, before the group or after the verb.
enum GlobalOptions {
    /// The default store directory when neither `--store` nor `$PAWTRAIL_STORE` names one.
    static let defaultStorePath = "./pawtrail-data"
    /// The environment variable naming the store directory.
    static let storeEnvironmentVariable = "PAWTRAIL_STORE"

    /// `--store PATH`.
    static let store = OptionSpec.value(
        "store", "path", help: "The store directory.", default: "$\(storeEnvironmentVariable), else \(defaultStorePath)")
    /// `-h, --help`.
    static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")

    /// Both, in the order help lists them.
    static let all: [OptionSpec] = [store, help]
}
