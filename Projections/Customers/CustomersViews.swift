import EventLog
import Events
import PawtrailJSON

/// `pawtrail view customers [--search TEXT]`: the directory of accounts, by name: each with email, phone, role, pets,
/// orders and open bookings. `--search` keeps the accounts where every word begins a word of the name, the email,
/// the phone's digits or the user id (ignoring case). Deleted accounts are left out unless `--include-deleted`.
/// Paged (`--page`, `--page-size`, default 50): the order and the search come from the personal index
/// (``CustomersDirectory``), so a page reads its accounts' rows only.
public enum CustomersView: ProjectionView {
    /// Whether an account matches every word of a search, by its values in the clear.
    static func matches(_ query: [String], _ id: String, _ c: CustomersProjection.Customer) -> Bool {
        let own = Format.words(c.name) + Format.words(c.email) + Format.words(id) + [c.phone.filter(\.isNumber)]
        return query.allSatisfy { q in own.contains { $0.hasPrefix(q) } }
    }

    public typealias Source = CustomersProjection
    public static let name = "customers"
    public static let summary = "The customer directory: search by name, email, phone or id; role, pets, orders, open bookings."
    public static let options = [
        ViewOption("search", "text", help: "Every word must begin a word of the name, email, phone or user id."),
        ViewOption("include-deleted", "", help: "A flag: list deleted accounts too."),
        ViewOption("page", "n", help: "The page to show, from 1.", default: "1"),
        ViewOption("page-size", "n", help: "Accounts per page (at most 500).", default: "50"),
    ]

    public static func audience(_ state: CustomersProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func personalIndexQuery(_ arguments: ViewArguments) throws(ViewError) -> PersonalIndexQuery? {
        let (page, pageSize) = try paging(arguments)
        // Deleted accounts are erased from the index: with them, every match is asked for and the page made here.
        if try arguments.flag("include-deleted") {
            return PersonalIndexQuery(CustomersDirectory.self, words: Format.words(arguments.value("search") ?? ""), offset: 0, limit: .max)
        }
        return PersonalIndexQuery(
            CustomersDirectory.self, words: Format.words(arguments.value("search") ?? ""), offset: Int(page - 1) * Int(pageSize), limit: Int(pageSize))
    }

    private static func paging(_ arguments: ViewArguments) throws(ViewError) -> (page: Int64, pageSize: Int64) {
        (try arguments.int("page", default: 1, range: 1...1_000_000), try arguments.int("page-size", default: 50, range: 1...500))
    }

    public static func render(_ state: CustomersProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let query = Format.words(arguments.value("search") ?? "")
        let includeDeleted = try arguments.flag("include-deleted")
        let (page, pageSize) = try paging(arguments)
        let start = Int(page - 1) * Int(pageSize)
        // The living accounts in order come from the personal index; without its answer (a state folded with its
        // values in the clear, in tests), from the rows themselves.
        let living: [String]
        var total: Int
        if let answer = arguments.personalIndex {
            living = answer.subjects
            total = answer.total
        } else {
            let found = state.customers.entries.filter { entry in
                !entry.value.deleted && (query.isEmpty || matches(query, entry.key, entry.value))
            }.sorted { ($0.value.name.lowercased(), $0.key) < ($1.value.name.lowercased(), $1.key) }
            total = found.count
            living = (includeDeleted ? found : Array(found.dropFirst(start).prefix(Int(pageSize)))).map(\.key)
        }
        var ids = living
        if includeDeleted {
            // A deleted account's name and email read as erased: it is found by its user id, after the living ones.
            let deleted = state.customers.entries.filter { entry in
                entry.value.deleted && query.allSatisfy { q in Format.words(entry.key).contains { $0.hasPrefix(q) } }
            }.map(\.key).sorted()
            total += deleted.count
            ids = Array((living + deleted).dropFirst(start).prefix(Int(pageSize)))
        }
        state.customers.prefetch(ids)
        let shown = ids.compactMap { id in state.customers[id].map { (key: id, value: $0) } }
        let pages = max(1, (total + Int(pageSize) - 1) / Int(pageSize))
        return ViewOutput(
            title: "Customers" + (query.isEmpty ? "" : " matching '\(query.joined(separator: " "))'"),
            header: ["USER", "NAME", "EMAIL", "PHONE", "ROLE", "PETS", "ORDERS", "OPEN BOOKINGS"],
            rows: shown.map {
                [$0.key, $0.value.name + ($0.value.deleted ? " (deleted)" : ""), $0.value.email, $0.value.phone, $0.value.role,
                 String($0.value.pets), String($0.value.orders), String($0.value.openBookings)]
            },
            rightAligned: [5, 6, 7], footer: ["\(total) account\(total == 1 ? "" : "s"), page \(page) of \(pages)"],
            json: .object([
                "total": .int(Int64(total)), "page": .int(page), "pageSize": .int(pageSize), "pages": .int(Int64(pages)),
                "customers": .array(shown.map { CustomerView.json($0.key, $0.value) }),
            ]))
    }
}

/// `pawtrail view customer --id U`: one account's profile (name, email, phone, address, language, role) and what
/// the shop does with them: pets, orders and the last one, open bookings, sign-up and last log-in (the present's
/// only: as of a past moment it reads "never"). Pets, orders,
/// bookings and conversations themselves are their own views (`pets --owner`, `orders --customer`, `conversations`).
public enum CustomerView: ProjectionView {
    public typealias Source = CustomersProjection
    public static let name = "customer"
    public static let summary = "One account's profile and its pets, orders, open bookings and last log-in."
    public static let options = [ViewOption("id", "user", help: "The account's user id.", required: true)]

    public static func audience(_ state: CustomersProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .userAndStaff(try arguments.required("id"))
    }

    public static func render(_ state: CustomersProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let id = try arguments.required("id")
        guard let c = state.customers[id] else { throw .notFound("no account '\(id)'") }
        func minute(_ t: Timestamp?) -> String { t.map(PetCareText.minute) ?? "never" }
        let rows: [[String]] = [
            ["Name", c.name + (c.deleted ? " (deleted)" : "")], ["Email", c.email], ["Phone", c.phone], ["Address", c.address],
            ["Language", c.language.rawValue], ["Role", c.role], ["Signed up", minute(c.signedUpAt)],
            ["Last log-in", minute(state.lastLogIn[id]?.at)], ["Pets", String(c.pets)],
            ["Orders", String(c.orders) + (c.lastOrderAt.map { ", the last \(minute($0))" } ?? "")],
            ["Open bookings", String(c.openBookings)], ["Unread messages", String(c.unread)],
            ["Last active", minute(state.lastActive[id]?.at)],
            ["Notifications off", c.notificationsOff.isEmpty ? "none" : c.notificationsOff.joined(separator: ", ")],
        ]
        return ViewOutput(
            title: "Customer \(id)", header: ["FIELD", "VALUE"], rows: rows,
            footer: ["see: view pets --owner \(id) | orders --customer \(id) | conversations --user \(id) | activity --user \(id)"],
            json: json(id, c, lastLogIn: state.lastLogIn[id]?.at, lastActive: state.lastActive[id]?.at))
    }

    static func json(_ id: String, _ c: CustomersProjection.Customer, lastLogIn: Timestamp? = nil, lastActive: Timestamp? = nil) -> JSONValue {
        .object([
            "userId": .string(id), "name": .string(c.name), "email": .string(c.email), "phone": .string(c.phone),
            "address": .string(c.address), "language": .string(c.language.rawValue), "role": .string(c.role),
            "deleted": .bool(c.deleted), "signedUpAt": Format.json(c.signedUpAt),
            "lastLogInAt": lastLogIn.map(Format.json) ?? .null, "pets": .int(c.pets), "orders": .int(c.orders),
            "lastOrderAt": c.lastOrderAt.map(Format.json) ?? .null, "openBookings": .int(c.openBookings),
            "unreadMessages": .int(c.unread), "lastActiveAt": lastActive.map(Format.json) ?? .null,
            "notificationsOff": .array(c.notificationsOff.map(JSONValue.string)),
        ])
    }
}
