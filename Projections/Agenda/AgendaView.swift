import EventLog
import Events
import PawtrailJSON

/// `pawtrail view agenda [--day YYYY-MM-DD]`: one business day's (in the business's time zone) grooming bookings by slot, with pet, owner, service,
/// status and the salon's groomers in use at the booking's start of those on duty (cancelled bookings are left out
/// and counted in the footer; a no-show holds no groomer), then the vet requests open at the moment viewed, the most
/// urgent first. Without `--day`, the day of `--now`.
public enum AgendaView: ProjectionView {
    public typealias Source = AgendaProjection
    public static let name = "agenda"
    public static let summary = "A day's grooming bookings by slot, and the vet requests still open."
    public static let options = [
        ViewOption("day", "YYYY-MM-DD", help: "The business day (in the shop's time zone).", default: "the day of --now"),
        ViewOption("now", "time", help: "A moment whose business day to show, when --day is not given (UTC ISO-8601)."),
    ]

    public static func audience(_ state: AgendaProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func render(_ state: AgendaProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let asked = try arguments.day("day")
        let now = try arguments.now(default: nil)
        let zone = state.zone
        guard let day = asked ?? now.map(zone.day) else { throw .missing("day") }
        let all = state.bookings(on: day)
        let active = all.filter { $0.booking.status != .cancelled }
        // Bookings of the day before may run into this one.
        let before = Format.date(dayNumber: Format.dayNumber(Timestamp(iso8601: day) ?? Timestamp(microsecondsSinceEpoch: 0)) - 1)
        let covering = state.bookings(on: before).map(\.booking) + active.map(\.booking)
        let capacity = state.capacity
        let slots = Set(active.map(\.booking.slot))
        // Groomers in use at each slot of the day, counted once a slot: a busy day has hundreds of bookings in a few
        // dozen slots, and counting again for every booking grew with the square of the day's bookings.
        var inUse: [Timestamp: Int64] = [:]
        for t in slots { inUse[t] = covering.reduce(0) { $1.holds(t) ? $0 + $1.groomers : $0 } }
        func used(_ t: Timestamp) -> Int64 { inUse[t] ?? 0 }
        var rows: [[String]] = []
        var bookings: [JSONValue] = []
        for (id, b) in active {
            rows.append([
                "grooming", zone.clock(b.slot), id, "\(b.petName) (\(b.petId))", b.ownerId,
                b.service.rawValue, b.status.rawValue, "\(used(b.slot))/\(capacity)",
            ])
            bookings.append(
                .object([
                    "bookingId": .string(id), "slot": Format.json(b.slot), "petId": .string(b.petId), "petName": .string(b.petName),
                    "ownerId": .string(b.ownerId), "service": .string(b.service.rawValue), "status": .string(b.status.rawValue),
                    "durationMinutes": .int(b.durationMinutes), "groomers": .int(b.groomers), "groomersInUse": .int(used(b.slot)),
                    "groomersOnDuty": .int(capacity),
                ]))
        }
        let vet = state.openVetRequests
        var requests: [JSONValue] = []
        for (id, r) in vet {
            let preferred = r.preferredTime.map { zone.day($0) == day ? zone.clock($0) : zone.day($0) } ?? ""
            rows.append([
                "vet", preferred, id, "\(r.petName) (\(r.petId))", r.ownerId, r.urgency.rawValue, r.answered ? "answered" : "submitted", "",
            ])
            requests.append(
                .object([
                    "requestId": .string(id), "petId": .string(r.petId), "petName": .string(r.petName), "ownerId": .string(r.ownerId),
                    "urgency": .string(r.urgency.rawValue), "preferredTime": r.preferredTime.map(Format.json) ?? .null,
                    "submittedAt": Format.json(r.submittedAt), "answered": .bool(r.answered),
                ]))
        }
        let cancelled = all.count - active.count
        return ViewOutput(
            title: "Agenda of \(day)",
            header: ["KIND", "TIME", "ID", "PET", "OWNER", "SERVICE/URGENCY", "STATUS", "GROOMERS"], rows: rows, rightAligned: [7],
            footer: [
                "Times in \(zone); \(active.count) booking\(active.count == 1 ? "" : "s") in \(slots.count) slot\(slots.count == 1 ? "" : "s")"
                    + (cancelled > 0 ? " (\(cancelled) cancelled)" : "") + ", \(vet.count) open vet request\(vet.count == 1 ? "" : "s") · groomers in use at each booking's start, of \(capacity) on duty"
            ],
            json: .object(["day": .string(day), "timeZone": .string(zone.identifier), "bookings": .array(bookings), "openVetRequests": .array(requests)]))
    }
}
