import EventLog
import PawtrailDomain
import PawtrailJSON

/// `pawtrail demo`: on an empty store, seeds the catalog and plays a reproducible day of the business through the
/// domain's commands (see ``DemoDay``), then prints what happened, read back from the log. On a store that already
/// holds the demo's day it prints the summary again and changes nothing.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Play a day of the pet-care business on an empty store, then print what happened.",
        discussion: """
            The day (2026-12-01, on the script's clock): an admin opens the shop and seeds the catalog, customers sign
            up (one merges the cart he filled as a guest), add pets with health and food plans, book grooming, ask
            the vet, browse and fill carts, race for the last 5 carrier bags at one moment, buy at the till, cancel,
            and message staff; at the end one customer deletes her account, which winds down her pet and open order
            and erases her personal data. The shop's days are Asia/Dhaka's. Commands the rules refuse are part of the
            day too. Run it again on the same store and
            it only prints the summary.
            """,
        options: [
            .flag("verbose", help: "Print every command as it runs, with its outcome."),
            .flag("json", help: "Print the summary as one JSON object."),
        ],
        run: run)

    @Sendable static func run(_ context: CommandContext) async throws -> ExitCode {
        let opened = try context.openStore(.write(sync: true))
        let store = opened.events
        let verbose = context.arguments.flag("verbose")
        var refusals: [String: Int]?
        if let last = try await store.lastPosition() {
            guard try await store.streamVersion(of: Streams.account("u-ada")) != nil,
                try await store.streamVersion(of: Streams.catalog) != nil
            else {
                throw CommandFailure(
                    kind: .failure,
                    message: "the demo plays its day on an empty store, and \(context.storePath) holds \(last + 1) events; "
                        + "pass --store with a new directory")
            }
            if !context.wantsJSON { context.out("This store holds the demo's day already; what happened:") }
        } else {
            let console = context.console
            var narrate: (@Sendable (String) -> Void)?
            if verbose { narrate = { line in console.write(line + "\n", to: .standardOutput) } }
            let runner = DemoRunner(handler: CommandHandler(store: store, snapshots: opened.snapshots, cache: StateCache()), narrate: narrate)
            try await DemoDay.play(runner)
            await runner.handler.saveQueuedSnapshots()
            // What follows a deletion, as `account delete` does it: the account's obligations end, then its copies go.
            _ = try await AccountErasure.finish(erasing: DemoDay.deleted, in: opened, handler: runner.handler, now: DemoRunner.at("17:00"))
            refusals = runner.refusals
            if !context.wantsJSON {
                context.out("A day at the shop, \(DemoRunner.day): \(runner.accepted) commands accepted, \(runner.refusals.values.reduce(0, +)) refused.")
            }
        }
        let summary = try await DemoSummary.read(store)
        if context.wantsJSON {
            context.out(summary.json(refusals: refusals))
        } else {
            summary.lines(refusals: refusals).forEach { context.out("  " + $0) }
            context.out("Next: pawtrail view dashboard | view agenda --day 2026-12-03 | view activity --user u-dev | order history o-1")
        }
        return .success
    }
}
