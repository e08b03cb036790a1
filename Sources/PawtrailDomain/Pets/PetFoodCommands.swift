public import EventLog
public import Events

// The food hub of a pet: its food plan and weight log. Only the pet's owner issues these, while the pet is not
// removed.

/// `pet.set-food-plan`: set the pet's food, portion and feeding times, replacing the earlier plan.
public struct SetFoodPlan: PetCommand, Hashable {
    public static let name = "pet.set-food-plan"
    public static let summary = "Set your pet's food, portion in grams and feeding times of day (HH:MM, 1 to 8)."

    public var petId: String
    public var food: String
    public var portionGrams: Int64
    /// Times of day as `HH:MM`, in any order; duplicates count once.
    public var feedingTimes: [String]

    public init(petId: String, food: String, portionGrams: Int64, feedingTimes: [String]) {
        self.petId = petId
        self.food = food
        self.portionGrams = portionGrams
        self.feedingTimes = feedingTimes
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        food = try r.string("food")
        portionGrams = try r.int("portionGrams")
        feedingTimes = try r.strings("feedingTimes")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.string("food", food)
        w.int("portionGrams", portionGrams)
        w.strings("feedingTimes", feedingTimes)
    }

    /// The pure decision: the event holds the times sorted and distinct; the same plan again appends nothing.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        let cleanFood = try Validate.text(food, field: "food", max: 100)
        try Validate.quantity(portionGrams, field: "portionGrams", min: 1, max: PetRules.maxPortionGrams)
        let times = try PetRules.feedingTimes(feedingTimes)
        try pet.checkActive(petId, actor: context.actor)
        let event = FoodPlanSet(petId: petId, food: cleanFood, portionGrams: portionGrams, feedingTimes: times)
        guard pet.foodPlan != event else { return .nothing }
        return .append(Streams.pet(petId), event)
    }
}

/// `pet.log-weight`: add a weighing to the pet's weight log.
public struct LogWeight: PetCommand, Hashable {
    public static let name = "pet.log-weight"
    public static let summary = "Log your pet's weight in grams, measured now or at a past time."

    public var petId: String
    public var weightGrams: Int64
    /// When it was measured; the command's clock when absent.
    public var measuredAt: Timestamp?

    public init(petId: String, weightGrams: Int64, measuredAt: Timestamp? = nil) {
        self.petId = petId
        self.weightGrams = weightGrams
        self.measuredAt = measuredAt
    }

    public init(reading r: inout some FieldReader) throws(FieldError) {
        petId = try r.string("petId")
        weightGrams = try r.int("weightGrams")
        measuredAt = try r.optionalTimestamp("measuredAt")
    }

    public func write(to w: inout some FieldWriter) {
        w.string("petId", petId)
        w.int("weightGrams", weightGrams)
        w.optionalTimestamp("measuredAt", measuredAt)
    }

    /// The pure decision; the same weight at the same time again is a re-send and appends nothing.
    public func decide(_ context: DecisionContext, pet: PetState) throws(DomainError) -> Decision {
        try PetRules.weight(weightGrams)
        let at = measuredAt ?? context.now
        try PetRules.notFuture(at, field: "measuredAt", now: context.now)
        try pet.checkActive(petId, actor: context.actor)
        guard !pet.weighings.contains(PetState.Weighing(weightGrams: weightGrams, measuredAt: at)) else { return .nothing }
        return .append(Streams.pet(petId), WeightLogged(petId: petId, weightGrams: weightGrams, measuredAt: at))
    }
}
