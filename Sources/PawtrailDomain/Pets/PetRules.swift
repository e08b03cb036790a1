public import EventLog

/// The field rules of the pets area, shared by its commands; each failure is a
/// ``DomainError/invalid(field:reason:)`` naming the field.
public enum PetRules {
    /// The heaviest pet the business expects, in grams: anything above is a typo (a weight in milligrams).
    public static let maxWeightGrams: Int64 = 200_000
    /// The oldest age in months accepted (100 years: parrots and tortoises live long).
    public static let maxAgeMonths: Int64 = 1_200
    /// The largest portion in grams.
    public static let maxPortionGrams: Int64 = 10_000
    /// How many feeding times a food plan holds at most.
    public static let maxFeedingTimes = 8

    /// A weight in grams: positive and at most ``maxWeightGrams``.
    public static func weight(_ grams: Int64, field: String = "weightGrams") throws(DomainError) {
        try Validate.quantity(grams, field: field, min: 1, max: maxWeightGrams)
    }

    /// An age in months: 0 to ``maxAgeMonths``.
    public static func age(_ months: Int64) throws(DomainError) {
        try Validate.quantity(months, field: "ageMonths", min: 0, max: maxAgeMonths)
    }

    /// A time that has happened already: at or before the command's clock.
    public static func notFuture(_ value: Timestamp, field: String, now: Timestamp) throws(DomainError) {
        guard value <= now else {
            throw .invalid(field: field, reason: "\(value.iso8601) is in the future of the command's clock (\(now.iso8601))")
        }
    }

    /// A birth date or an age in months, not both (a pet has one or the other).
    public static func birthDateOrAge(_ birthDate: Timestamp?, _ ageMonths: Int64?, now: Timestamp) throws(DomainError) {
        if birthDate != nil && ageMonths != nil {
            throw .invalid(field: "ageMonths", reason: "give a birth date or an age in months, not both")
        }
        if let birthDate { try notFuture(birthDate, field: "birthDate", now: now) }
        if let ageMonths { try age(ageMonths) }
    }

    /// Feeding times of day: each `HH:MM` from 00:00 to 23:59; 1 to ``maxFeedingTimes`` distinct ones.
    ///
    /// - Returns: The times, sorted and without duplicates.
    public static func feedingTimes(_ times: [String]) throws(DomainError) -> [String] {
        for t in times {
            let b = Array(t.utf8)
            func digit(_ i: Int) -> Int? { b[i] >= 48 && b[i] <= 57 ? Int(b[i] - 48) : nil }
            guard b.count == 5, b[2] == UInt8(ascii: ":"), let h1 = digit(0), let h2 = digit(1), let m1 = digit(3),
                digit(4) != nil, h1 * 10 + h2 < 24, m1 < 6
            else {
                throw .invalid(field: "feedingTimes", reason: "'\(t)' is not a time of day as HH:MM (00:00 to 23:59)")
            }
        }
        // "HH:MM" sorts as text in time order.
        let distinct = Array(Set(times)).sorted()
        guard (1...maxFeedingTimes).contains(distinct.count) else {
            throw .invalid(
                field: "feedingTimes", reason: "give 1 to \(maxFeedingTimes) distinct feeding times, got \(distinct.count)")
        }
        return distinct
    }
}
