import Events
import PawtrailJSON

/// `pawtrail view orders --customer ID`: a customer's orders, newest first.
///
/// A customer without orders gets an empty list, not an error: having no orders is an ordinary state, and this
/// read model sees only order events, so it cannot tell a customer who never ordered from an unknown id.
public enum CustomerOrdersView: ProjectionView {
    public typealias Source = OrdersProjection
    public static let name = "orders"
    public static let summary =
        "A customer's orders, newest first: when placed, status, units, total and delivery slot."
    public static let options = [ViewOption("customer", "id", help: "The customer's user id.", required: true)]

    public static func audience(_ state: OrdersProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        .userAndStaff(try arguments.required("customer"))
    }

    public static func render(
        _ state: OrdersProjection.State, _ arguments: ViewArguments
    ) throws(ViewError) -> ViewOutput {
        let customer = try arguments.required("customer")
        let ids = state.byCustomer[customer]?.ids ?? []
        // One read of every order's row, not one per order (a round trip each on a server).
        state.orders.prefetch(ids)
        // Newest first by the business time of placing; orders placed at the same instant, later in the log first.
        let orders = ids.enumerated().compactMap { n, id in state.orders[id].map { (n: n, id: id, order: $0) } }
            .sorted { ($0.order.placedAt, $0.n) > ($1.order.placedAt, $1.n) }
        return ViewOutput(
            title: "Orders of \(customer)",
            header: ["ORDER", "PLACED", "STATUS", "UNITS", "TOTAL", "DELIVERY SLOT"],
            rows: orders.map {
                [
                    $0.id, $0.order.placedAt.iso8601Compact, $0.order.status.rawValue, String($0.order.units),
                    Format.money($0.order.total), $0.order.deliverySlot.iso8601Compact,
                ]
            },
            rightAligned: [3, 4],
            footer: orders.isEmpty ? ["no orders for '\(customer)'"] : [],
            json: .array(
                orders.map {
                    .object([
                        "orderId": .string($0.id), "placedAt": Format.json($0.order.placedAt),
                        "status": .string($0.order.status.rawValue), "lines": .int(Int64($0.order.lines.count)),
                        "units": .int($0.order.units), "total": Format.json($0.order.total),
                        "deliverySlot": Format.json($0.order.deliverySlot),
                    ])
                }))
    }
}

/// `pawtrail view order --id ID`: one order in detail: its lines as bought, totals, status, delivery details and
/// the timeline of its status changes.
public enum OrderDetailView: ProjectionView {
    public typealias Source = OrdersProjection
    public static let name = "order"
    public static let summary = "One order: lines as bought, subtotal, total, status, delivery details and timeline."
    public static let options = [ViewOption("id", "order", help: "The order id.", required: true)]

    public static func audience(_ state: OrdersProjection.State, _ arguments: ViewArguments) throws(ViewError) -> ViewAudience {
        let id = try arguments.required("id")
        return state.orders[id].map { .userAndStaff($0.customerId) } ?? .staff
    }

    public static func render(
        _ state: OrdersProjection.State, _ arguments: ViewArguments
    ) throws(ViewError) -> ViewOutput {
        let id = try arguments.required("id")
        guard let order = state.orders[id] else { throw .notFound("no order '\(id)'") }
        var footer = [
            "Subtotal: \(Format.money(order.subtotal))",
            "Total: \(Format.money(order.total))",
            "Status: \(order.status.rawValue)",
            "Customer: \(order.customerId)",
            "Deliver to: \(order.recipientName), \(order.recipientPhone), \(order.deliveryAddress)",
            "Delivery slot: \(order.deliverySlot.iso8601Compact); payment: \(order.payment.rawValue)",
            "Paid: " + paid(order),
        ]
        if !order.returned.isEmpty {
            footer.append("Returned: " + order.returned.sorted { $0.key < $1.key }.map { "\($0.value) of \($0.key)" }.joined(separator: ", "))
        }
        footer.append("Timeline:")
        footer += order.timeline.map { "  " + step($0) }
        return ViewOutput(
            title: "Order \(id)",
            header: ["PRODUCT", "NAME", "UNIT PRICE", "QTY", "LINE TOTAL"],
            rows: order.lines.map {
                [$0.productId, $0.name, Format.money($0.unitPrice), String($0.quantity), Format.money($0.lineTotal)]
            },
            rightAligned: [2, 3, 4],
            footer: footer,
            json: .object([
                "orderId": .string(id), "customerId": .string(order.customerId),
                "status": .string(order.status.rawValue),
                "placedAt": Format.json(order.placedAt),
                "lines": .array(
                    order.lines.map {
                        .object([
                            "productId": .string($0.productId), "name": .string($0.name),
                            "category": .string($0.category),
                            "unitPrice": Format.json($0.unitPrice), "quantity": .int($0.quantity),
                            "lineTotal": Format.json($0.lineTotal),
                        ])
                    }),
                "subtotal": Format.json(order.subtotal), "total": Format.json(order.total),
                "delivery": .object([
                    "address": .string(order.deliveryAddress), "slot": Format.json(order.deliverySlot),
                    "recipientName": .string(order.recipientName), "recipientPhone": .string(order.recipientPhone),
                    "payment": .string(order.payment.rawValue),
                ]),
                "collected": order.collected.map(Format.json) ?? .null,
                "refunded": Format.json(Money(order.refunded, order.total.currency)),
                "returned": .object(order.returned.sorted { $0.key < $1.key }.map { JSONValue.Pair(key: $0.key, value: .int($0.value)) }),
                "timeline": .array(
                    order.timeline.map {
                        .object([
                            "status": .string($0.status.rawValue), "at": Format.json($0.at), "actor": .string($0.actor),
                            "reason": .string($0.reason),
                        ])
                    }),
            ]))
    }

    /// `2,020.00 BDT collected, 620.00 BDT refunded`, or `not yet`.
    static func paid(_ order: OrdersProjection.Order) -> String {
        guard let collected = order.collected else { return "not yet" }
        let refunded = order.refunded > 0 ? ", \(Format.money(Money(order.refunded, collected.currency))) refunded" : ""
        return "\(Format.money(collected)) collected" + refunded
    }

    /// `2026-12-01T09:05:00Z  cancelled by u-1: changed my mind`.
    static func step(_ s: OrdersProjection.Step) -> String {
        "\(s.at.iso8601Compact)  \(s.status.rawValue) by \(s.actor)" + (s.reason.map { ": \($0)" } ?? "")
    }
}
