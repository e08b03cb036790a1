import Events
import PawtrailJSON

/// `pawtrail view services`: what the salon offers, at what price, for how long; for everyone.
public enum ServicesView: ProjectionView {
    public typealias Source = ServicesProjection
    public static let name = "services"
    public static let summary = "The salon's grooming services: price, duration, groomers needed, and whether each is offered."
    public static let options: [ViewOption] = []

    public static func audience(_ state: ServicesProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .everyone
    }

    public static func render(_ state: ServicesProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewOutput {
        let capacity = state.capacity ?? SalonCapacitySet.defaultGroomers
        let terms = state.terms
        return ViewOutput(
            title: "Grooming services",
            header: ["SERVICE", "NAME", "PRICE", "MINUTES", "GROOMERS", "OFFERED"],
            rows: terms.map {
                [$0.service.rawValue, $0.name, Format.money($0.price), String($0.durationMinutes), String($0.groomers), $0.offered ? "yes" : "no"]
            },
            rightAligned: [2, 3, 4],
            footer: ["\(capacity) groomers on duty each half-hour slot"],
            json: .object([
                "groomersOnDuty": .int(capacity),
                "services": .array(
                    terms.map {
                        .object([
                            "service": .string($0.service.rawValue), "name": .string($0.name), "price": Format.json($0.price),
                            "durationMinutes": .int($0.durationMinutes), "groomers": .int($0.groomers), "offered": .bool($0.offered),
                        ])
                    }),
            ]))
    }
}
