import EventLog
import Events
import PawtrailDomain
import Testing

/// One phone rule for every phone a command takes: a profile's, an order's recipient's and a vet clinic's phone
/// accept and refuse the same numbers, with the same reasons.
@Suite("Phone numbers")
struct PhoneRuleTests {
    static let samples: [(String, String?)] = [
        ("+880 1711-000000", nil), ("(02) 9876.5432", nil), ("017110000", nil), ("123456", nil), ("123456789012345", nil),
        ("12345", "'12345' has 5 digits; a phone number has 6 to 15"),
        ("1234567890123456", "'1234567890123456' has 16 digits; a phone number has 6 to 15"),
        ("12+3456789", "'12+3456789' is not a phone number; use digits, spaces, - . ( ) and an optional leading +"),
        ("০১৭১১০০০০০০", "'০১৭১১০০০০০০' is not a phone number; use digits, spaces, - . ( ) and an optional leading +"),
        ("call me", "'call me' is not a phone number; use digits, spaces, - . ( ) and an optional leading +"),
    ]

    @Test(arguments: samples) func theSameRuleForEveryPhone(_ phone: String, _ refusal: String?) async throws {
        let cleaned = phone
        if let refusal {
            #expect(throws: DomainError.invalid(field: "phone", reason: refusal)) { try Validate.phone(phone, field: "phone") }
            #expect(throws: DomainError.invalid(field: "recipientPhone", reason: refusal)) { try Validate.phone(phone, field: "recipientPhone") }
        } else {
            #expect(try Validate.phone(" \(phone) ", field: "phone") == cleaned)
        }
        // Through the commands that take one.
        let w = try await PetWorld.scenario()
        let profile = UpdateProfile(phone: phone)
        let vet = SetVet(petId: "rex", vetName: "V", clinic: "C", phone: phone)
        if let refusal {
            try await w.then(PetWorld.owner, profile, throws: .invalid(field: "phone", reason: refusal))
            try await w.then(PetWorld.owner, vet, throws: .invalid(field: "phone", reason: refusal))
        } else {
            #expect(try await w.when(PetWorld.owner, profile).count == 1)
            #expect(try await w.when(PetWorld.owner, vet).count == 1)
        }
    }

    @Test func anEmptyPhoneClearsAProfilesPhoneOnly() async throws {
        let w = try await PetWorld.scenario()
        try await w.then(
            PetWorld.owner, SetVet(petId: "rex", vetName: "V", clinic: "C", phone: " "),
            throws: .invalid(field: "phone", reason: "'' has 0 digits; a phone number has 6 to 15"))
        #expect(try Validate.phone(" ", field: "phone", allowEmpty: true) == "")
    }
}
