"""One spec per domain command: what a measured run of it does, so that every run succeeds on the store.

A spec is called once per run, as fn(ctx, i, n) for run i of n, and returns (actor, fields): the command runs as
`pawtrail AREA VERB --as ACTOR --now T` with the fields as options. Before it returns, a spec may run untimed setup
(a session to log out of, a cart line to remove) through ctx or fixtures; only the command itself is timed.
Repeatable commands act on the store's busiest subjects every run; one-use ones take a fresh item each run.
"""

import datetime as dt
import hashlib

from fixtures import ensure, take
from stores import FRESH_ADMIN

SPECS = {}
# Commands that can succeed only once per store, and the template store each fresh run starts from.
ONE_SHOT = {"admin.bootstrap": "bare", "catalog.seed": "admin-only"}


def spec(name):
    def register(fn):
        SPECS[name] = fn
        return fn
    return register


def _customer(c):
    return c.subjects["customer"]


def _owner(c):
    return c.subjects["owner"]


def _pet(c):
    return {"petId": c.subjects["pet"]}


def _staff(c):
    return c.subjects["staff"]


def _admin(c):
    return c.subjects["admin"]


def _product(c, i=0):
    products = c.subjects["products"]
    return products[i % min(len(products), 5)]


def _state(c, key, make):
    """A value made once per store and kept for every run (a booking to reschedule, a request to answer)."""
    if key not in c.spec_state:
        c.spec_state[key] = make()
    return c.spec_state[key]


# Accounts.

@spec("account.signup")
def _(c, i, n):
    return c.new_id("u"), {"name": "Bench User", "email": c.new_email(), "language": "en-US"}


@spec("account.login")
def _(c, i, n):
    return _customer(c), {}


@spec("account.logout")
def _(c, i, n):
    ensure(c, "session", n - i)
    return _customer(c), {"sessionId": take(c, "session")["sessionId"]}


@spec("account.restore-session")
def _(c, i, n):
    session = _state(c, "restore", lambda: take(c, "session")["sessionId"])
    return _customer(c), {"sessionId": session}


@spec("account.request-password-reset")
def _(c, i, n):
    return _customer(c), {}


@spec("account.change-password")
def _(c, i, n):
    return _customer(c), {"reauthenticatedAt": c.clock(-60)}


@spec("account.change-email")
def _(c, i, n):
    return _customer(c), {"newEmail": c.new_email(), "reauthenticatedAt": c.clock(-60)}


@spec("account.update-profile")
def _(c, i, n):
    return _customer(c), {"name": f"Bench Name {c.serial()}", "address": f"House {i + 1}, Road 3, Dhaka"}


@spec("account.change-image")
def _(c, i, n):
    digest = hashlib.sha256(c.new_id("image").encode()).hexdigest()
    return _customer(c), {"contentHash": digest, "byteSize": 200_000 + i}


@spec("account.change-language")
def _(c, i, n):
    return _customer(c), {"language": ("bn-BD", "en-US")[i % 2]}


@spec("account.delete")
def _(c, i, n):
    ensure(c, "account", n - i)
    return take(c, "account")["user"], {"reauthenticatedAt": c.clock(-60)}


@spec("admin.bootstrap")
def _(c, i, n):
    return FRESH_ADMIN if c.events == 0 else _customer(c), {}


@spec("role.grant")
def _(c, i, n):
    ensure(c, "account", n - i)
    return _admin(c), {"userId": take(c, "account")["user"], "role": "staff"}


@spec("role.revoke")
def _(c, i, n):
    ensure(c, "staff-member", n - i)
    return _admin(c), {"userId": take(c, "staff-member")["user"], "role": "staff"}


# Pets.

@spec("pet.add")
def _(c, i, n):
    return _owner(c), {"petId": c.new_id("p"), "name": "Milo", "species": "dog", "breed": "Beagle", "ageMonths": 14}


@spec("pet.edit")
def _(c, i, n):
    return _owner(c), {**_pet(c), "weightGrams": 5000 + c.serial()}


@spec("pet.remove")
def _(c, i, n):
    ensure(c, "pet", n - i)
    return _owner(c), {"petId": take(c, "pet")["petId"]}


@spec("pet.record-vaccination")
def _(c, i, n):
    return _owner(c), {**_pet(c), "vaccine": "Rabies", "givenOn": c.clock(-86400), "nextDue": c.clock(365 * 86400)}


@spec("pet.open-health-issue")
def _(c, i, n):
    return _owner(c), {**_pet(c), "title": "Itchy skin", "notes": "Noticed this week"}


@spec("pet.resolve-health-issue")
def _(c, i, n):
    ensure(c, "open-issue", n - i)
    return _owner(c), {**_pet(c), "issueId": take(c, "open-issue")["issueId"]}


@spec("pet.set-vet")
def _(c, i, n):
    return _owner(c), {**_pet(c), "vetName": "Dr. Ruhul Amin", "clinic": "Uttara Pet Point", "phone": "+880 2 8578814"}


@spec("pet.start-treatment")
def _(c, i, n):
    return _owner(c), {**_pet(c), "kind": "medication", "name": "Antibiotic", "dosage": "1 tablet",
                       "schedule": "twice a day", "startDate": c.clock(), "endDate": c.clock(14 * 86400)}


@spec("pet.end-treatment")
def _(c, i, n):
    ensure(c, "active-plan", n - i)
    return _owner(c), {**_pet(c), "planId": take(c, "active-plan")["planId"]}


@spec("pet.set-next-vet-appointment")
def _(c, i, n):
    return _owner(c), {**_pet(c), "at": c.slot(), "reason": "Annual check-up"}


@spec("pet.set-food-plan")
def _(c, i, n):
    return _owner(c), {**_pet(c), "food": "Chicken and rice", "portionGrams": 80 + i, "feedingTimes": ["07:30", "18:00"]}


@spec("pet.log-weight")
def _(c, i, n):
    return _owner(c), {**_pet(c), "weightGrams": 6000 + i}


# Grooming and vet.

# The shop's settings: each run puts the other value first (untimed), so that the timed command writes, and leaves
# the store as it found it (no reader required, the days UTC) for the views measured after.

@spec("shop.set-read-policy")
def _(c, i, n):
    c.exec_one("shop.set-read-policy", _admin(c), requireViewer=True)
    return _admin(c), {}


@spec("shop.set-time-zone")
def _(c, i, n):
    c.exec_one("shop.set-time-zone", _admin(c), timeZone="Europe/London")
    return _admin(c), {"timeZone": "UTC"}


@spec("account.set-notifications")
def _(c, i, n):
    return _customer(c), {"kind": "messages", "setting": "off" if c.serial() % 2 else "on"}


@spec("outbox.mark-sent")
def _(c, i, n):
    return _staff(c), {"notificationIds": [f"bench.{c.new_id('n')}"]}


@spec("booking.request")
def _(c, i, n):
    return _owner(c), {**_pet(c), "service": "nail-trim", "slot": c.slot(), "bookingId": c.new_id("b")}


@spec("booking.confirm")
def _(c, i, n):
    ensure(c, "requested-booking", n - i)
    return _staff(c), {"bookingId": take(c, "requested-booking")["bookingId"]}


def _started(slot):
    """A moment just after a slot starts: completing a booking, or recording a no-show, waits for it."""
    t = dt.datetime.strptime(slot, "%Y-%m-%dT%H:%M:%SZ") + dt.timedelta(minutes=1)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


@spec("booking.complete")
def _(c, i, n):
    ensure(c, "started-booking", n - i)
    booking = take(c, "started-booking")
    return _staff(c), {"bookingId": booking["bookingId"], "now": _started(booking["slot"])}


@spec("booking.no-show")
def _(c, i, n):
    ensure(c, "started-booking", n - i)
    booking = take(c, "started-booking")
    return _staff(c), {"bookingId": booking["bookingId"], "now": _started(booking["slot"])}


@spec("salon.set-service")
def _(c, i, n):
    return _admin(c), {"service": "bath", "name": "Bath & blow-dry", "price": f"{80000 + 100 * c.serial()} BDT",
                       "durationMinutes": 60, "groomers": 1}


@spec("salon.set-capacity")
def _(c, i, n):
    return _admin(c), {"groomers": 3 + c.serial() % 2}


@spec("booking.cancel")
def _(c, i, n):
    ensure(c, "requested-booking", n - i)
    return _staff(c), {"bookingId": take(c, "requested-booking")["bookingId"], "reason": "Pet is unwell"}


@spec("booking.reschedule")
def _(c, i, n):
    booking = _state(c, "reschedule", lambda: take(c, "conversation-subject"))
    return booking["owner"], {"bookingId": booking["bookingId"], "slot": c.slot()}


@spec("vet.submit")
def _(c, i, n):
    return _owner(c), {**_pet(c), "symptoms": "Not eating", "urgency": "normal", "requestId": c.new_id("v")}


@spec("vet.answer")
def _(c, i, n):
    request = _state(c, "answer", lambda: take(c, "open-vet-request"))
    return _staff(c), {"requestId": request["requestId"], "answer": "Try a bland diet and tell us how it goes."}


@spec("vet.close")
def _(c, i, n):
    ensure(c, "open-vet-request", n - i)
    return _staff(c), {"requestId": take(c, "open-vet-request")["requestId"]}
