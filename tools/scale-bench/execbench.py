"""`pawtrail exec` of a long JSON Lines script in a realistic mix, on the fresh store and on a copy of a big one.

The script is generated here, seeded, and is the same file for every store: new customers sign up, log in, fill
carts and check out, add favourites and pets, and book grooming. The generator tracks what each line makes (who
exists, what is in whose cart, which products are favourites, each pet's booked slots), so every line is valid on
any store that has the bundled catalog listed; the stock its orders take is received first, in an untimed exec
of its own. Each line carries its own `now` (a second apart, after both stores' business time), so slots lie ahead.

The rate is commands over the wall time of the whole process; the halves are timed by when answer lines arrive on
the pipe (the CLI may buffer its answers, so they arrive in chunks: the halves are exact to a chunk).
"""

import collections
import datetime as dt
import json
import os
import random
import shutil

import proc
from stores import copy_store, iso, line, log

MIX = [("account.signup", 8), ("account.login", 12), ("cart.add", 38), ("favourite.add", 14), ("pet.add", 8),
       ("booking.request", 8), ("order.place", 12)]
SPECIES = ["dog", "cat", "bird", "rabbit"]


def generate(n, products, start, seed=42):
    """n exec lines and the units each product's orders take."""
    rng = random.Random(seed)
    users, carts, favourites, pets, booked = [], {}, {}, [], [0]
    ordered = collections.Counter()
    kinds, weights = zip(*MIX)
    out = []
    for i in range(n):
        now = start + dt.timedelta(seconds=i)
        kind = "account.signup" if len(users) < 20 else rng.choices(kinds, weights)[0]
        u = rng.choice(users) if users else None
        if kind == "order.place":
            full = [v for v in rng.sample(users, min(8, len(users))) if carts.get(v)]
            u = full[0] if full else None
            kind = kind if u else "cart.add"
            u = u or rng.choice(users)
        if kind == "favourite.add" and len(favourites.setdefault(u, set())) >= len(products):
            kind = "cart.add"
        if kind == "booking.request" and not pets:
            kind = "pet.add"
        if kind == "cart.add" and len(carts.setdefault(u, {})) >= 100:
            kind = "order.place"
        fields = {}
        if kind == "account.signup":
            u = f"u-ex{len(users) + 1}"
            users.append(u)
            fields = {"name": f"Exec Customer {len(users)}", "email": f"ex{len(users)}@exec.example",
                      "language": rng.choice(["en-US", "bn-BD"])}
        elif kind == "cart.add":
            cart = carts.setdefault(u, {})
            p = rng.choice(products)
            q = min(rng.choice([1, 1, 1, 2, 3]), 99 - cart.get(p, 0))
            if q <= 0:
                p = next((x for x in products if cart.get(x, 0) < 99), None)
                q = 1
            cart[p] = cart.get(p, 0) + q
            fields = {"productId": p, "quantity": q}
        elif kind == "favourite.add":
            p = rng.choice([x for x in products if x not in favourites[u]])
            favourites[u].add(p)
            fields = {"productId": p}
        elif kind == "pet.add":
            pet = f"p-ex{len(pets) + 1}"
            pets.append((pet, u))
            fields = {"petId": pet, "name": f"Pet {len(pets)}", "species": rng.choice(SPECIES)}
        elif kind == "booking.request":
            pet, u = rng.choice(pets)
            # Each booking two hours after the one before, whatever the pet: no service runs longer, so bookings
            # never overlap a pet's other bookings nor need more groomers than the salon has.
            slot = _grid(now + dt.timedelta(days=2)) + dt.timedelta(minutes=120 * booked[0])
            booked[0] += 1
            fields = {"petId": pet, "service": rng.choice(["bath", "nail-trim", "full-groom"]), "slot": iso(slot)}
        elif kind == "order.place":
            for p, q in carts.pop(u).items():
                ordered[p] += q
            fields = {"deliveryAddress": "House 7, Road 3, Dhaka", "recipientName": "Exec Customer",
                      "deliverySlot": iso(_grid(now + dt.timedelta(days=1))), "recipientPhone": "+880 1711 100037",
                      "payment": rng.choice(["cash", "card-on-delivery"])}
        out.append({**line(kind, u, **fields), "now": iso(now)})
    return out, ordered


def _grid(t):
    """The next slot of the 30-minute grid at or after t."""
    t = t.replace(second=0, microsecond=0)
    return t + dt.timedelta(minutes=(30 - t.minute % 30) % 30)


def run_on(label, source, script_path, ordered, admin, scratch, pawtrail, expect):
    """One exec of the script on a new copy of `source`, with the stock received first (untimed)."""
    store = copy_store(source, os.path.join(scratch, "exec", label))
    restock = "".join(json.dumps(line("inventory.receive", admin, productId=p, quantity=q + 10)) + "\n"
                      for p, q in ordered.items())
    r = proc.run([pawtrail, "--store", store, "exec", "-"], stdin_bytes=restock.encode())
    if not r.ok:
        return {"status": "setup-failed", "error": r.stdout.decode()[:500] + r.error()}
    log(f"exec: {expect} commands on {label}...")
    r = proc.run([pawtrail, "--store", store, "exec", script_path], arrivals=True,
                 progress=lambda lines: log(f"exec on {label}: {lines} of {expect} answers so far"))
    failures, answered = collections.Counter(), 0
    for raw in r.stdout.splitlines():
        if raw.strip():
            answered += 1
            answer = json.loads(raw)
            if not answer.get("ok"):
                failures[answer.get("error", "?")] += 1
    out = {"status": "ok" if r.ok and not failures and answered == expect else "failed", "rc": r.rc,
           "commands": expect, "answered": answered, "failures": dict(failures), "seconds": r.seconds,
           "rate": expect / r.seconds, "rss_mb": r.maxrss_kb / 1024}
    if r.rc != 0 and not failures:
        out["error"] = r.error()
    out.update(_halves(r.arrivals, expect))
    log(f"exec on {label}: {out['rate']:.0f} commands/s, {answered} answers, failures {dict(failures) or 'none'}")
    shutil.rmtree(store, ignore_errors=True)
    return out


def _halves(arrivals, n):
    """Rates of the first and second half of the answers, by when they reached the pipe."""
    half = n // 2
    t_half = next((t for lines, t in arrivals if lines >= half), None)
    t_end = next((t for lines, t in arrivals if lines >= n), None)
    if not arrivals or t_half is None or t_end is None or t_end <= t_half:
        return {"halves": None}
    first_chunk = arrivals[0][1]
    chunks = len(arrivals)
    return {"halves": {"first_rate": half / t_half, "second_rate": (n - half) / (t_end - t_half),
                       "first_answer_s": first_chunk, "chunks": chunks,
                       "note": "by arrival of answer lines on the pipe (the first half includes start-up and open)"}}


def bench(stores_to_run, n, scratch, pawtrail):
    """stores_to_run: [(label, source store, admin, listed products, business clock start)]."""
    products = sorted(set.intersection(*[{p for p in s[3] if p.startswith("product_")} for s in stores_to_run]))
    start = max(s[4] for s in stores_to_run) + dt.timedelta(days=1)
    script, ordered = generate(n, products, start)
    os.makedirs(os.path.join(scratch, "exec"), exist_ok=True)
    path = os.path.join(scratch, "exec", "script.jsonl")
    with open(path, "w") as f:
        for entry in script:
            f.write(json.dumps(entry) + "\n")
    mix = collections.Counter(entry["command"] for entry in script)
    results = {"commands": n, "mix": dict(mix.most_common()), "products": len(products), "stores": {}}
    for label, source, admin, _, _ in stores_to_run:
        results["stores"][label] = run_on(label, source, path, ordered, admin, scratch, pawtrail, n)
    return results
