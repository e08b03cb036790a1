public import Events

/// A booking as the outbox needs it: whose pet, which service, and its reminder while one is open.
public struct OutboxBooking: FieldCodable, Hashable, Sendable {
    public var petId: String
    public var ownerId: String
    public var service: GroomingService
    public var reminder: String

    public init(petId: String, ownerId: String, service: GroomingService, reminder: String = "") {
        self.petId = petId
        self.ownerId = ownerId
        self.service = service
        self.reminder = reminder
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        ownerId = try r.string("ownerId")
        service = try r.choice("service", GroomingService.self)
        reminder = try r.string("reminder")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("ownerId", ownerId)
        w.choice("service", service)
        w.string("reminder", reminder)
    }
}
