import Projections
import Events
import PawtrailDomain

/// The domain's verbs on the command line: one group per area (`pet`), one verb per command (`pet add`), with
/// options generated from the command's fields, so a command's help can never disagree with what it reads.
enum DomainVerbs {
    /// What each group is about, for `pawtrail --help`.
    static let groupAbstracts: [String: String] = [
        "account": "Accounts: sign up, log in and out, sessions, profile, image, language, email, password, notifications, deletion, export.",
        "admin": "Create the first admin.",
        "role": "Grant and revoke the staff and admin roles.",
        "pet": "Your pets: profile, health (vaccinations, issues, vet, treatments, appointments), food plan, weight log.",
        "booking": "Grooming bookings: request, reschedule and cancel (owners); confirm, complete and record no-shows (staff).",
        "salon": "The grooming salon: each service's price, duration and groomers, and the groomers on duty (admins).",
        "vet": "Vet requests: submit (owners); answer and close (staff).",
        "cart": "Your cart: add, change quantities, remove, clear (guests too).",
        "favourite": "Your favourite products: add and remove (guests too).",
        "conversation": "Messages between a customer and staff about a booking, vet request or order.",
        "product": "The catalog's products: add, edit, reprice, delist, relist (admins).",
        "catalog": "Seed the bundled catalog of pet products, once (admins).",
        "inventory": "Stock per product: receive deliveries, adjust counts (admins).",
        "order": "Orders: place from your cart; confirm, ship, deliver, collect payment, take back, refund (staff); cancel; history.",
        "pos": "The shop's till: sell over the counter from the same stock (staff).",
        "shop": "The shop's settings: who may read the views, and the business's time zone (admins).",
        "outbox": "Notifications owed to customers: what is due to send, and marking it taken by a sending worker (staff).",
    ]

    /// The option of the verbs staff may run for a customer.
    static let actingFor = OptionSpec.value(
        "for", "user", help: "Staff only: act for this customer (who phoned in, or came to the counter); recorded with you as the actor.")

    /// The options every domain verb takes besides its fields.
    static let commonOptions: [OptionSpec] = [
        .value("as", "user", help: "The user issuing the command (guests: an id starting 'guest-').", required: true),
        .value("now", "time", help: "The command's clock, UTC ISO-8601.", default: "the current time"),
        .value(
            "command-id", "uuid", help: "The command's id: a command re-sent with the id of one applied before answers as it did then and appends nothing.",
            default: "a random UUID"),
        .value("correlation-id", "id", help: "The id tying together the events of one user action.", default: "the command id"),
        .flag("json", help: "Print the result as JSON."),
    ]

    /// One group per area, in the catalog's order.
    static var groups: [CommandSpec] {
        var order: [String] = []
        var verbs: [String: [CommandSpec]] = [:]
        for command in CommandCatalog.all {
            let (group, verb) = split(command.name)
            if verbs[group] == nil { order.append(group) }
            verbs[group, default: []].append(spec(command, verb: verb))
        }
        // Read verbs that belong with a group's commands.
        verbs["order", default: []].append(StoryCommand.orderHistorySpec)
        verbs["account", default: []].append(AccountExport.spec)
        verbs["outbox", default: []].insert(ViewCommand.alias(OutboxView.self, name: "pending"), at: 0)
        return order.map { group in
            CommandSpec(name: group, abstract: groupAbstracts[group] ?? "The \(group) commands.", subcommands: verbs[group]!)
        }
    }

    /// `pet.add` as (`pet`, `add`).
    static func split(_ name: String) -> (String, String) {
        let dot = name.firstIndex(of: ".")!
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// `petId` as `pet-id`.
    static func optionName(_ key: String) -> String {
        var out = ""
        for c in key {
            if c.isUppercase {
                out.append("-")
                out.append(contentsOf: c.lowercased())
            } else {
                out.append(c)
            }
        }
        return out
    }

    private static func spec<C: DomainCommand>(_ command: C.Type, verb: String) -> CommandSpec {
        CommandSpec(
            name: verb, abstract: C.summary,
            details: {
                let fields = C.fields
                return (
                    "Runs the command '\(C.name)'; in a JSON Lines file for 'pawtrail exec' it reads\n"
                        + "  {\"command\":\"\(C.name)\",\"as\":\"USER\"" + fields.map { ",\"\($0.key)\":…" }.joined() + "}",
                    fields.map { option($0, of: C.name) } + commonOptions + (C.staffMayActFor ? [actingFor] : [])
                )
            },
            run: { context in try await DomainCommandRunner.runVerb(C.self, context) })
    }

    private static func option(_ field: FieldDescriptor, of command: String) -> OptionSpec {
        let name = optionName(field.key)
        var kind = field.kind
        let required = !kind.isOptional
        if case .optional(let inner) = kind { kind = inner }
        let meaning = FieldHelp.text(field.key, of: command)
        switch kind {
        case .bool:
            return .flag(name, help: meaning ?? "Sets \(field.key).")
        case .strings:
            return .repeated(name, "text", help: (meaning ?? "One of the values of \(field.key).") + " Repeatable.")
        default:
            let (valueName, format) = describe(kind)
            // A field's meaning, then its format; text and numbers need none (the value name says it).
            let help: String
            switch (meaning, kind) {
            case (let meaning?, .string), (let meaning?, .int): help = meaning
            case (let meaning?, _): help = meaning + " " + format
            case (nil, _): help = format
            }
            return .value(name, valueName, help: help, required: required)
        }
    }

    private static func describe(_ kind: FieldKind) -> (String, String) {
        switch kind {
        case .string: ("text", "Text.")
        case .int: ("n", "An integer.")
        case .timestamp: ("time", "A UTC ISO-8601 time, e.g. 2026-12-01T10:00:00Z.")
        case .money: ("money", "Minor units and an ISO currency code, e.g. '62000 BDT'.")
        case .choice(let cases): (cases.joined(separator: "|"), "One of: \(cases.joined(separator: ", ")).")
        case .records(let fields):
            ("json", "A JSON array of {" + fields.map { "\"\($0.key)\": \($0.kind)" }.joined(separator: ", ") + "}.")
        default: ("value", "\(kind).")
        }
    }
}
