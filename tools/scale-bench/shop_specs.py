"""Specs of the shop's commands (catalog, inventory, carts, favourites, orders, till, messages); see command_specs.

Cart and order commands act on the customer with the store's longest cart and the products with the longest
inventory streams: a checkout reads every product's inventory stream, which is what grows with the business.
"""

from command_specs import _admin, _customer, _product, _staff, _state, spec
from fixtures import delivery, ensure, take
from stores import FRESH_ADMIN, line


@spec("product.add")
def _(c, i, n):
    return _admin(c), {"productId": c.new_id("pr"), "name": "Bench Grooming Brush", "price": "45000 BDT",
                       "category": "grooming", "tags": ["bench", "gift"], "imageRef": "img_bench_brush"}


@spec("product.reprice")
def _(c, i, n):
    return _admin(c), {"productId": _product(c), "price": f"{62000 + 100 * c.serial()} BDT"}


@spec("product.edit")
def _(c, i, n):
    return _admin(c), {"productId": _product(c), "description": f"Bench description {c.serial()}"}


@spec("product.delist")
def _(c, i, n):
    ensure(c, "product", n - i)
    return _admin(c), {"productId": take(c, "product")["productId"]}


@spec("product.relist")
def _(c, i, n):
    ensure(c, "delisted-product", n - i)
    return _admin(c), {"productId": take(c, "delisted-product")["productId"]}


@spec("catalog.seed")
def _(c, i, n):
    return FRESH_ADMIN if c.events == 0 else _admin(c), {}


@spec("inventory.receive")
def _(c, i, n):
    return _admin(c), {"productId": _product(c), "quantity": 12}


@spec("inventory.adjust")
def _(c, i, n):
    return _admin(c), {"productId": _product(c), "delta": -1, "reason": "damaged in storage"}


@spec("cart.add")
def _(c, i, n):
    if i == 0:
        c.exec([line("cart.clear", _customer(c))], tolerate=("invalid-state", "rejected", "not-found"))
    return _customer(c), {"productId": _product(c, i), "quantity": 1}


@spec("cart.set-quantity")
def _(c, i, n):
    if i == 0:
        c.exec([line("cart.add", _customer(c), productId=_product(c), quantity=1)])
    return _customer(c), {"productId": _product(c), "quantity": 2 + i % 90}


@spec("cart.remove")
def _(c, i, n):
    c.exec([line("cart.add", _customer(c), productId=_product(c, 1), quantity=1)])
    return _customer(c), {"productId": _product(c, 1)}


@spec("cart.clear")
def _(c, i, n):
    c.exec([line("cart.add", _customer(c), productId=_product(c, 2), quantity=1)])
    return _customer(c), {}


@spec("favourite.add")
def _(c, i, n):
    c.exec([line("favourite.remove", _customer(c), productId=_product(c, 3))],
           tolerate=("not-found", "invalid-state", "rejected"))
    return _customer(c), {"productId": _product(c, 3)}


@spec("favourite.remove")
def _(c, i, n):
    c.exec([line("favourite.add", _customer(c), productId=_product(c, 4))],
           tolerate=("already-exists", "invalid-state", "rejected"))
    return _customer(c), {"productId": _product(c, 4)}


@spec("order.place")
def _(c, i, n):
    c.exec([line("cart.add", _customer(c), productId=_product(c, 0), quantity=1),
            line("cart.add", _customer(c), productId=_product(c, 1), quantity=2)])
    return _customer(c), {"orderId": c.new_id("o"), **delivery(c)}


@spec("order.confirm")
def _(c, i, n):
    ensure(c, "placed-order", n - i)
    return _staff(c), {"orderId": take(c, "placed-order")["orderId"]}


@spec("order.ship")
def _(c, i, n):
    ensure(c, "confirmed-order", n - i)
    return _staff(c), {"orderId": take(c, "confirmed-order")["orderId"]}


@spec("order.deliver")
def _(c, i, n):
    ensure(c, "shipped-order", n - i)
    return _staff(c), {"orderId": take(c, "shipped-order")["orderId"]}


@spec("order.cancel")
def _(c, i, n):
    ensure(c, "placed-order", n - i)
    return _staff(c), {"orderId": take(c, "placed-order")["orderId"], "reason": "Customer asked by phone"}


@spec("order.collect-payment")
def _(c, i, n):
    ensure(c, "delivered-order", n - i)
    return _staff(c), {"orderId": take(c, "delivered-order")["orderId"]}


@spec("order.return")
def _(c, i, n):
    ensure(c, "delivered-order", n - i)
    order = take(c, "delivered-order")
    return _staff(c), {"orderId": order["orderId"], "lines": [{"productId": order["productId"], "quantity": 1}],
                       "reason": "Torn bag"}


@spec("order.refund")
def _(c, i, n):
    ensure(c, "paid-order", n - i)
    return _staff(c), {"orderId": take(c, "paid-order")["orderId"], "amount": "100 BDT", "reason": "Goodwill"}


@spec("pos.sell")
def _(c, i, n):
    return _staff(c), {"lines": [{"productId": _product(c, 0), "quantity": 1}, {"productId": _product(c, 2),
                                                                                 "quantity": 2}],
                       "payment": "cash"}


def _conversation(c):
    """The store's busiest conversation with an active owner, else one the harness starts about its own booking."""
    def make():
        if c.subjects.get("conversation"):
            return c.subjects["conversation"], c.subjects["conversation_owner"]
        booking = take(c, "conversation-subject")
        conversation = c.new_id("c")
        c.exec([line("conversation.start", booking["owner"], subject="booking", subjectId=booking["bookingId"],
                     conversationId=conversation)])
        return conversation, booking["owner"]
    return _state(c, "conversation", make)


def _staff_messages(c, key, n):
    """n messages from staff in the conversation, for its owner to mark delivered and read one by one."""
    def make():
        conversation, _ = _conversation(c)
        ids = [c.new_id("m") for _ in range(n)]
        answers = c.exec([line("conversation.send", _staff(c), conversationId=conversation, clientMessageId=m,
                               text="Your pet is ready for pick-up.") for m in ids])
        return [a["events"][0]["data"]["messageId"] for a in answers]
    return _state(c, key, make)


@spec("conversation.start")
def _(c, i, n):
    ensure(c, "conversation-subject", n - i + 1)
    booking = take(c, "conversation-subject")
    return booking["owner"], {"subject": "booking", "subjectId": booking["bookingId"], "conversationId": c.new_id("c")}


@spec("conversation.send")
def _(c, i, n):
    conversation, owner = _conversation(c)
    return owner, {"conversationId": conversation, "clientMessageId": c.new_id("m"), "text": "Is 10:00 still fine?"}


@spec("conversation.mark-delivered")
def _(c, i, n):
    conversation, owner = _conversation(c)
    return owner, {"conversationId": conversation, "messageId": _staff_messages(c, "delivered", n)[i]}


@spec("conversation.mark-read")
def _(c, i, n):
    conversation, owner = _conversation(c)
    return owner, {"conversationId": conversation, "messageId": _staff_messages(c, "read", n)[i]}
