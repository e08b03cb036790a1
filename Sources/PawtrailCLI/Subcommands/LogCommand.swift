/// `pawtrail log`: the event log's verbs.
enum LogCommand {
    static let spec = CommandSpec(
        name: "log",
        abstract: "Append to, read and maintain the event log.",
        subcommands: [
            LogAppendCommand.spec, LogReadCommand.spec, LogTailCommand.spec, LogVerifyCommand.spec, LogStatsCommand.spec,
            LogInspectCommand.spec, LogCompactCommand.spec,
        ])
}
