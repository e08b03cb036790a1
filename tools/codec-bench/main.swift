// pawtrail-codec-bench: how fast a domain event is encoded and decoded in the log's binary encoding, next to
// Foundation's JSONEncoder/JSONDecoder on the same event (a Codable mirror of OrderPlaced with two lines, about
// 425 bytes of JSON), one core each, median of 5 runs. Run it with tools/codec-bench.sh.
import EventLog
import Events
import Foundation
import PawtrailJSON

struct MoneyJSON: Codable { var amount: Int64; var currency: String }
struct LineJSON: Codable {
    var productId, name, category, imageRef: String
    var unitPrice: MoneyJSON
    var quantity: Int64
    var lineTotal: MoneyJSON
}
struct OrderPlacedJSON: Codable {
    var orderId, customerId: String
    var lines: [LineJSON]
    var subtotal, total: MoneyJSON
    var deliveryAddress, deliverySlot, recipientName, recipientPhone, payment: String
}

let line1 = PurchaseLine(
    productId: "product_cat_001", name: "Black Sand Bentonite Cat Litter 10L", category: "cat",
    imageRef: "img_black_sand_carbon_bentonite_cat_litter_10l_600x588", unitPrice: Money(62_000, "BDT"), quantity: 2,
    lineTotal: Money(124_000, "BDT"))
let line2 = PurchaseLine(
    productId: "product_dog_004", name: "Natural Rubber Chew Bone", category: "dog", imageRef: "img_rubber_chew_bone_600x600",
    unitPrice: Money(32_000, "BDT"), quantity: 1, lineTotal: Money(32_000, "BDT"))
let event = OrderPlaced(
    orderId: "o-3f9a2c61d08e44b7", customerId: "u-ann", lines: [line1, line2], subtotal: Money(156_000, "BDT"),
    total: Money(156_000, "BDT"), deliveryAddress: "House 7, Road 3, Dhanmondi, Dhaka",
    deliverySlot: Timestamp(iso8601: "2026-12-02T11:00:00Z")!, recipientName: "Ann Chowdhury",
    recipientPhone: "+880 1711 100037", payment: .cardOnDelivery)
let mirror = try JSONDecoder().decode(OrderPlacedJSON.self, from: Data(JSONFieldWriter.json(event).serialized.utf8))

let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 200_000

func rate(_ body: () throws -> Void) rethrows -> Double {
    var rates: [Double] = []
    for _ in 0..<5 {
        let start = ContinuousClock.now
        for _ in 0..<count { try body() }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        rates.append(Double(count) / seconds)
    }
    return rates.sorted()[2]
}

var sink = 0
let binary = DomainEventCodec.encode(event)
let json = try JSONEncoder().encode(mirror)
let rows: [(String, Int, Double)] = [
    ("binary encode (DomainEventCodec)", binary.count, rate { sink &+= DomainEventCodec.encode(event).count }),
    ("binary decode (DomainEventCodec)", binary.count, try rate { sink &+= try OrderPlaced.decoded(from: binary).lines.count }),
    ("JSON encode (Foundation JSONEncoder)", json.count, try rate { sink &+= try JSONEncoder().encode(mirror).count }),
    ("JSON decode (Foundation JSONDecoder)", json.count, try rate { sink &+= try JSONDecoder().decode(OrderPlacedJSON.self, from: json).lines.count }),
]
print("OrderPlaced with 2 lines, \(count) per run, median of 5 runs, one core (sink \(sink % 10))")
print("codec".padding(toLength: 40, withPad: " ", startingAt: 0) + "  bytes      events/s")
for (name, bytes, r) in rows {
    let b = String(bytes)
    let n = String(Int(r))
    print(name.padding(toLength: 40, withPad: " ", startingAt: 0) + String(repeating: " ", count: 7 - b.count) + b
        + String(repeating: " ", count: 14 - n.count) + n)
}
