public import EventLog
import Events
import PawtrailJSON

/// `pawtrail view pet --id ID [--now TIME] [--trend N]`: one pet's profile, health, food plan, weight trend,
/// bookings with their upcoming reminders, and vet requests.
///
/// What "now" decides (default: the business time of the last event folded):
/// - a vaccination is **due soon** when its next dose is due at most ``dueSoonDays`` days after now (the edge
///   included), and **overdue** when it was due before now; overdue ones are listed with the due ones, since an
///   owner needs them most;
/// - a treatment is listed while it is not ended and now is before its end date; one whose start date is after
///   now is marked planned;
/// - a reminder is **upcoming** when its booking is confirmed and the reminder is due at or after now (nothing in
///   the log says a reminder was sent, so one due this very moment is still to come);
/// - the next vet appointment is marked past when it is before now.
public enum PetView: ProjectionView {
    public typealias Source = PetsProjection
    public static let name = "pet"
    public static let summary = "One pet: profile, health (what is due soon), food plan, weight trend, bookings and reminders, vet requests."
    public static let options = [
        ViewOption("id", "pet", help: "The pet.", required: true),
        PetCareText.nowOption,
        ViewOption("trend", "n", help: "How many of the latest weighings the weight change is measured over.", default: "5"),
    ]

    /// How many days ahead a vaccination counts as due soon.
    public static let dueSoonDays: Int64 = 30

    /// Whether a vaccination is due at a moment: `overdue`, `soon`, or `nil` (not due within ``dueSoonDays``).
    public static func due(_ v: PetsProjection.Vaccination, at now: Timestamp) -> String? {
        guard let next = v.nextDue else { return nil }
        if next < now { return "overdue" }
        let horizon = Timestamp(microsecondsSinceEpoch: now.microsecondsSinceEpoch + dueSoonDays * 86_400_000_000)
        return next <= horizon ? "soon" : nil
    }

    public static func audience(_ state: PetsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        let id = try arguments.required("id")
        return state.pets[id].map { .userAndStaff($0.ownerId) } ?? .staff
    }

    public static func render(_ state: PetsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let id = try arguments.required("id")
        guard let pet = state.pets[id] else { throw .notFound("no pet '\(id)'") }
        let now = try arguments.now(default: state.lastEventAt) ?? Timestamp(microsecondsSinceEpoch: 0)
        let trendCount = Int(try arguments.int("trend", default: 5, range: 2...1000))
        var rows: [[String]] = []

        // Profile.
        let ageMonths: Int64? =
            if let born = pet.birthDate {
                max(0, PetCareText.months(from: born, to: now))
            } else if let given = pet.ageMonths {
                max(0, given + PetCareText.months(from: pet.ageGivenAt ?? now, to: now))
            } else {
                nil
            }
        rows.append(["profile", "name", pet.name])
        rows.append(["profile", "owner", pet.ownerId])
        rows.append(["profile", "species", pet.species.rawValue])
        if let breed = pet.breed { rows.append(["profile", "breed", breed]) }
        if let ageMonths {
            let source =
                if let born = pet.birthDate {
                    "born \(Format.day(born))"
                } else {
                    "\(pet.ageMonths ?? 0) months on \(Format.day(pet.ageGivenAt ?? now))"
                }
            rows.append(["profile", "age", "\(PetCareText.age(months: ageMonths)) (\(source))"])
        }
        if let grams = pet.weightGrams { rows.append(["profile", "weight", PetCareText.kilograms(grams)]) }
        rows.append(["profile", "status", pet.removed ? "removed" : "active"])

        // Health: every vaccination, soonest due first, with what is due marked.
        let far = Timestamp(microsecondsSinceEpoch: .max)
        let vaccinations = pet.vaccinations.sorted { ($0.value.nextDue ?? far, $0.key) < ($1.value.nextDue ?? far, $1.key) }
        var vaccinationsJSON: [JSONValue] = []
        var dueJSON: [JSONValue] = []
        for (vaccine, v) in vaccinations {
            let due = Self.due(v, at: now)
            let next = v.nextDue.map { "next due \(Format.day($0))" } ?? "no further dose"
            let mark = due.map { $0 == "soon" ? " (due soon)" : " (overdue)" } ?? ""
            rows.append(["vaccination", vaccine, "last given \(Format.day(v.lastGiven)), \(next)\(mark)"])
            vaccinationsJSON.append(
                .object([
                    "vaccine": .string(vaccine), "lastGiven": Format.json(v.lastGiven), "nextDue": PetCareText.json(v.nextDue),
                    "doses": .int(v.doses), "due": .string(due),
                ]))
            if let due, let next = v.nextDue {
                dueJSON.append(.object(["vaccine": .string(vaccine), "nextDue": Format.json(next), "overdue": .bool(due == "overdue")]))
            }
        }

        let issues = pet.openIssues.sorted { ($0.value.openedAt, $0.key) < ($1.value.openedAt, $1.key) }
        for (_, issue) in issues {
            rows.append(["open issue", issue.title, "opened \(Format.day(issue.openedAt))" + (issue.notes.map { ": \($0)" } ?? "")])
        }

        let treatments = pet.treatments.filter { $0.value.isCurrent(at: now) }
            .sorted { ($0.value.startDate, $0.key) < ($1.value.startDate, $1.key) }
        for (_, t) in treatments {
            let period = t.endDate.map { "\(Format.day(t.startDate)) to \(Format.day($0))" } ?? "from \(Format.day(t.startDate))"
            let planned = t.startDate > now ? " (planned)" : ""
            rows.append(["treatment", t.name, "\(t.kind.rawValue), \(t.dosage), \(t.schedule); \(period)\(planned)"])
        }

        if let vet = pet.vet {
            rows.append(["vet", vet.vetName, vet.clinic + (vet.phone.map { ", \($0)" } ?? "")])
        }
        if let appointment = pet.nextVetAppointment {
            let detail = [appointment.reason, appointment.at < now ? "(past)" : nil].compactMap { $0 }.joined(separator: " ")
            rows.append(["vet appointment", PetCareText.minute(appointment.at), detail])
        }

        if let plan = pet.foodPlan {
            rows.append(["food plan", plan.food, "\(plan.portionGrams) g at \(plan.feedingTimes.joined(separator: ", "))"])
        }

        // The weight log in time order (the order logged breaks ties), and the change over the latest entries.
        let weighings = pet.weighings.enumerated()
            .sorted { ($0.element.measuredAt, $0.offset) < ($1.element.measuredAt, $1.offset) }.map(\.element)
        for w in weighings {
            rows.append(["weight", PetCareText.minute(w.measuredAt), PetCareText.kilograms(w.weightGrams)])
        }
        let window = weighings.suffix(trendCount)
        var trendJSON: JSONValue = .null
        if let first = window.first, let last = window.last, window.count >= 2 {
            let change = last.weightGrams - first.weightGrams
            let days = PetCareText.days(from: first.measuredAt, to: last.measuredAt)
            rows.append([
                "weight trend", "last \(window.count) weighings",
                "\(PetCareText.kilograms(change, signed: true)) over \(days) day\(days == 1 ? "" : "s")",
            ])
            trendJSON = .object([
                "entries": .int(Int64(window.count)), "from": Format.json(first.measuredAt), "to": Format.json(last.measuredAt),
                "changeGrams": .int(change), "days": .int(days),
            ])
        }

        // Bookings by slot; reminders of confirmed bookings still to come.
        let bookings = pet.bookingIds.compactMap { id in state.bookings[id].map { (key: id, value: $0) } }
            .sorted { ($0.value.slot, $0.key) < ($1.value.slot, $1.key) }
        for (bookingId, b) in bookings {
            rows.append(["booking", bookingId, "\(b.service.rawValue) on \(PetCareText.minute(b.slot)), \(b.status.rawValue)"])
        }
        let reminders = bookings.compactMap { entry -> (String, PetsProjection.Booking, Timestamp)? in
            guard entry.value.status == .confirmed, let due = entry.value.reminderDueAt, due >= now else { return nil }
            return (entry.key, entry.value, due)
        }.sorted { ($0.2, $0.0) < ($1.2, $1.0) }
        for (bookingId, b, due) in reminders {
            rows.append(["reminder", bookingId, "due \(PetCareText.minute(due)) for \(b.service.rawValue) on \(PetCareText.minute(b.slot))"])
        }

        let requests = pet.vetRequestIds.compactMap { id in state.vetRequests[id].map { (key: id, value: $0) } }
            .sorted { ($0.value.submittedAt, $0.key) < ($1.value.submittedAt, $1.key) }
        for (requestId, r) in requests {
            let answers = r.answers == 0 ? "" : " (\(r.answers) answer\(r.answers == 1 ? "" : "s"))"
            rows.append(["vet request", requestId, "\(r.status.rawValue)\(answers), \(r.urgency.rawValue): \(r.symptoms)"])
        }

        let json: JSONValue = .object([
            "petId": .string(id), "ownerId": .string(pet.ownerId), "name": .string(pet.name),
            "species": .string(pet.species.rawValue), "breed": .string(pet.breed), "birthDate": PetCareText.json(pet.birthDate),
            "ageMonths": PetCareText.json(ageMonths), "weightGrams": PetCareText.json(pet.weightGrams),
            "removed": .bool(pet.removed), "now": Format.json(now),
            "health": .object([
                "vaccinations": .array(vaccinationsJSON),
                "vaccinationsDue": .array(dueJSON),
                "openIssues": .array(
                    issues.map {
                        .object([
                            "issueId": .string($0.key), "title": .string($0.value.title), "notes": .string($0.value.notes),
                            "openedAt": Format.json($0.value.openedAt),
                        ])
                    }),
                "activeTreatments": .array(
                    treatments.map {
                        .object([
                            "planId": .string($0.key), "kind": .string($0.value.kind.rawValue), "name": .string($0.value.name),
                            "dosage": .string($0.value.dosage), "schedule": .string($0.value.schedule),
                            "startDate": Format.json($0.value.startDate), "endDate": PetCareText.json($0.value.endDate),
                            "planned": .bool($0.value.startDate > now),
                        ])
                    }),
                "vet": pet.vet.map {
                    .object(["vetName": .string($0.vetName), "clinic": .string($0.clinic), "phone": .string($0.phone)])
                } ?? .null,
                "nextVetAppointment": pet.nextVetAppointment.map {
                    .object(["at": Format.json($0.at), "reason": .string($0.reason), "past": .bool($0.at < now)])
                } ?? .null,
            ]),
            "foodPlan": pet.foodPlan.map {
                .object([
                    "food": .string($0.food), "portionGrams": .int($0.portionGrams),
                    "feedingTimes": .array($0.feedingTimes.map { .string($0) }),
                ])
            } ?? .null,
            "weight": .object([
                "entries": .array(weighings.map { .object(["measuredAt": Format.json($0.measuredAt), "weightGrams": .int($0.weightGrams)]) }),
                "trend": trendJSON,
            ]),
            "bookings": .array(
                bookings.map {
                    .object([
                        "bookingId": .string($0.key), "service": .string($0.value.service.rawValue), "slot": Format.json($0.value.slot),
                        "status": .string($0.value.status.rawValue), "reminderDueAt": PetCareText.json($0.value.reminderDueAt),
                    ])
                }),
            "upcomingReminders": .array(
                reminders.map { .object(["bookingId": .string($0.0), "dueAt": Format.json($0.2), "slot": Format.json($0.1.slot)]) }),
            "vetRequests": .array(
                requests.map {
                    .object([
                        "requestId": .string($0.key), "status": .string($0.value.status.rawValue),
                        "urgency": .string($0.value.urgency.rawValue), "symptoms": .string($0.value.symptoms),
                        "preferredTime": PetCareText.json($0.value.preferredTime), "submittedAt": Format.json($0.value.submittedAt),
                        "answers": .int($0.value.answers), "lastAnswer": .string($0.value.lastAnswer),
                    ])
                }),
        ])
        return ViewOutput(
            title: "Pet \(id): \(pet.name)" + (pet.removed ? " (removed)" : ""),
            header: ["SECTION", "ITEM", "DETAIL"], rows: rows,
            footer: ["now \(now.iso8601Compact); vaccinations due within \(dueSoonDays) days are marked"], json: json)
    }
}

/// `pawtrail view pets --owner ID`: an owner's pets, removed ones marked.
public enum OwnerPetsView: ProjectionView {
    public typealias Source = PetsProjection
    public static let name = "pets"
    public static let summary = "An owner's pets by name, removed ones marked."
    public static let options = [ViewOption("owner", "user", help: "The owner.", required: true)]

    public static func audience(_ state: PetsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .userAndStaff(try arguments.required("owner"))
    }

    public static func render(_ state: PetsProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let owner = try arguments.required("owner")
        let pets = (state.byOwner[owner]?.ids ?? []).compactMap { id in state.pets[id].map { (key: id, value: $0) } }
            .sorted { ($0.value.name, $0.key) < ($1.value.name, $1.key) }
        let removed = pets.count { $0.value.removed }
        return ViewOutput(
            title: "Pets of \(owner)",
            header: ["PET", "NAME", "SPECIES", "BREED", "ADDED", "STATUS"],
            rows: pets.map {
                [$0.key, $0.value.name, $0.value.species.rawValue, $0.value.breed ?? "", Format.day($0.value.addedAt), $0.value.removed ? "removed" : "active"]
            },
            footer: ["\(pets.count) pet\(pets.count == 1 ? "" : "s")" + (removed == 0 ? "" : ", \(removed) removed")],
            json: .array(
                pets.map {
                    .object([
                        "petId": .string($0.key), "name": .string($0.value.name), "species": .string($0.value.species.rawValue),
                        "breed": .string($0.value.breed), "addedAt": Format.json($0.value.addedAt), "removed": .bool($0.value.removed),
                    ])
                }))
    }
}

