import BenchSupport
import EventLog
import Events
import PawtrailDomain

// The shop: the bundled catalog seed, restocks and stock counts, admin catalog work, carts and favourites,
// checkout with reservations, the order lifecycle with fulfilment or release, and till sales.
extension Business {
    /// `catalog.seed` by the admin: one append with the catalog, every bundled listing and its opening stock.
    func seedCatalog() {
        guard let bundled = try? BundledCatalog.products() else { fatalError("the bundled catalog does not parse") }
        var events: [(StreamID, any DomainEvent)] = [(Streams.catalog, CatalogSeeded(productIds: bundled.map(\.id)))]
        for item in bundled {
            events.append((Streams.product(item.id), item.listing))
            var product = Product(
                id: item.id, name: item.name, category: item.category, imageRef: item.imageURL, tags: [],
                price: item.priceTaka * 100)
            if item.stock > 0 {
                events.append((Streams.inventory(item.id), StockReceived(productId: item.id, quantity: item.stock)))
                product.onHand = item.stock
            }
            products.append(product)
        }
        command("catalog.seed", as: admin, role: .admin, events)
    }

    /// The stock level under which a product is restocked: about a day's demand.
    private var lowWater: Int64 { Int64(max(20, visitsPerDay / 12)) }

    /// Staff receive stock for every listed product running low, and now and then correct a count.
    func restock() {
        let member = rng.pick(staff)
        for p in products.indices where products[p].listed && products[p].available < lowWater {
            let quantity = rng.int64((2 * lowWater)...(4 * lowWater))
            products[p].onHand += quantity
            command("inventory.receive", as: member, role: .staff, [(Streams.inventory(products[p].id), StockReceived(productId: products[p].id, quantity: quantity))])
        }
        if rng.chance(0.3) {
            let p = rng.below(products.count)
            let delta: Int64 = rng.chance(0.7) ? -rng.int64(1...2) : rng.int64(1...3)
            guard products[p].onHand + delta >= products[p].reserved else { return }
            products[p].onHand += delta
            command(
                "inventory.adjust", as: member, role: .staff,
                [(Streams.inventory(products[p].id), StockAdjusted(productId: products[p].id, delta: delta, reason: delta < 0 ? "damaged in storage" : "found in the count"))])
        }
    }

    /// The admin's daily catalog work: reprices (with compare-at prices for sales), delisting and relisting, new products.
    func adminWork() {
        if rng.chance(0.5) {
            let p = rng.below(products.count)
            let old = products[p].price
            let lower = rng.chance(0.5)
            let price = max(100, old + (lower ? -1 : 1) * old * rng.int64(5...20) / 100 / 100 * 100)
            products[p].price = price
            products[p].compareAt = lower && rng.chance(0.6) ? old : nil
            command(
                "product.reprice", as: admin, role: .admin,
                [(Streams.product(products[p].id), ProductRepriced(
                    productId: products[p].id, price: products[p].money, compareAtPrice: products[p].compareAt.map { Money($0, "BDT") }))])
        }
        let listed = products.indices.filter { products[$0].listed }
        if rng.chance(0.06) && listed.count > 12 {
            let p = rng.pick(listed)
            products[p].listed = false
            command("product.delist", as: admin, role: .admin, [(Streams.product(products[p].id), ProductDelisted(productId: products[p].id))])
        }
        let delisted = products.indices.filter { !products[$0].listed }
        if !delisted.isEmpty && rng.chance(0.3) {
            let p = rng.pick(delisted)
            products[p].listed = true
            command("product.relist", as: admin, role: .admin, [(Streams.product(products[p].id), ProductRelisted(productId: products[p].id))])
        }
        if rng.chance(0.3) && products.count < 400 { addProduct() }
    }

    /// `product.add` by the admin, then its first stock received by staff.
    private func addProduct() {
        let category = rng.pick(Names.categories)
        let name = "\(rng.pick(Names.productWords)) \(rng.pick(Names.productNouns[category]!))"
        let id = newID("pr")
        let price = rng.int64(2...60) * 5_000
        let compareAt: Int64? = rng.chance(0.25) ? price + rng.int64(1...5) * 5_000 : nil
        var tags: [String] = []
        for _ in 0..<rng.int(0...3) {
            let tag = rng.pick(Names.tags)
            if !tags.contains(tag) { tags.append(tag) }
        }
        let imageRef = "img_" + name.lowercased().split(separator: " ").joined(separator: "_")
        command(
            "product.add", as: admin, role: .admin,
            [(Streams.product(id), ProductListed(
                productId: id, name: name, price: Money(price, "BDT"), compareAtPrice: compareAt.map { Money($0, "BDT") },
                category: category, tags: tags, imageRef: imageRef))])
        var product = Product(id: id, name: name, category: category, imageRef: imageRef, tags: tags, price: price, compareAt: compareAt)
        let quantity = rng.int64(lowWater...(3 * lowWater))
        product.onHand = quantity
        products.append(product)
        command("inventory.receive", as: rng.pick(staff), role: .staff, [(Streams.inventory(id), StockReceived(productId: id, quantity: quantity))])
    }

    /// A popular listed product (the first ones sell most).
    private func popularProduct() -> Int? {
        for _ in 0..<4 {
            let p = rng.skewed(products.count, power: 1.5)
            if products[p].listed { return p }
        }
        return nil
    }

    /// Cart and favourites: adds, quantity changes, removals (often right after the add), clears.
    func shop(_ c: Int) {
        let owner = customers[c].id
        let cart = Streams.cart(owner)
        let roll = rng.below(100)
        switch roll {
        case 0..<45:
            guard let p = popularProduct() else { return }
            let current = customers[c].cart.first { $0.product == p }?.quantity ?? 0
            guard current < CartState.maxQuantity, current > 0 || customers[c].cart.count < 40 else { return }
            let quantity = min(CartState.maxQuantity - current, rng.int64(1...3))
            command("cart.add", as: owner, role: .customer, [(cart, CartItemAdded(ownerId: owner, productId: products[p].id, quantity: quantity))])
            if let i = customers[c].cart.firstIndex(where: { $0.product == p }) {
                customers[c].cart[i].quantity += quantity
            } else {
                customers[c].cart.append(CartLine(product: p, quantity: quantity))
            }
        case 45..<55:
            guard !customers[c].cart.isEmpty else { return }
            let i = rng.below(customers[c].cart.count)
            let quantity = rng.int64(1...5)
            guard quantity != customers[c].cart[i].quantity else { return }
            customers[c].cart[i].quantity = quantity
            command(
                "cart.set-quantity", as: owner, role: .customer,
                [(cart, CartItemQuantityChanged(ownerId: owner, productId: products[customers[c].cart[i].product].id, quantity: quantity))])
        case 55..<67:
            guard !customers[c].cart.isEmpty else { return }
            // Usually the line just added: the add-then-remove the activity history drops.
            let i = rng.chance(0.7) ? customers[c].cart.count - 1 : rng.below(customers[c].cart.count)
            let line = customers[c].cart.remove(at: i)
            command("cart.remove", as: owner, role: .customer, [(cart, CartItemRemoved(ownerId: owner, productId: products[line.product].id))])
        case 67..<70:
            guard !customers[c].cart.isEmpty else { return }
            customers[c].cart = []
            command("cart.clear", as: owner, role: .customer, [(cart, CartCleared(ownerId: owner, reason: .cleared))])
        case 70..<90:
            guard let p = popularProduct(), !customers[c].favourites.contains(p), customers[c].favourites.count < 100 else { return }
            customers[c].favourites.append(p)
            command("favourite.add", as: owner, role: .customer, [(Streams.favourites(owner), FavouriteAdded(ownerId: owner, productId: products[p].id))])
        default:
            guard !customers[c].favourites.isEmpty else { return }
            let p = customers[c].favourites.remove(at: rng.below(customers[c].favourites.count))
            command("favourite.remove", as: owner, role: .customer, [(Streams.favourites(owner), FavouriteRemoved(ownerId: owner, productId: products[p].id))])
        }
    }

    /// Places an order from the cart (first removing delisted products and trimming lines to the stock), or
    /// cancels one of the customer's open orders.
    func checkout(_ c: Int) {
        let owner = customers[c].id
        customers[c].openOrders.removeAll { orders[$0].status != .placed && orders[$0].status != .confirmed }
        if let o = customers[c].openOrders.last, rng.chance(0.04) {
            cancelOrder(o, by: owner, role: .customer, reason: rng.chance(0.5) ? "Ordered by mistake" : nil)
            return
        }
        guard !customers[c].cart.isEmpty else { return shop(c) }
        var i = 0
        while i < customers[c].cart.count {
            let line = customers[c].cart[i]
            let product = products[line.product]
            if !product.listed || product.available <= 0 {
                customers[c].cart.remove(at: i)
                command("cart.remove", as: owner, role: .customer, [(Streams.cart(owner), CartItemRemoved(ownerId: owner, productId: product.id))])
                continue
            }
            if product.available < line.quantity {
                customers[c].cart[i].quantity = product.available
                command(
                    "cart.set-quantity", as: owner, role: .customer,
                    [(Streams.cart(owner), CartItemQuantityChanged(ownerId: owner, productId: product.id, quantity: product.available))])
            }
            i += 1
        }
        guard !customers[c].cart.isEmpty else { return }
        let id = newID("o")
        let lines = customers[c].cart
        var events: [(StreamID, any DomainEvent)] = []
        var snapshots: [PurchaseLine] = []
        for line in lines {
            products[line.product].reserved += line.quantity
            events.append((Streams.inventory(products[line.product].id), StockReserved(productId: products[line.product].id, orderId: id, quantity: line.quantity)))
            snapshots.append(products[line.product].line(line.quantity))
        }
        let total = Money(snapshots.reduce(0) { $0 + $1.lineTotal.minorUnits }, "BDT")
        let slot = now - now % Self.hour + rng.int64(20...72) * Self.hour
        events.append(
            (Streams.order(id), OrderPlaced(
                orderId: id, customerId: owner, lines: snapshots, subtotal: total, total: total,
                deliveryAddress: "House \(rng.int(1...120)), Road \(rng.int(1...30)), \(rng.pick(Names.areas)), Dhaka",
                deliverySlot: Timestamp(microsecondsSinceEpoch: slot), recipientName: customers[c].name,
                recipientPhone: "+880 17\(rng.int(10...99)) \(rng.int(100_000...999_999))", payment: rng.chance(0.6) ? .cash : .cardOnDelivery)))
        events.append((Streams.cart(owner), CartCleared(ownerId: owner, reason: .checkedOut, reference: id)))
        command("order.place", as: owner, role: .customer, events)
        customers[c].cart = []
        orders.append(Order(id: id, customer: c, lines: lines))
        customers[c].openOrders.append(orders.count - 1)
        remember(c, .order, id)
        schedule(.orderStep(orders.count - 1), after: (10 * Self.minute)...(3 * Self.hour))
    }

    /// `order.cancel`: reservations released unless the order has shipped.
    private func cancelOrder(_ o: Int, by actor: String, role: Role, reason: String?) {
        var events: [(StreamID, any DomainEvent)] = [(Streams.order(orders[o].id), OrderCancelled(orderId: orders[o].id, cancelledBy: actor, reason: reason))]
        if orders[o].status != .shipped {
            for line in orders[o].lines {
                products[line.product].reserved -= line.quantity
                events.append((Streams.inventory(products[line.product].id), StockReleased(productId: products[line.product].id, orderId: orders[o].id, quantity: line.quantity)))
            }
        }
        command("order.cancel", as: actor, role: role, events)
        orders[o].status = .cancelled
    }

    /// Staff confirm, ship (fulfilling the reservations) and deliver an order; a few are cancelled on the way.
    func orderStep(_ o: Int) {
        let member = rng.pick(staff)
        let stream = Streams.order(orders[o].id)
        switch orders[o].status {
        case .placed:
            if rng.chance(0.02) { return cancelOrder(o, by: member, role: .staff, reason: "Out of delivery area") }
            command("order.confirm", as: member, role: .staff, [(stream, OrderConfirmed(orderId: orders[o].id, confirmedBy: member))])
            orders[o].status = .confirmed
            let tomorrow = now - now % Self.day + Self.day
            schedule(.orderStep(o), at: max(now + 2 * Self.hour, tomorrow + rng.int64((9 * Self.hour)...(17 * Self.hour))))
        case .confirmed:
            var events: [(StreamID, any DomainEvent)] = [(stream, OrderShipped(orderId: orders[o].id, shippedBy: member))]
            for line in orders[o].lines {
                products[line.product].reserved -= line.quantity
                products[line.product].onHand -= line.quantity
                events.append((Streams.inventory(products[line.product].id), StockReservationFulfilled(productId: products[line.product].id, orderId: orders[o].id, quantity: line.quantity)))
            }
            command("order.ship", as: member, role: .staff, events)
            orders[o].status = .shipped
            schedule(.orderStep(o), after: (20 * Self.hour)...(50 * Self.hour))
        case .shipped:
            if rng.chance(0.005) { return cancelOrder(o, by: member, role: .staff, reason: "Returned by the courier") }
            command("order.deliver", as: member, role: .staff, [(stream, OrderDelivered(orderId: orders[o].id, deliveredBy: member))])
            orders[o].status = .delivered
        case .delivered, .cancelled:
            return
        }
    }

    /// `pos.sell`: one to three products in stock, the stock sold and the sale.
    func tillSale() {
        var lines: [CartLine] = []
        for _ in 0..<rng.int(1...3) {
            guard let p = popularProduct(), products[p].available > 0, !lines.contains(where: { $0.product == p }) else { continue }
            lines.append(CartLine(product: p, quantity: min(products[p].available, rng.int64(1...3))))
        }
        guard !lines.isEmpty else { return }
        let id = newID("s")
        let member = rng.pick(staff)
        var events: [(StreamID, any DomainEvent)] = []
        var snapshots: [PurchaseLine] = []
        for line in lines {
            products[line.product].onHand -= line.quantity
            events.append((Streams.inventory(products[line.product].id), StockSoldInStore(productId: products[line.product].id, saleId: id, quantity: line.quantity)))
            snapshots.append(products[line.product].line(line.quantity))
        }
        let total = Money(snapshots.reduce(0) { $0 + $1.lineTotal.minorUnits }, "BDT")
        events.append((Streams.sale(id), InStoreSaleCompleted(saleId: id, soldBy: member, lines: snapshots, total: total, payment: rng.chance(0.5) ? .cash : .card)))
        command("pos.sell", as: member, role: .staff, events)
    }
}
