import BenchSupport
import Events

/// What the simulation remembers of a customer: enough to keep their commands valid.
struct Customer {
    var id: String
    var name: String
    var email: String
    var language: Language
    var deleted = false
    /// Sessions opened and not logged out (the latest few).
    var sessions: [String] = []
    /// The session of the visit under way.
    var currentSession: String?
    var pets: [Int] = []
    var cart: [CartLine] = []
    var favourites: [Int] = []
    /// Orders that may still be cancelled by the customer (pruned lazily).
    var openOrders: [Int] = []
    /// Bookings that may still be moved or cancelled (pruned lazily).
    var activeBookings: [Int] = []
    var conversations: [Int] = []
    /// Recent bookings, vet requests and orders: what a conversation may be about.
    var subjects: [(kind: ConversationSubject, id: String)] = []
    var imageCount = 0
    var emailChanges = 0
}

struct CartLine {
    var product: Int
    var quantity: Int64
}

struct Product {
    var id: String
    var name: String
    var category: String
    var imageRef: String
    var tags: [String]
    var price: Int64
    var compareAt: Int64?
    var listed = true
    var onHand: Int64 = 0
    var reserved: Int64 = 0

    var available: Int64 { onHand - reserved }
    var money: Money { Money(price, "BDT") }

    func line(_ quantity: Int64) -> PurchaseLine {
        PurchaseLine(
            productId: id, name: name, category: category, imageRef: imageRef, unitPrice: money, quantity: quantity,
            lineTotal: Money(price * quantity, "BDT"))
    }
}

enum OrderStatus {
    case placed, confirmed, shipped, delivered, cancelled
}

struct Order {
    var id: String
    var customer: Int
    var lines: [CartLine]
    var status: OrderStatus = .placed
}

struct Pet {
    var id: String
    var owner: Int
    var species: Species
    var removed = false
    var weight: Int64
    var openIssues: [String] = []
    var treatments: [String] = []
    /// Slots the pet's schedule holds: (booking, slot).
    var held: [(booking: Int, slot: Int64)] = []
}

struct Booking {
    var id: String
    var pet: Int
    var owner: Int
    var slot: Int64
    var status: BookingStatus = .requested
    /// Bumped by each reschedule, so a staff step scheduled before it is ignored.
    var generation = 0
}

struct VetRequest {
    var id: String
    var pet: Int
    var owner: Int
    var status: VetRequestStatus = .submitted
    var answers = 0
}

struct Message {
    var id: String
    var fromStaff: Bool
    /// Receipts of the other side.
    var delivered = false
    var read = false
}

struct Conversation {
    var id: String
    var owner: Int
    /// The staff member who answers it.
    var staff: String
    var messages: [Message] = []
}

/// Words for names, pets, products and messages.
enum Names {
    static let first = [
        "Ayesha", "Rafi", "Nusrat", "Tanvir", "Farzana", "Imran", "Sadia", "Arif", "Mitu", "Rakib", "Sumaiya", "Hasan",
        "Tania", "Jamil", "Priya", "Omar", "Lina", "Karim", "Nadia", "Sami", "Emma", "Liam", "Sofia", "Noah", "Mei",
        "Kenji", "Ana", "Lucas", "Zara", "Yusuf",
    ]
    static let last = [
        "Rahman", "Hossain", "Islam", "Ahmed", "Chowdhury", "Khan", "Akter", "Sarkar", "Das", "Roy", "Begum", "Uddin",
        "Mahmud", "Kabir", "Talukder", "Haque", "Smith", "Garcia", "Tanaka", "Silva",
    ]
    static let petNames = [
        "Rex", "Miso", "Luna", "Bruno", "Kiwi", "Milo", "Bella", "Tiger", "Coco", "Simba", "Nala", "Oreo", "Pepper",
        "Mochi", "Shadow", "Daisy", "Rocky", "Ginger", "Leo", "Zoe", "Biscuit", "Pumpkin",
    ]
    static let breeds: [Species: [String]] = [
        .dog: ["Beagle", "Labrador", "German Shepherd", "Spitz", "Golden Retriever", "Mixed"],
        .cat: ["Persian", "Siamese", "Bengal", "Local Shorthair", "Maine Coon"],
        .bird: ["Budgerigar", "Cockatiel", "Lovebird"],
        .rabbit: ["Holland Lop", "Lionhead"],
        .fish: ["Goldfish", "Betta"],
        .reptile: ["Leopard Gecko"],
        .other: ["Hamster"],
    ]
    static let speciesWeights: [(Species, Int)] = [(.dog, 40), (.cat, 40), (.bird, 8), (.rabbit, 5), (.fish, 4), (.reptile, 1), (.other, 2)]
    static let weightRange: [Species: ClosedRange<Int64>] = [
        .dog: 3_000...35_000, .cat: 2_500...7_000, .bird: 30...400, .rabbit: 1_000...3_000, .fish: 5...200,
        .reptile: 40...90, .other: 80...200,
    ]
    static let vaccines = ["Rabies", "DHPP", "FVRCP", "Leptospirosis", "Bordetella", "Feline Leukemia"]
    static let issues = ["Itchy skin", "Limping", "Not eating", "Ear infection", "Upset stomach", "Sneezing", "Eye discharge"]
    static let treatments = ["Omega-3 oil", "Amoxicillin", "Ear drops", "Probiotic paste", "Joint supplement", "Deworming tablet"]
    static let foods = ["Pedigree Adult", "Whiskas Ocean Fish", "Royal Canin Kitten", "SmartHeart Puppy", "Home-cooked chicken and rice", "Budgie Seed Mix"]
    static let clinics = ["Gulshan Pet Clinic", "Dhanmondi Animal Hospital", "Banani Vet Care", "Uttara Pet Point"]
    static let vets = ["Dr. Nusrat Jahan", "Dr. Kamal Hossain", "Dr. Farhana Akter", "Dr. Ruhul Amin"]
    static let symptoms = [
        "Vomiting since last night", "Scratching a lot behind the ears", "Limping on the front left leg",
        "Not drinking water today", "Coughing after walks", "A lump on the side", "Very tired and sleeping all day",
    ]
    static let answers = [
        "Please bring them in tomorrow morning.", "Keep them hydrated and watch for 24 hours.",
        "This sounds mild; try the bland diet and tell us how it goes.", "Please book a check-up this week.",
    ]
    static let texts = [
        "Hi, any update on this?", "Thank you!", "Can I change the time?", "Is it possible to deliver after 6 pm?",
        "My pet is doing better now.", "Could you confirm please?", "What should I bring?", "Great, see you then.",
    ]
    static let staffTexts = [
        "Hello! We are looking into it.", "All set, thank you for waiting.", "Yes, that works for us.",
        "Your order is on its way.", "Please arrive 10 minutes early.", "Noted, we will take care of it.",
    ]
    static let areas = ["Dhanmondi", "Gulshan", "Banani", "Uttara", "Mirpur", "Mohammadpur", "Bashundhara", "Motijheel"]
    static let categories = ["cat", "dog", "accessories", "grooming", "bird", "fish"]
    static let productWords = ["Premium", "Organic", "Deluxe", "Classic", "Travel", "Soft", "Crunchy", "Natural"]
    static let productNouns: [String: [String]] = [
        "cat": ["Cat Treats", "Cat Litter 5L", "Cat Tunnel", "Kitten Milk"],
        "dog": ["Dog Biscuits", "Chew Rope", "Dog Harness", "Puppy Pads"],
        "accessories": ["Pet Bowl", "Pet Blanket", "Grooming Brush", "Pet Bed"],
        "grooming": ["Pet Shampoo", "Paw Balm", "Dental Gel", "Ear Cleaner"],
        "bird": ["Bird Seed Mix", "Cuttlebone", "Bird Swing"],
        "fish": ["Fish Pellets", "Aquarium Filter", "Water Conditioner"],
    ]
    static let tags = ["bestseller", "new", "eco", "imported", "local", "sale", "gift", "small-pets"]
}
