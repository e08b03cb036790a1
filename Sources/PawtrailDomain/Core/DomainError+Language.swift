public import Events
import Foundation

/// Refusals in the actor's language. The English sentence stays the error's ``DomainError/description`` (what
/// operators and scripts read, with a stable kind); a customer who chose Bangla reads the refusal in Bangla:
/// the sentences customers meet are translated whole, and any other keeps its English detail after a Bangla
/// headline that says what kind of refusal it is.
extension DomainError {
    /// The refusal as a sentence in a language.
    ///
    /// - Parameter language: The reader's language.
    /// - Returns: The sentence.
    public func sentence(in language: Language) -> String {
        guard language == .bnBD else { return description }
        switch self {
        case .stockShort(let lines):
            return "যথেষ্ট মজুত নেই: " + lines.map { "\($0.productID) (আছে \($0.available), চাওয়া হয়েছে \($0.requested))" }.joined(separator: "; ")
        case .conflict:
            return "একই সময়ে অন্য একটি পরিবর্তন হয়েছে; আবার চেষ্টা করুন"
        case .invalid(let field, let reason):
            return "তথ্য ঠিক নেই (\(field)): \(reason)"
        case .forbidden(let m), .notFound(let m), .alreadyExists(let m), .invalidState(let m), .rejected(let m):
            for (pattern, bangla) in BanglaRefusals.templates {
                if let captures = BanglaRefusals.match(m, pattern) { return BanglaRefusals.fill(bangla, captures) }
            }
            return BanglaRefusals.headline(self) + " — " + m
        }
    }
}

/// The Bangla sentences of the refusals customers meet, each beside the English pattern it translates (`{}` marks
/// what the sentence names: an id, a status, a number).
enum BanglaRefusals {
    static let templates: [(String, String)] = [
        ("pet '{}' does not exist", "'{1}' নামে কোনো পোষা প্রাণী নেই"),
        ("order '{}' does not exist", "'{1}' নামে কোনো অর্ডার নেই"),
        ("booking '{}' does not exist", "'{1}' নামে কোনো বুকিং নেই"),
        ("product '{}' does not exist", "'{1}' নামে কোনো পণ্য নেই"),
        ("conversation '{}' does not exist", "'{1}' নামে কোনো কথোপকথন নেই"),
        ("vet request '{}' does not exist", "'{1}' নামে পশুচিকিৎসকের কাছে কোনো অনুরোধ নেই"),
        ("product '{}' is not in the cart", "পণ্য '{1}' কার্টে নেই"),
        ("product '{}' is not among the favourites", "পণ্য '{1}' প্রিয় তালিকায় নেই"),
        ("the email {} is already used by another account", "ইমেইল {1} অন্য একটি অ্যাকাউন্টে ব্যবহৃত হচ্ছে"),
        ("user '{}' already has an account", "'{1}'-এর আগে থেকেই একটি অ্যাকাউন্ট আছে"),
        ("pet '{}' exists already", "'{1}' নামে পোষা প্রাণী আগে থেকেই আছে"),
        ("the cart is empty; add products before placing an order", "কার্ট খালি; অর্ডার দেওয়ার আগে পণ্য যোগ করুন"),
        ("the cart holds {} products already, the most it may hold", "কার্টে ইতিমধ্যে {1}টি পণ্য আছে, এর বেশি রাখা যায় না"),
        ("the favourites hold {} products already, the most they may hold", "প্রিয় তালিকায় ইতিমধ্যে {1}টি পণ্য আছে, এর বেশি রাখা যায় না"),
        ("pet '{}' already has booking '{}' from {} to {}", "পোষা প্রাণী '{1}'-এর {3} থেকে {4} পর্যন্ত বুকিং '{2}' আগে থেকেই আছে"),
        ("the salon does not offer '{}' now", "সেলুন এখন '{1}' সেবা দিচ্ছে না"),
        ("pet '{}' belongs to another owner; {} may not act on it", "পোষা প্রাণী '{1}' অন্য মালিকের; আপনি এটি নিয়ে কিছু করতে পারেন না"),
        ("booking '{}' belongs to another owner; {} may not act on it", "বুকিং '{1}' অন্য মালিকের; আপনি এটি নিয়ে কিছু করতে পারেন না"),
        ("order '{}' belongs to another customer; {} may not cancel it", "অর্ডার '{1}' অন্য গ্রাহকের; আপনি এটি বাতিল করতে পারেন না"),
        ("{} '{}' belongs to another customer; {} may not discuss it", "'{2}' অন্য গ্রাহকের; এ নিয়ে আপনি কথা বলতে পারেন না"),
        ("conversation '{}' is between '{}' and staff; {} is not part of it", "কথোপকথন '{1}' আপনার নয়"),
        ("order '{}' is shipped; a customer can cancel an order only before it ships", "অর্ডার '{1}' পাঠানো হয়ে গেছে; পাঠানোর আগেই কেবল অর্ডার বাতিল করা যায়"),
        ("order '{}' is delivered; only an order not yet delivered can be cancelled", "অর্ডার '{1}' পৌঁছে গেছে; পৌঁছানোর আগের অর্ডারই কেবল বাতিল করা যায়"),
        ("booking '{}' is {}; only a {} booking can be {}", "বুকিং '{1}' এখন {2}; এটি এখন করা যাবে না"),
        ("order '{}' is {}; only a {} order can be {}", "অর্ডার '{1}' এখন {2}; এটি এখন করা যাবে না"),
        ("the slot of booking '{}' ({}) has passed; reschedule or cancel it", "বুকিং '{1}'-এর সময় ({2}) পেরিয়ে গেছে; সময় বদলান বা বাতিল করুন"),
        ("pet '{}' was removed and accepts no further commands", "পোষা প্রাণী '{1}' সরানো হয়েছে; এটি নিয়ে আর কিছু করা যায় না"),
        ("product '{}' ({}) is delisted; it cannot be {}", "পণ্য '{1}' ({2}) তালিকা থেকে সরানো হয়েছে; এটি এখন পাওয়া যাবে না"),
        ("message id '{}' was already used for another message in conversation '{}'", "বার্তা আইডি '{1}' কথোপকথন '{2}'-এ অন্য বার্তার জন্য ব্যবহৃত হয়েছে"),
        ("the account of '{}' is deleted", "'{1}'-এর অ্যাকাউন্ট মুছে ফেলা হয়েছে"),
        ("user '{}' has no account", "'{1}'-এর কোনো অ্যাকাউন্ট নেই"),
        ("customer '{}' has no account", "গ্রাহক '{1}'-এর কোনো অ্যাকাউন্ট নেই"),
        ("guests cannot {}; sign up or log in first", "অতিথিরা এটি করতে পারেন না; আগে সাইন আপ বা লগ ইন করুন"),
        ("only staff {}; {} is not staff", "এটি কেবল দোকানের স্টাফ করতে পারেন"),
        ("only admins {}; {} is not one", "এটি কেবল অ্যাডমিন করতে পারেন"),
    ]

    /// Statuses as they read in Bangla.
    static let statuses = [
        "requested": "অনুরোধকৃত", "confirmed": "নিশ্চিত", "completed": "সম্পন্ন", "cancelled": "বাতিল", "no-show": "অনুপস্থিত",
        "placed": "দেওয়া হয়েছে", "shipped": "পাঠানো হয়েছে", "delivered": "পৌঁছে গেছে",
    ]

    /// The headline of a refusal no template translates.
    static func headline(_ error: DomainError) -> String {
        switch error {
        case .invalid: "তথ্য ঠিক নেই"
        case .forbidden: "অনুমতি নেই"
        case .notFound: "পাওয়া যায়নি"
        case .alreadyExists: "আগে থেকেই আছে"
        case .invalidState: "এখন করা যাবে না"
        case .stockShort: "যথেষ্ট মজুত নেই"
        case .rejected: "গ্রহণ করা যায়নি"
        case .conflict: "আবার চেষ্টা করুন"
        }
    }

    /// What a sentence names at each `{}` of a pattern, or `nil` when it does not follow the pattern.
    static func match(_ text: String, _ pattern: String) -> [String]? {
        let literals = pattern.components(separatedBy: "{}")
        guard text.hasPrefix(literals[0]), text.hasSuffix(literals[literals.count - 1]) else { return nil }
        if literals.count == 1 { return text == pattern ? [] : nil }
        var rest = text.dropFirst(literals[0].count).dropLast(literals[literals.count - 1].count)
        var captures: [String] = []
        for literal in literals.dropFirst().dropLast() {
            guard let r = rest.range(of: literal) else { return nil }
            captures.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        captures.append(String(rest))
        return captures
    }

    /// A Bangla sentence with `{1}`, `{2}`, ... replaced by what the English one named, in one pass: a name that
    /// itself spells `{2}` is not replaced again.
    static func fill(_ sentence: String, _ captures: [String]) -> String {
        var out = ""
        var rest = sentence[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let n = Int(after[..<close]), captures.indices.contains(n - 1) {
                out += statuses[captures[n - 1]] ?? captures[n - 1]
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }
}
