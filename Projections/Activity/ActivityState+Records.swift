public import EventLog
public import Events

/// The records the activity history keeps beside each user's entries, to attribute events that name only a
/// booking, order, pet or conversation to its owner, with the names the words need.
extension ActivityState {
    /// A pet: its owner, its name now, and the titles of its open health issues and active treatments (by id), so
    /// resolving or ending one can name it.
    public struct Pet: FieldCodable, Hashable {
        public var owner: String
        public var name: String
        public var issues: [String: String]
        public var plans: [String: String]

        public init(owner: String, name: String, issues: [String: String] = [:], plans: [String: String] = [:]) {
            self.owner = owner
            self.name = name
            self.issues = issues
            self.plans = plans
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            owner = try r.string("owner")
            name = try r.string("name")
            issues = try r.keyed("issues", Label.self).mapValues(\.text)
            plans = try r.keyed("plans", Label.self).mapValues(\.text)
        }

        public func write(to w: inout some FieldWriter) {
            w.string("owner", owner)
            w.string("name", name)
            w.keyed("issues", issues.mapValues(Label.init))
            w.keyed("plans", plans.mapValues(Label.init))
        }
    }

    /// An open booking: its owner and what its entries say.
    public struct Booking: FieldCodable, Hashable {
        public var owner: String
        public var petId: String
        public var petName: String
        public var service: String
        public var slot: Timestamp

        public init(owner: String, petId: String, petName: String, service: String, slot: Timestamp) {
            self.owner = owner
            self.petId = petId
            self.petName = petName
            self.service = service
            self.slot = slot
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            owner = try r.string("owner")
            petId = try r.string("petId")
            petName = try r.string("petName")
            service = try r.string("service")
            slot = try r.timestamp("slot")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("owner", owner)
            w.string("petId", petId)
            w.string("petName", petName)
            w.string("service", service)
            w.timestamp("slot", slot)
        }
    }

    /// Something owned by a user: an open vet request (with its pet's name) or an order not yet finished.
    public struct Owned: FieldCodable, Hashable {
        public var owner: String
        public var name: String

        public init(owner: String, name: String = "") {
            self.owner = owner
            self.name = name
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            owner = try r.string("owner")
            name = try r.string("name")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("owner", owner)
            w.string("name", name)
        }
    }

    /// A conversation: the customer it belongs to and what it is about.
    public struct Conversation: FieldCodable, Hashable {
        public var owner: String
        public var subject: String
        public var subjectId: String

        public init(owner: String, subject: String, subjectId: String) {
            self.owner = owner
            self.subject = subject
            self.subjectId = subjectId
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            owner = try r.string("owner")
            subject = try r.string("subject")
            subjectId = try r.string("subjectId")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("owner", owner)
            w.string("subject", subject)
            w.string("subjectId", subjectId)
        }
    }

    /// A string as a record, for dictionaries of names.
    public struct Label: FieldCodable, Hashable {
        public var text: String

        public init(_ text: String) {
            self.text = text
        }

        public init(reading r: inout some FieldReader) throws(FieldError) {
            text = try r.string("text")
        }

        public func write(to w: inout some FieldWriter) {
            w.string("text", text)
        }
    }
}
