public import Events
import PawtrailJSON

/// The catalog `pawtrail catalog seed` lists: pet products in the record shape of the seed app's
/// `SampleData/products.json` (`id`, `name`, `price` in whole taka, `category`, `imageURL`, `stock`, which
/// defaults to 50 when absent), kept as that JSON text so it can be compared with, and replaced by, the app's file.
/// Our records add `tags` (absent: none), which the app's records lack, so that search finds products by them.
public enum BundledCatalog {
    /// One bundled record.
    public struct Product: Hashable, Sendable {
        public var id: String
        public var name: String
        /// The price in whole taka, as the seed app writes it.
        public var priceTaka: Int64
        public var category: String
        /// The image asset's name (the app's `imageURL` field holds asset names, not URLs).
        public var imageURL: String
        /// Units on hand at seeding.
        public var stock: Int64
        /// Search tags, lowercased.
        public var tags: [String]

        public init(
            id: String, name: String, priceTaka: Int64, category: String, imageURL: String, stock: Int64, tags: [String] = []
        ) {
            self.id = id
            self.name = name
            self.priceTaka = priceTaka
            self.category = category
            self.imageURL = imageURL
            self.stock = stock
            self.tags = tags
        }

        /// The listing event of the product: the price in minor units of BDT (1 taka = 100 poisha).
        public var listing: ProductListed {
            ProductListed(
                productId: id, name: name, price: Money(priceTaka * 100, currency), category: category, tags: tags,
                imageRef: imageURL)
        }
    }

    /// The currency of the bundled prices.
    public static let currency = "BDT"
    /// The stock of a record without `stock`, as in the seed app.
    public static let defaultStock: Int64 = 50

    /// The bundled records, in file order.
    ///
    /// - Throws: ``DomainError/rejected(_:)`` naming the defect if the bundled text does not parse (a test keeps it
    ///   parsing; this only keeps a broken build from crashing).
    public static func products() throws(DomainError) -> [Product] {
        switch parsed {
        case .success(let products): return products
        case .failure(let error): throw .rejected("the bundled catalog is damaged: \(error.message)")
        }
    }

    private static let parsed: Result<[Product], FieldError> = Result { () throws(FieldError) in try parse(json) }

    /// Parses records of the seed app's shape.
    ///
    /// - Parameter text: A JSON array of product records.
    /// - Returns: The records.
    /// - Throws: ``FieldError`` naming the malformed record and field.
    public static func parse(_ text: String) throws(FieldError) -> [Product] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Array(text.utf8))
        } catch {
            throw FieldError(field: "", message: "not JSON: \(error)")
        }
        guard case .array(let items) = value else { throw FieldError(field: "", message: "expected an array of products") }
        var out: [Product] = []
        for (n, item) in items.enumerated() {
            func string(_ key: String) throws(FieldError) -> String {
                guard case .string(let s)? = item[key] else { throw FieldError(field: "[\(n)].\(key)", message: "expected a string") }
                return s
            }
            func int(_ key: String, default: Int64? = nil) throws(FieldError) -> Int64 {
                switch item[key] {
                case .int(let v)?: return v
                case nil where `default` != nil: return `default`!
                default: throw FieldError(field: "[\(n)].\(key)", message: "expected an integer")
                }
            }
            func strings(_ key: String) throws(FieldError) -> [String] {
                switch item[key] {
                case nil: return []
                case .array(let values)?:
                    var out: [String] = []
                    for v in values {
                        guard case .string(let s) = v else { throw FieldError(field: "[\(n)].\(key)", message: "expected strings") }
                        out.append(s)
                    }
                    return out
                default: throw FieldError(field: "[\(n)].\(key)", message: "expected an array of strings")
                }
            }
            let known: Set<String> = ["id", "name", "price", "category", "imageURL", "stock", "tags"]
            for pair in item.objectPairs ?? [] where !known.contains(pair.key) {
                throw FieldError(field: "[\(n)].\(pair.key)", message: "is not a field of a product record")
            }
            out.append(
                Product(
                    id: try string("id"), name: try string("name"), priceTaka: try int("price"),
                    category: try string("category"), imageURL: try string("imageURL"),
                    stock: try int("stock", default: defaultStock), tags: try strings("tags")))
        }
        return out
    }

    /// The bundled records as JSON text. The first is the seed app's sample record, unchanged.
    public static let json = """
        [
          {"id": "product_cat_001", "name": "Black Sand Bentonite Cat Litter 10L", "price": 620, "category": "cat", "imageURL": "img_black_sand_carbon_bentonite_cat_litter_10l_600x588", "stock": 15, "tags": ["litter", "bentonite", "clumping"]},
          {"id": "product_cat_002", "name": "Tofu Cat Litter Original Scent 6L", "price": 850, "category": "cat", "imageURL": "img_tofu_cat_litter_original_6l_600x600", "stock": 24, "tags": ["litter", "tofu", "flushable"]},
          {"id": "product_cat_003", "name": "Whiskas Adult Ocean Fish Dry Cat Food 1.2kg", "price": 780, "category": "cat", "imageURL": "img_whiskas_adult_ocean_fish_1_2kg_600x600", "stock": 40, "tags": ["food", "dry food", "adult", "fish"]},
          {"id": "product_cat_004", "name": "Me-O Kitten Dry Food 1.1kg", "price": 690, "category": "cat", "imageURL": "img_meo_kitten_dry_food_1_1kg_600x600", "stock": 30, "tags": ["food", "dry food", "kitten"]},
          {"id": "product_cat_005", "name": "Royal Canin Hair & Skin Care Adult Cat 2kg", "price": 3450, "category": "cat", "imageURL": "img_royal_canin_hair_skin_2kg_600x600", "stock": 8, "tags": ["food", "dry food", "adult", "skin care"]},
          {"id": "product_cat_006", "name": "Sisal Cat Scratching Post 60cm", "price": 1450, "category": "cat", "imageURL": "img_sisal_scratching_post_60cm_600x800", "stock": 6, "tags": ["furniture", "scratcher"]},
          {"id": "product_cat_007", "name": "Catnip Mouse Toys (3 pack)", "price": 250, "category": "cat", "imageURL": "img_catnip_mouse_toys_3pk_600x600", "tags": ["toy", "catnip"]},
          {"id": "product_dog_001", "name": "Pedigree Adult Chicken & Vegetables 3kg", "price": 1650, "category": "dog", "imageURL": "img_pedigree_adult_chicken_veg_3kg_600x600", "stock": 20, "tags": ["food", "dry food", "adult", "chicken"]},
          {"id": "product_dog_002", "name": "SmartHeart Puppy Dry Food 1.5kg", "price": 980, "category": "dog", "imageURL": "img_smartheart_puppy_1_5kg_600x600", "stock": 18, "tags": ["food", "dry food", "puppy"]},
          {"id": "product_dog_003", "name": "Reflective Nylon Dog Leash 1.5m", "price": 450, "category": "dog", "imageURL": "img_reflective_nylon_leash_1_5m_600x600", "stock": 25, "tags": ["leash", "walking", "reflective"]},
          {"id": "product_dog_004", "name": "Natural Rubber Chew Bone", "price": 320, "category": "dog", "imageURL": "img_rubber_chew_bone_600x600", "stock": 35, "tags": ["toy", "chew", "dental"]},
          {"id": "product_acc_001", "name": "Stainless Steel Pet Bowl (Medium)", "price": 350, "category": "accessories", "imageURL": "img_steel_pet_bowl_medium_600x600", "stock": 45, "tags": ["bowl", "feeding", "stainless steel"]},
          {"id": "product_acc_002", "name": "Adjustable Pet Collar with Bell", "price": 280, "category": "accessories", "imageURL": "img_adjustable_collar_bell_600x600", "stock": 60, "tags": ["collar", "bell"]},
          {"id": "product_acc_003", "name": "Ventilated Pet Carrier Bag", "price": 2400, "category": "accessories", "imageURL": "img_ventilated_pet_carrier_600x600", "stock": 5, "tags": ["carrier", "travel"]},
          {"id": "product_acc_004", "name": "Plush Round Pet Bed (M)", "price": 1850, "category": "accessories", "imageURL": "img_plush_round_bed_m_600x600", "stock": 10, "tags": ["bed", "plush"]},
          {"id": "product_care_001", "name": "Anti-Tick & Flea Pet Shampoo 250ml", "price": 520, "category": "grooming", "imageURL": "img_anti_tick_flea_shampoo_250ml_600x600", "stock": 22, "tags": ["shampoo", "tick", "flea"]},
          {"id": "product_care_002", "name": "Pet Nail Clipper with Safety Guard", "price": 380, "category": "grooming", "imageURL": "img_nail_clipper_guard_600x600", "stock": 16, "tags": ["nail care", "clipper"]},
          {"id": "product_bird_001", "name": "Budgie Seed Mix 1kg", "price": 420, "category": "bird", "imageURL": "img_budgie_seed_mix_1kg_600x600", "stock": 12, "tags": ["food", "seed", "budgie"]},
          {"id": "product_fish_001", "name": "Tropical Fish Flakes 100g", "price": 300, "category": "fish", "imageURL": "img_tropical_fish_flakes_100g_600x600", "stock": 0, "tags": ["food", "flakes", "tropical"]}
        ]
        """
}
