import BenchSupport
import EventLog
import Foundation

/// Builds the JSON data of one workload event: realistic pet-care fields (ids, names, prices in minor units
/// with a currency, ISO times, a few UUIDs, nested order lines), 150 to 600 bytes.
///
/// Every value comes from the workload's generator, so the bytes depend only on the seed.
enum PetCareData {
    /// The smallest and largest data size the workload produces; `build` guarantees both.
    static let sizeRange = 150...600

    private static let petNames = [
        "Biscuit", "Luna", "Miso", "Pepper", "Olive", "Tofu", "Bella", "Charlie", "Nala", "Mochi", "Ziggy",
        "Pumpkin", "Hazel", "Rocket", "Juniper", "Waffles",
    ]
    private static let species: [(String, [String])] = [
        ("dog", ["Beagle", "Labrador Retriever", "Border Collie", "Dachshund", "Mixed"]),
        ("cat", ["Maine Coon", "British Shorthair", "Siamese", "Domestic Shorthair"]),
        ("rabbit", ["Holland Lop", "Netherland Dwarf"]),
        ("bird", ["Budgerigar", "Cockatiel"]),
    ]
    private static let vaccines = [
        ("Rabies", "Zoetis"), ("DHPP", "Boehringer Ingelheim"), ("Leptospirosis", "MSD Animal Health"),
        ("FVRCP", "Elanco"), ("Bordetella", "Zoetis"),
    ]
    private static let services = ["grooming", "dog-walking", "pet-sitting", "boarding", "vet-visit", "training"]
    private static let products: [(sku: String, name: String, price: Int)] = [
        ("SKU-DOG-FOOD-12KG", "Grain-free adult dog food 12 kg", 5499),
        ("SKU-CAT-LITTER-10L", "Clumping cat litter 10 l", 1299),
        ("SKU-CHEW-BONE-M", "Natural chew bone, medium", 499),
        ("SKU-LEASH-NYLON-2M", "Nylon leash 2 m, reflective", 1899),
        ("SKU-CAT-TREE-XL", "Cat tree with scratching posts XL", 8999),
        ("SKU-BIRD-SEED-1KG", "Budgie seed mix 1 kg", 699),
        ("SKU-RABBIT-HAY-2KG", "Timothy hay 2 kg", 999),
        ("SKU-FLEA-SPOT-ON-3", "Flea and tick spot-on, 3 doses", 2450),
    ]
    private static let currencies = ["EUR", "EUR", "EUR", "GBP", "USD", "CHF"]
    private static let cities = [
        ("Berlin", "DE", "10115"), ("Hamburg", "DE", "20095"), ("Vienna", "AT", "1010"), ("Zurich", "CH", "8001"),
        ("Amsterdam", "NL", "1012"), ("Lyon", "FR", "69001"),
    ]
    private static let streets = ["Lindenstrasse", "Hauptstrasse", "Kastanienallee", "Rosenweg", "Am Markt"]
    private static let removeReasons = ["changed-mind", "found-cheaper", "wrong-size", "out-of-budget"]
    private static let warehouses = ["wh-berlin-2", "wh-hamburg-1", "wh-vienna-1"]
    private static let words = [
        "hi", "thanks", "walk", "tomorrow", "at", "the", "park", "she", "loves", "treats", "please", "bring",
        "leash", "vaccination", "booklet", "is", "in", "drawer", "see", "you", "around", "nine", "morning", "and",
        "he", "was", "very", "good", "today", "ate", "all", "his", "food",
    ]

    /// Builds the data of one event.
    ///
    /// - Parameters:
    ///   - type: The event type.
    ///   - streamNumber: The `<n>` of the event's stream (used as a domain id where the stream is the entity).
    ///   - at: The event's business time.
    ///   - rng: The workload's generator.
    /// - Returns: Compact JSON, `sizeRange` bytes long.
    static func build(_ type: WorkloadEventType, streamNumber: Int, at: Timestamp, rng: inout Xoshiro256StarStar)
        -> [UInt8]
    {
        var json = JSONBuffer()
        json.openObject()
        switch type {
        case .petAdded:
            let (kind, breeds) = rng.pick(species)
            json.field("petId", "pet-\(streamNumber)")
            json.field("ownerId", "user-\(rng.int(in: 1...5000))")
            json.field("name", rng.pick(petNames))
            json.field("species", kind)
            json.field("breed", rng.pick(breeds))
            json.field("birthDate", date(at, minusDays: rng.int(in: 60...5000)))
            json.field("sex", rng.chance(0.5) ? "female" : "male")
            json.field("neutered", rng.chance(0.6))
            json.field("microchipId", "9851120\(rng.int(in: 10_000_000...99_999_999))")
            json.field("registrationId", uuid(&rng))
            json.field("addedAt", at)
        case .petWeightLogged:
            json.field("recordId", uuid(&rng))
            json.field("petId", "pet-\(streamNumber)")
            json.field("weightGrams", rng.int(in: 40...45_000))
            json.field("measuredAt", at)
            json.field("measuredBy", "clinic-\(rng.int(in: 1...300))")
            json.field("method", rng.chance(0.7) ? "clinic-scale" : "home-scale")
            if rng.chance(0.4) { json.field("notes", sentence(&rng, words: rng.int(in: 3...25))) }
        case .vaccinationRecorded:
            let (vaccine, maker) = rng.pick(vaccines)
            json.field("petId", "pet-\(streamNumber)")
            json.field("vaccine", vaccine)
            json.field("manufacturer", maker)
            json.field("lotNumber", "L\(rng.int(in: 100_000...999_999))A")
            json.field("dose", rng.int(in: 1...3))
            json.field("administeredAt", at)
            json.field("validUntil", date(at, minusDays: -365 * rng.int(in: 1...3)))
            json.field("vetId", "vet-\(rng.int(in: 1...800))")
            json.field("clinicId", uuid(&rng))
        case .bookingRequested:
            let start = Timestamp(microsecondsSinceEpoch: at.microsecondsSinceEpoch + Int64(rng.int(in: 1...30)) * 86_400_000_000)
            let hours = rng.int(in: 1...72)
            json.field("bookingId", uuid(&rng))
            json.field("petId", "pet-\(rng.int(in: 1...2000))")
            json.field("ownerId", "user-\(rng.int(in: 1...5000))")
            json.field("service", rng.pick(services))
            json.field("sitterId", "sitter-\(rng.int(in: 1...400))")
            json.field("from", start)
            json.field("to", Timestamp(microsecondsSinceEpoch: start.microsecondsSinceEpoch + Int64(hours) * 3_600_000_000))
            json.field("priceMinor", hours * rng.int(in: 900...2500))
            json.field("currency", rng.pick(currencies))
            if rng.chance(0.5) { json.field("notes", sentence(&rng, words: rng.int(in: 4...20))) }
        case .bookingConfirmed:
            json.field("bookingId", "booking-\(streamNumber)")
            json.field("confirmedBy", "sitter-\(rng.int(in: 1...400))")
            json.field("confirmedAt", at)
            json.field("depositMinor", rng.int(in: 5...40) * 100)
            json.field("currency", rng.pick(currencies))
            json.field("paymentIntentId", uuid(&rng))
        case .cartItemAdded:
            let product = rng.pick(products)
            json.field("cartId", "cart-\(streamNumber)")
            json.field("lineId", uuid(&rng))
            json.field("sku", product.sku)
            json.field("productName", product.name)
            json.field("quantity", rng.int(in: 1...4))
            json.field("unitPriceMinor", product.price)
            json.field("currency", rng.pick(currencies))
            json.field("addedAt", at)
        case .cartItemRemoved:
            json.field("cartId", "cart-\(streamNumber)")
            json.field("lineId", uuid(&rng))
            json.field("sku", rng.pick(products).sku)
            json.field("quantity", rng.int(in: 1...2))
            json.field("reason", rng.pick(removeReasons))
            json.field("removedAt", at)
        case .orderPlaced:
            json.field("orderId", uuid(&rng))
            json.field("customerId", "user-\(rng.int(in: 1...5000))")
            let currency = rng.pick(currencies)
            var subtotal = 0
            json.key("items")
            json.openArray()
            for _ in 0..<rng.int(in: 1...3) {
                let product = rng.pick(products)
                let quantity = rng.int(in: 1...3)
                subtotal += quantity * product.price
                json.openObject()
                json.field("sku", product.sku)
                json.field("quantity", quantity)
                json.field("unitPriceMinor", product.price)
                json.closeObject()
            }
            json.closeArray()
            let shipping = subtotal >= 4900 ? 0 : 495
            json.field("subtotalMinor", subtotal)
            json.field("shippingMinor", shipping)
            json.field("totalMinor", subtotal + shipping)
            json.field("currency", currency)
            let (city, country, postal) = rng.pick(cities)
            json.key("shippingAddress")
            json.openObject()
            json.field("street", "\(rng.pick(streets)) \(rng.int(in: 1...180))")
            json.field("city", city)
            json.field("postalCode", postal)
            json.field("country", country)
            json.closeObject()
            json.field("placedAt", at)
        case .stockReserved:
            json.field("reservationId", uuid(&rng))
            json.field("orderId", uuid(&rng))
            json.field("sku", rng.pick(products).sku)
            json.field("warehouse", rng.pick(warehouses))
            json.field("quantity", rng.int(in: 1...6))
            json.field("reservedAt", at)
            json.field("expiresAt", Timestamp(microsecondsSinceEpoch: at.microsecondsSinceEpoch + 900_000_000))
        case .messageSent:
            json.field("messageId", uuid(&rng))
            json.field("conversationId", "conversation-\(streamNumber)")
            json.field("from", "user-\(rng.int(in: 1...5000))")
            json.field("to", "sitter-\(rng.int(in: 1...400))")
            json.field("body", sentence(&rng, words: rng.int(in: 3...60)))
            json.field("sentAt", at)
        }
        json.closeObject()
        var bytes = json.bytes
        // The field sets above are sized so that no event falls short of 150 bytes; only free text can exceed 600.
        if bytes.count > sizeRange.upperBound {
            // Only free text can overflow: drop the excess from the body's end (the text is ASCII words).
            let excess = bytes.count - sizeRange.upperBound
            let tail = Array(bytes.suffix(from: bytes.count - 1))
            var head = Array(bytes.prefix(bytes.count - 1))
            if let body = stringValue(in: head, key: "\"body\":"), body.count > excess {
                head.removeSubrange((body.upperBound - excess)..<body.upperBound)
                bytes = head + tail
            }
        }
        precondition(sizeRange.contains(bytes.count), "workload event of \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))")
        return bytes
    }

    /// A random v4 UUID from the generator.
    static func uuid(_ rng: inout Xoshiro256StarStar) -> UUID {
        let a = rng.next()
        let b = rng.next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * UInt64(i)))
        }
        return makeUUID(bytes)
    }

    /// A v4 UUID from 16 bytes (version and variant bits set).
    static func makeUUID(_ raw: [UInt8]) -> UUID {
        var b = raw
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    private static func sentence(_ rng: inout Xoshiro256StarStar, words count: Int) -> String {
        var text = ""
        for i in 0..<count {
            if i > 0 { text += " " }
            text += rng.pick(words)
        }
        return text
    }

    private static func date(_ at: Timestamp, minusDays days: Int) -> String {
        let t = Timestamp(microsecondsSinceEpoch: at.microsecondsSinceEpoch - Int64(days) * 86_400_000_000)
        return String(t.iso8601.prefix(10))
    }

    /// The byte range of the (escape-free) string value after the last occurrence of `key`, quotes excluded.
    private static func stringValue(in bytes: [UInt8], key: String) -> Range<Int>? {
        let k = Array(key.utf8)
        guard bytes.count > k.count else { return nil }
        for start in stride(from: bytes.count - k.count, through: 0, by: -1) where bytes[start..<(start + k.count)].elementsEqual(k) {
            let open = start + k.count
            guard open < bytes.count, bytes[open] == UInt8(ascii: "\"") else { return nil }
            var close = open + 1
            while close < bytes.count && bytes[close] != UInt8(ascii: "\"") { close += 1 }
            return close < bytes.count ? (open + 1)..<close : nil
        }
        return nil
    }
}
