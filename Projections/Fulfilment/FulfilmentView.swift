import EventLog
import Events
import PawtrailJSON

/// `pawtrail view fulfilment [--stage to-confirm|to-ship|to-deliver]`: the orders staff still have to move, stage by
/// stage, oldest placed first, each with its age (since it was placed) and how long it has waited at its stage.
/// Ages count to `--now`, by default the business time of the newest order event folded (as the pet views count
/// what is due), so a view reads the same live, as of a past moment and in a replayed script.
public enum FulfilmentView: ProjectionView {
    public typealias Source = FulfilmentProjection
    public static let name = "fulfilment"
    public static let summary = "Orders to confirm, ship and deliver, oldest first, with their age."
    public static let options = [
        ViewOption("stage", "to-confirm|to-ship|to-deliver", help: "Only the orders at this stage.", default: "every stage"),
        ViewOption.now("The moment ages count to (UTC ISO-8601)."),
    ]

    public static func audience(_ state: FulfilmentProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .staff
    }

    public static func render(_ state: FulfilmentProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        var stages = FulfilmentProjection.Stage.allCases
        if let asked = arguments.value("stage") {
            guard let stage = FulfilmentProjection.Stage(rawValue: asked) else {
                throw .invalid("stage", "'\(asked)' is not one of \(FulfilmentProjection.Stage.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", "))")
            }
            stages = [stage]
        }
        let reference = try arguments.now(default: state.clock["latest"]?.at)
        let perStage = stages.map { (stage: $0, orders: state.orders(at: $0)) }
        let counts = perStage.map { "\($0.orders.count) \($0.stage.rawValue.replacingOccurrences(of: "-", with: " "))" }
        return ViewOutput(
            title: "Fulfilment" + (reference.map { " as of \($0.iso8601Compact)" } ?? ""),
            header: ["STAGE", "ORDER", "CUSTOMER", "PLACED", "AGE", "AT STAGE", "UNITS", "TOTAL", "PAYMENT"],
            rows: perStage.flatMap { stage, orders in
                orders.map { id, o in
                    [
                        stage.rawValue, id, o.customerId, PetCareText.minute(o.placedAt),
                        reference.map { Self.age(from: o.placedAt, to: $0) } ?? "", reference.map { Self.age(from: o.since, to: $0) } ?? "",
                        String(o.units), Format.money(o.total), o.payment.rawValue,
                    ]
                }
            },
            rightAligned: [4, 5, 6, 7], footer: [counts.joined(separator: ", ")],
            json: .object([
                "asOf": reference.map(Format.json) ?? .null,
                "stages": .object(
                    perStage.map { stage, orders in
                        .init(
                            key: stage.rawValue,
                            value: .array(
                                orders.map { id, o in
                                    .object([
                                        "orderId": .string(id), "customerId": .string(o.customerId), "placedAt": Format.json(o.placedAt),
                                        "since": Format.json(o.since),
                                        "ageSeconds": reference.map { .int(Self.seconds(from: o.placedAt, to: $0)) } ?? .null,
                                        "units": .int(o.units), "total": Format.json(o.total), "payment": .string(o.payment.rawValue),
                                        "deliverySlot": Format.json(o.deliverySlot),
                                    ])
                                }))
                    }),
            ]))
    }

    static func seconds(from start: Timestamp, to end: Timestamp) -> Int64 {
        max(0, (end.microsecondsSinceEpoch - start.microsecondsSinceEpoch) / 1_000_000)
    }

    /// An age in the largest two units: `2d 3h`, `5h 12m`, `7m`.
    static func age(from start: Timestamp, to end: Timestamp) -> String {
        let s = seconds(from: start, to: end)
        let (d, h, m) = (s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60)
        if d > 0 { return "\(d)d \(h)h" }
        if h > 0 { return "\(h)h \(m)m" }
        return "\(m)m"
    }
}
