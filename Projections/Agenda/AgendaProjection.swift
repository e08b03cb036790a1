public import EventLog
public import Events

/// The shop's working day: each day's grooming bookings by slot (a group of a ``GroupedTable`` per UTC day of the
/// slot, a booking one row), and the vet requests still open (one group, a request one row). A reschedule to another
/// day moves the booking's row; a closed vet request leaves. Where each booking's row is, and each pet's name, are
/// tables the fold alone reads (newest version only).
public enum AgendaProjection: KeyedProjection {
    /// A booking as the agenda shows it.
    public struct Booking: FieldCodable, Hashable {
        public var petId: String
        public var petName: String
        public var ownerId: String
        public var service: GroomingService
        public var slot: Timestamp
        public var status: BookingStatus
        /// How long it takes, in minutes, and the groomers it needs (as booked).
        public var durationMinutes: Int64
        public var groomers: Int64

        public init(
            petId: String, petName: String, ownerId: String, service: GroomingService, slot: Timestamp, status: BookingStatus,
            durationMinutes: Int64 = 30, groomers: Int64 = 1
        ) {
            self.petId = petId
            self.petName = petName
            self.ownerId = ownerId
            self.service = service
            self.slot = slot
            self.status = status
            self.durationMinutes = durationMinutes
            self.groomers = groomers
        }

        /// Whether it holds groomers in `slot`: active or done (not cancelled, not a no-show) and covering it.
        public func holds(_ t: Timestamp) -> Bool {
            guard status != .cancelled && status != .noShow else { return false }
            let offset = t.microsecondsSinceEpoch - slot.microsecondsSinceEpoch
            return offset >= 0 && offset < durationMinutes * 60_000_000
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            petId = try r.string("petId")
            petName = try r.string("petName")
            ownerId = try r.string("ownerId")
            service = try r.choice("service", GroomingService.self)
            slot = try r.timestamp("slot")
            status = try r.choice("status", BookingStatus.self)
            durationMinutes = try r.int("durationMinutes")
            groomers = try r.int("groomers")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("petId", petId)
            w.string("petName", petName)
            w.string("ownerId", ownerId)
            w.choice("service", service)
            w.timestamp("slot", slot)
            w.choice("status", status)
            w.int("durationMinutes", durationMinutes)
            w.int("groomers", groomers)
        }
    }

    /// An open vet request.
    public struct VetRequest: FieldCodable, Hashable {
        public var petId: String
        public var petName: String
        public var ownerId: String
        public var urgency: VetUrgency
        public var preferredTime: Timestamp?
        public var submittedAt: Timestamp
        /// Whether the vet answered (it stays open until closed).
        public var answered: Bool

        public init(
            petId: String, petName: String, ownerId: String, urgency: VetUrgency, preferredTime: Timestamp?, submittedAt: Timestamp,
            answered: Bool = false
        ) {
            self.petId = petId
            self.petName = petName
            self.ownerId = ownerId
            self.urgency = urgency
            self.preferredTime = preferredTime
            self.submittedAt = submittedAt
            self.answered = answered
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            petId = try r.string("petId")
            petName = try r.string("petName")
            ownerId = try r.string("ownerId")
            urgency = try r.choice("urgency", VetUrgency.self)
            preferredTime = try r.optionalTimestamp("preferredTime")
            submittedAt = try r.timestamp("submittedAt")
            answered = try r.bool("answered")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("petId", petId)
            w.string("petName", petName)
            w.string("ownerId", ownerId)
            w.choice("urgency", urgency)
            w.optionalTimestamp("preferredTime", preferredTime)
            w.timestamp("submittedAt", submittedAt)
            w.bool("answered", answered)
        }
    }

    /// The group of the open vet requests.
    static let openGroup = "open"

    public struct State: KeyedProjectionState {
        /// Bookings: a group a business day of the slot (`YYYY-MM-DD`, in the business's time zone), a part a booking.
        public var bookings = GroupedTable<Booking>(id: 1)
        /// Open vet requests: one group, a part a request.
        public var vet = GroupedTable<VetRequest>(id: 2)
        /// Each booking's day, for the fold.
        public var bookingDay = KeyedTable<TextRow>(id: 3, history: .current)
        /// Each pet's name, for the fold.
        public var petName = KeyedTable<TextRow>(id: 4, history: .current)
        /// The salon's groomers on duty each slot, under the key `capacity`, every version kept (absent: the default).
        public var salon = KeyedTable<CountRow>(id: 5, history: .exact)

        /// The business's time zone under the key `timeZone` (absent: UTC), every version kept.
        public var settings = KeyedTable<TextRow>(id: 6, history: .exact)

        public init() {}

        /// Groomers on duty each slot.
        public var capacity: Int64 { salon["capacity"]?.count ?? SalonCapacitySet.defaultGroomers }

        /// The business's time zone, whose days the agenda lists.
        public var zone: BusinessTimeZone { settings.businessTimeZone }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            bookings = GroupedTable(id: 1, rows: try r.keyed("bookings", Booking.self))
            vet = GroupedTable(id: 2, rows: try r.keyed("vet", VetRequest.self))
            bookingDay = KeyedTable(id: 3, history: .current, rows: try r.keyed("bookingDay", TextRow.self))
            petName = KeyedTable(id: 4, history: .current, rows: try r.keyed("petName", TextRow.self))
            salon = KeyedTable(id: 5, history: .exact, rows: try r.keyed("salon", CountRow.self))
            settings = KeyedTable(id: 6, history: .exact, rows: try r.keyed("settings", TextRow.self))
        }

        public func write(to w: inout some FieldWriter) {
            w.keyed("bookings", bookings.entries)
            w.keyed("vet", vet.entries)
            w.keyed("bookingDay", bookingDay.entries)
            w.keyed("petName", petName.entries)
            w.keyed("salon", salon.entries)
            w.keyed("settings", settings.entries)
        }

        public mutating func visitTables<V: TableVisitor>(_ visitor: inout V) {
            visitor.visit(&bookings)
            visitor.visit(&vet)
            visitor.visit(&bookingDay)
            visitor.visit(&petName)
            visitor.visit(&salon)
            visitor.visit(&settings)
        }

        /// A day's bookings by slot, then booking id.
        public func bookings(on day: String) -> [(bookingId: String, booking: Booking)] {
            bookings.parts(of: day).map { (bookingId: $0.key, booking: $0.value) }.sorted {
                ($0.booking.slot, $0.bookingId) < ($1.booking.slot, $1.bookingId)
            }
        }

        /// The open vet requests, the most urgent first, then the oldest.
        public var openVetRequests: [(requestId: String, request: VetRequest)] {
            let rank: [VetUrgency: Int] = [.urgent: 0, .normal: 1, .low: 2]
            return vet.parts(of: openGroup).map { (requestId: $0.key, request: $0.value) }.sorted {
                (rank[$0.request.urgency]!, $0.request.submittedAt, $0.requestId) < (rank[$1.request.urgency]!, $1.request.submittedAt, $1.requestId)
            }
        }

        fileprivate mutating func update(_ bookingId: String, _ body: (inout Booking) -> Void) {
            guard let day = bookingDay[bookingId]?.text else { return }
            bookings.modify(group: day, part: bookingId) { b in
                guard b != nil else { return }
                body(&b!)
            }
        }
    }

    public static let name = "agenda"
    public static let schemaVersion = 4
    public static let foldCost = 60
    public static let summary = "Each day's grooming bookings by slot, and the vet requests still open."
    public static let eventTypes = types(
        BookingRequested.self, BookingConfirmed.self, BookingCompleted.self, BookingCancelled.self, BookingRescheduled.self,
        BookingNoShow.self, SalonCapacitySet.self, VetRequestSubmitted.self, VetRequestAnswered.self, VetRequestClosed.self, PetAdded.self, PetEdited.self,
        BusinessTimeZoneSet.self)

    public static func apply(_ state: inout State, _ e: ProjectedEvent) throws(ProjectionError) {
        switch e.typeID {
        case BookingRequested.typeID:
            let x = e.event as! BookingRequested
            let day = state.zone.day(x.slot)
            state.bookingDay[x.bookingId] = TextRow(day)
            state.bookings[day, x.bookingId] = Booking(
                petId: x.petId, petName: state.petName[x.petId]?.text ?? x.petId, ownerId: x.ownerId, service: x.service,
                slot: x.slot, status: .requested, durationMinutes: x.durationMinutes, groomers: x.groomers)
        case BookingConfirmed.typeID:
            state.update((e.event as! BookingConfirmed).bookingId) { $0.status = .confirmed }
        case BookingCompleted.typeID:
            state.update((e.event as! BookingCompleted).bookingId) { $0.status = .completed }
        case BookingCancelled.typeID:
            state.update((e.event as! BookingCancelled).bookingId) { $0.status = .cancelled }
        case BookingNoShow.typeID:
            state.update((e.event as! BookingNoShow).bookingId) { $0.status = .noShow }
        case BusinessTimeZoneSet.typeID:
            state.settings.keep(e.event as! BusinessTimeZoneSet)
        case SalonCapacitySet.typeID:
            state.salon["capacity"] = CountRow((e.event as! SalonCapacitySet).groomers)
        case BookingRescheduled.typeID:
            let x = e.event as! BookingRescheduled
            guard let from = state.bookingDay[x.bookingId]?.text, var booking = state.bookings[from, x.bookingId] else { return }
            let to = state.zone.day(x.slot)
            booking.slot = x.slot
            // A new slot needs confirming again, as the domain has it.
            booking.status = .requested
            if to != from {
                state.bookings[from, x.bookingId] = nil
                state.bookingDay[x.bookingId] = TextRow(to)
            }
            state.bookings[to, x.bookingId] = booking
        case VetRequestSubmitted.typeID:
            let x = e.event as! VetRequestSubmitted
            state.vet[openGroup, x.requestId] = VetRequest(
                petId: x.petId, petName: state.petName[x.petId]?.text ?? x.petId, ownerId: x.ownerId, urgency: x.urgency,
                preferredTime: x.preferredTime, submittedAt: e.occurredAt)
        case VetRequestAnswered.typeID:
            let x = e.event as! VetRequestAnswered
            state.vet.modify(group: openGroup, part: x.requestId) { r in if r != nil { r!.answered = true } }
        case VetRequestClosed.typeID:
            state.vet[openGroup, (e.event as! VetRequestClosed).requestId] = nil
        case PetAdded.typeID:
            let x = e.event as! PetAdded
            state.petName[x.petId] = TextRow(x.name)
        case PetEdited.typeID:
            let x = e.event as! PetEdited
            if let name = x.name { state.petName[x.petId] = TextRow(name) }
        default:
            return
        }
    }
}
