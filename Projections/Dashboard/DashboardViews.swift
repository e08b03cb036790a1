import EventLog
import Events
import PawtrailJSON

/// `pawtrail view dashboard [--days N] [--low-stock N]`: the admin dashboard, one table with a SECTION column (for
/// people) and one JSON object with every section (for scripts).
///
/// The per-day series (revenue, sign-ups) cover N consecutive UTC days ending at the last day with data, oldest
/// first, days without activity shown as zero; so a dashboard read as of a past moment, or of a quiet store, still
/// shows the days that matter. Revenue has one row per day and currency, for every currency sold in at any time;
/// before the first sale there are no revenue rows.
public enum DashboardView: ProjectionView {
    public typealias Source = DashboardProjection
    public static let name = "dashboard"
    public static let summary =
        "Orders by status, revenue and sign-ups per day, low stock, bookings awaiting confirmation, open vet requests, top products."
    public static let options = [
        ViewOption(
            "days", "n", help: "Days of the per-day series, counted back from the last day with data.", default: "7"),
        ViewOption("low-stock", "n", help: "The most available units that count as low stock.", default: "5"),
    ]

    /// How many products the top-products section lists.
    public static let topCount = 5

    public static func audience(_ state: DashboardProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .admins
    }

    public static func render(
        _ state: DashboardProjection.State, _ arguments: ViewArguments
    ) throws(ViewError) -> ViewOutput {
        let dayCount = try arguments.int("days", default: 7, range: 1...3660)
        let threshold = try arguments.int("low-stock", default: 5, range: 0...1_000_000)
        var rows: [[String]] = []

        // Orders by status: every status, zeros included, in lifecycle order.
        let statuses = OrdersProjection.Status.allCases.map { ($0.rawValue, state.ordersByStatus[$0.rawValue] ?? 0) }
        rows += statuses.map { ["orders-by-status", $0.0, String($0.1), ""] }

        // The per-day series.
        let window: ClosedRange<Int64>? = state.days.keys.max().map { ($0 - dayCount + 1)...$0 }
        let currencies = Set(state.days.values.flatMap(\.takings.keys)).sorted()
        var revenue: [JSONValue] = []
        var signUps: [JSONValue] = []
        if let window {
            for day in window {
                let date = DashboardProjection.date(day)
                for currency in currencies {
                    let t = state.days[day]?.takings[currency] ?? DashboardProjection.Takings()
                    let online = Money(t.deliveredAmount, currency)
                    let till = Money(t.salesAmount, currency)
                    let refunds = Money(t.refundsAmount, currency)
                    let collected = Money(t.collectedAmount, currency)
                    let grooming = Money(t.groomingAmount, currency)
                    rows.append([
                        "revenue", date, Format.money(Money(t.amount, currency)),
                        "delivered \(Format.money(online)) (\(t.delivered)), till \(Format.money(till)) (\(t.sales)), "
                            + "grooming \(Format.money(grooming)) (\(t.groomings)), refunds \(Format.money(refunds)); "
                            + "placed \(t.orders), collected \(Format.money(collected))",
                    ])
                    revenue.append(
                        .object([
                            "day": .string(date), "currency": .string(currency),
                            "revenue": Format.json(Money(t.amount, currency)),
                            "ordersPlaced": .int(t.orders), "ordersDelivered": .int(t.delivered), "ordersRevenue": Format.json(online),
                            "tillSales": .int(t.sales), "tillRevenue": Format.json(till), "groomings": .int(t.groomings),
                            "groomingRevenue": Format.json(grooming), "refunds": Format.json(refunds),
                            "collected": Format.json(collected),
                        ]))
                }
            }
            for day in window {
                let date = DashboardProjection.date(day)
                let n = state.days[day]?.signUps ?? 0
                rows.append(["sign-ups", date, String(n), ""])
                signUps.append(.object(["day": .string(date), "signUps": .int(n)]))
            }
        }

        // Low stock, fewest available first.
        let low = state.stock.filter { $0.value.listed && $0.value.available <= threshold }
            .sorted { ($0.value.available, $0.key) < ($1.value.available, $1.key) }
        rows += low.map {
            [
                "low-stock", $0.key, String($0.value.available),
                "\($0.value.name): on hand \($0.value.onHand), reserved \($0.value.reserved)",
            ]
        }

        // Bookings awaiting confirmation, soonest slot first.
        let awaiting = state.bookings.filter { $0.value.status == .requested }
            .sorted { ($0.value.slot, $0.key) < ($1.value.slot, $1.key) }
        rows += awaiting.map {
            [
                "awaiting-booking", $0.key, $0.value.slot.iso8601Compact,
                "\($0.value.service.rawValue) for pet \($0.value.petId) of \($0.value.ownerId), waiting since \($0.value.since.iso8601Compact)",
            ]
        }

        // Open vet requests, most urgent first, then oldest first.
        let open = state.vet.sorted {
            (rank($0.value.urgency), $0.value.submittedAt, $0.key) < (
                rank($1.value.urgency), $1.value.submittedAt, $1.key
            )
        }
        rows += open.map {
            [
                "open-vet-request", $0.key, $0.value.status.rawValue,
                "\($0.value.urgency.rawValue), pet \($0.value.petId) of \($0.value.ownerId), since \($0.value.submittedAt.iso8601Compact)",
            ]
        }

        // Top products by units, ties by id.
        let top = state.sold.filter { $0.value.units > 0 }
            .sorted { ($1.value.units, $0.key) < ($0.value.units, $1.key) }
            .prefix(topCount)
        rows += top.map { ["top-product", $0.key, String($0.value.units), $0.value.name] }

        let windowJSON: JSONValue =
            window.map {
                .object([
                    "from": .string(DashboardProjection.date($0.lowerBound)),
                    "to": .string(DashboardProjection.date($0.upperBound)), "count": .int(dayCount),
                    "timeZone": .string(state.timeZone),
                ])
            } ?? .null
        let footer = [
            window.map {
                "Per-day series: \(DashboardProjection.date($0.lowerBound)) to \(DashboardProjection.date($0.upperBound)) "
                    + "(\(dayCount) days of \(state.timeZone) up to the last day with data)"
            } ?? "Per-day series: no data yet",
            "Low stock: available ≤ \(threshold); top products: \(topCount) by units sold (shipped + till - returned)",
        ]
        return ViewOutput(
            title: "Dashboard",
            header: ["SECTION", "KEY", "VALUE", "DETAIL"],
            rows: rows,
            rightAligned: [2],
            footer: footer,
            json: .object([
                "days": windowJSON,
                "ordersByStatus": .object(statuses.map { JSONValue.Pair(key: $0.0, value: .int($0.1)) }),
                "revenuePerDay": .array(revenue),
                "signUpsPerDay": .array(signUps),
                "lowStock": .object([
                    "threshold": .int(threshold),
                    "products": .array(
                        low.map {
                            .object([
                                "productId": .string($0.key), "name": .string($0.value.name),
                                "onHand": .int($0.value.onHand),
                                "reserved": .int($0.value.reserved), "available": .int($0.value.available),
                            ])
                        }),
                ]),
                "bookingsAwaitingConfirmation": .array(
                    awaiting.map {
                        .object([
                            "bookingId": .string($0.key), "slot": Format.json($0.value.slot),
                            "petId": .string($0.value.petId),
                            "ownerId": .string($0.value.ownerId), "service": .string($0.value.service.rawValue),
                            "since": Format.json($0.value.since),
                        ])
                    }),
                "openVetRequests": .array(
                    open.map {
                        .object([
                            "requestId": .string($0.key), "status": .string($0.value.status.rawValue),
                            "urgency": .string($0.value.urgency.rawValue), "petId": .string($0.value.petId),
                            "ownerId": .string($0.value.ownerId), "submittedAt": Format.json($0.value.submittedAt),
                        ])
                    }),
                "topProducts": .array(
                    top.map {
                        .object([
                            "productId": .string($0.key), "name": .string($0.value.name), "units": .int($0.value.units),
                        ])
                    }),
            ]))
    }

    /// Urgent first.
    static func rank(_ u: VetUrgency) -> Int {
        switch u {
        case .urgent: 0
        case .normal: 1
        case .low: 2
        }
    }
}
