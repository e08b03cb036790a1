"""What the measured commands act on: real ids found in the store, and fresh ones made where a command needs them.

The subjects are the store's busiest: the customer with the longest cart, the pet with the longest history, the
products with the longest inventory streams, so a command pays what history costs. They come from one read of the
log's last events (`log read --all --backward --limit W`): a stream's version there is its whole length, and an
order, booking or vet request placed in that window has its whole story in it, so its status is exact. The cost of
finding them does not grow with the store.

Pools hold one-use items (an order to confirm, a booking to complete): first what the window found, then, for the
shortfall, items made by untimed setup commands in one `exec` before the measured runs.
"""

import datetime as dt

from stores import FRESH_ADMIN, FRESH_CUSTOMERS, FRESH_STAFF, SetupError, line, log

WINDOW = 100_000
MID_WINDOW = 20_000


def _scan(events):
    """Per stream: length (last version + 1), last event type, the customer acting on it, and the data of its
    first event when the window holds it."""
    streams, last_time = {}, None
    for e in events:
        s = streams.get(e["stream"])
        if s is None:  # reading backward: the first one seen is the stream's last event
            s = streams[e["stream"]] = {"length": e["version"] + 1, "last": e["type"], "customer": None,
                                        "first": None, "types": []}
            t = e["metadata"].get("occurredAt")
            if t and (last_time is None or t > last_time):
                last_time = t
        if s["customer"] is None and e["metadata"].get("role") == "customer":
            s["customer"] = e["metadata"].get("actor")
        s["types"].append(e["type"])
        if e["version"] == 0:
            s["first"] = e["data"]
    return streams, last_time


def window(ctx, limit, start=None):
    args = ["log", "read", "--all", "--backward", "--limit", str(limit)]
    if start is not None:
        args += ["--from", str(start)]
    return _scan(ctx.iter_json_lines(*args))


def _by_length(streams, prefix):
    return sorted((s for s in streams.items() if s[0].startswith(prefix)), key=lambda s: -s[1]["length"])


def _active(ctx, user):
    if user is None or user.startswith("guest-"):
        return False
    last = ctx.read_json_lines("log", "read", "--stream", f"account-{user}", "--backward", "--limit", "1")
    return bool(last) and last[0]["type"] != "AccountDeleted"


def _pick(ctx, candidates, owner_of, skip):
    for stream, s in candidates[:50]:
        owner = owner_of(stream, s)
        if owner not in skip and _active(ctx, owner):
            return stream, owner
    return None, None


def entities(ctx, streams, staff):
    """The subjects of the entity views and commands, chosen from a window's streams."""
    found = {}
    cart, found["customer"] = _pick(ctx, _by_length(streams, "cart-"), lambda st, s: st[len("cart-"):], staff)
    pet, found["owner"] = _pick(ctx, [p for p in _by_length(streams, "pet-") if p[1]["last"] != "PetRemoved"],
                                lambda st, s: (s["first"] or {}).get("ownerId") or s["customer"], staff)
    found["pet"] = pet[len("pet-"):] if pet else None
    conv, found["conversation_owner"] = _pick(
        ctx, _by_length(streams, "conversation-"),
        lambda st, s: (s["first"] or {}).get("ownerId") or s["customer"], staff)
    found["conversation"] = conv[len("conversation-"):] if conv else None
    orders = [(st, s) for st, s in _by_length(streams, "order-") if s["first"]]
    mine = [st for st, s in orders if s["first"].get("customerId") == found["customer"]]
    found["order"] = (mine or [st for st, _ in orders] or [None])[0]
    found["order"] = found["order"] and found["order"][len("order-"):]
    return found


ORDER_STATUS = {"OrderPlaced": "placed-order", "OrderConfirmed": "confirmed-order", "OrderShipped": "shipped-order"}
BOOKING_STATUS = {"BookingRequested": "requested-booking", "BookingRescheduled": "requested-booking",
                  "BookingConfirmed": "confirmed-booking"}


def discover(ctx):
    """Fills ctx.subjects and ctx.pools from the store; starts the business clock after its last business time."""
    roles = ctx.read_json_lines("log", "read", "--stream", "roles")
    admins, staff = [], []
    for e in roles:
        user, role = e["data"].get("userId"), e["data"].get("role", "admin")
        group = admins if role == "admin" else staff
        if e["type"] in ("AdminBootstrapped", "RoleGranted") and user not in group:
            group.append(user)
        elif e["type"] == "RoleRevoked" and user in group:
            group.remove(user)
    streams, last_time = window(ctx, WINDOW)
    ctx.start_clock(dt.datetime.fromisoformat(last_time))
    subjects = entities(ctx, streams, set(admins) | set(staff))
    subjects.update(admin=admins[0], staff=staff[0] if staff else admins[0], products=_products(ctx, streams))
    ctx.subjects = subjects
    for stream, s in streams.items():
        kind = None
        if stream.startswith("order-") and s["first"]:
            kind = ORDER_STATUS.get(s["last"])
            item = {"orderId": stream[len("order-"):], "customer": s["first"].get("customerId")}
        elif stream.startswith("booking-") and s["first"]:
            kind = BOOKING_STATUS.get(s["last"])
            item = {"bookingId": stream[len("booking-"):], "owner": s["first"].get("ownerId")}
        elif stream.startswith("vet-") and s["first"] and "VetRequestClosed" not in s["types"]:
            kind, item = "open-vet-request", {"requestId": stream[len("vet-"):]}
        if kind:
            ctx.pools.setdefault(kind, []).append(item)
    log(f"{ctx.label}: subjects {', '.join(f'{k}={v}' for k, v in subjects.items() if k != 'products')}; "
        f"found {', '.join(f'{len(v)} {k}' for k, v in sorted(ctx.pools.items()))}")
    _restock(ctx)


def discover_fresh(ctx):
    """The fresh store's subjects are the ones seed_fresh made."""
    ctx.subjects = {"admin": FRESH_ADMIN, "staff": FRESH_STAFF, "customer": FRESH_CUSTOMERS[0],
                    "owner": FRESH_CUSTOMERS[0], "pet": "p-sb-rex", "conversation": "c-sb-first",
                    "conversation_owner": FRESH_CUSTOMERS[0], "order": "o-sb-first", "products": _products(ctx, {})}
    _restock(ctx)


def _products(ctx, streams):
    """Listed products, the longest inventory streams first."""
    state = {}
    for e in ctx.read_json_lines("log", "read", "--category", "product"):
        state[e["data"]["productId"]] = e["type"] != "ProductDelisted"
    listed = [p for p, on in state.items() if on]
    return sorted(listed, key=lambda p: -streams.get(f"inventory-{p}", {"length": 0})["length"])


def _restock(ctx):
    """Stock for every order and till sale the run makes on the busiest products: received once, untimed."""
    ctx.exec([line("inventory.receive", ctx.subjects["admin"], productId=p, quantity=2000)
              for p in ctx.subjects["products"][:6]])


def mid_entities(ctx, position):
    """Subjects for time travel to `position`: the busiest ones among the events just before it."""
    streams, _ = window(ctx, MID_WINDOW, start=position)
    staff = {ctx.subjects["admin"], ctx.subjects["staff"]}
    return entities(ctx, streams, staff)


# Making one-use items when the store has too few.

def _make(ctx, kind, n):
    s = ctx.subjects
    owner, pet, customer, staff, admin = s["owner"], s["pet"], s["customer"], s["staff"], s["admin"]
    a, b = s["products"][0], s["products"][1 % len(s["products"])]
    if kind in ("requested-booking", "confirmed-booking", "started-booking", "conversation-subject"):
        items = [{"bookingId": ctx.new_id("b"), "owner": owner, "slot": ctx.slot()} for _ in range(n)]
        lines = [line("booking.request", owner, petId=pet, service="nail-trim", slot=i["slot"], bookingId=i["bookingId"])
                 for i in items]
        if kind in ("confirmed-booking", "started-booking"):
            lines += [line("booking.confirm", staff, bookingId=i["bookingId"]) for i in items]
        ctx.exec(lines)
        return items
    stages = ("placed-order", "confirmed-order", "shipped-order", "delivered-order", "paid-order")
    if kind in stages:
        items = [{"orderId": ctx.new_id("o"), "customer": customer, "productId": a} for _ in range(n)]
        lines = []
        for i in items:
            lines += [line("cart.add", customer, productId=a, quantity=1), line("cart.add", customer, productId=b),
                      line("order.place", customer, orderId=i["orderId"], **delivery(ctx))]
        for step in ("confirm", "ship", "deliver", "collect-payment")[: stages.index(kind)]:
            lines += [line(f"order.{step}", staff, orderId=i["orderId"]) for i in items]
        ctx.exec(lines)
        return items
    if kind == "open-vet-request":
        items = [{"requestId": ctx.new_id("v")} for _ in range(n)]
        ctx.exec([line("vet.submit", owner, petId=pet, symptoms="Scratching a lot", urgency="normal",
                       requestId=i["requestId"]) for i in items])
        return items
    if kind in ("account", "staff-member"):
        items = [{"user": ctx.new_id("u")} for _ in range(n)]
        lines = [line("account.signup", i["user"], name="Bench User", email=ctx.new_email()) for i in items]
        if kind == "staff-member":
            lines += [line("role.grant", admin, userId=i["user"], role="staff") for i in items]
        ctx.exec(lines)
        return items
    if kind == "pet":
        items = [{"petId": ctx.new_id("p")} for _ in range(n)]
        ctx.exec([line("pet.add", owner, petId=i["petId"], name="Bench", species="cat") for i in items])
        return items
    if kind in ("product", "delisted-product"):
        items = [{"productId": ctx.new_id("pr")} for _ in range(n)]
        lines = [line("product.add", admin, productId=i["productId"], name="Bench Brush", price="45000 BDT",
                      category="grooming", tags=["bench"], imageRef="img_bench") for i in items]
        if kind == "delisted-product":
            lines += [line("product.delist", admin, productId=i["productId"]) for i in items]
        ctx.exec(lines)
        return items
    captured = {"session": ("account.login", customer, {}, "sessionId"),
                "open-issue": ("pet.open-health-issue", owner, {"petId": pet, "title": "Limping"}, "issueId"),
                "active-plan": ("pet.start-treatment", owner,
                                {"petId": pet, "kind": "supplement", "name": "Fish oil", "dosage": "1 capsule",
                                 "schedule": "daily", "startDate": ctx.clock()}, "planId")}
    if kind in captured:
        command, actor, fields, key = captured[kind]
        answers = ctx.exec([line(command, actor, **fields) for _ in range(n)])
        return [{key: a["events"][0]["data"][key]} for a in answers]
    raise SetupError(f"no way to make a {kind}")


def ensure(ctx, kind, n):
    """At least n items of `kind` in the pool, making the shortfall in one untimed exec."""
    pool = ctx.pools.setdefault(kind, [])
    if len(pool) < n:
        pool.extend(_make(ctx, kind, n - len(pool)))


def take(ctx, kind):
    ensure(ctx, kind, 1)
    return ctx.pools[kind].pop(0)


def delivery(ctx):
    return {"deliveryAddress": "House 7, Road 3, Dhaka", "deliverySlot": ctx.slot(), "recipientName": "Bench",
            "recipientPhone": "+880 1711 100037", "payment": "cash"}
