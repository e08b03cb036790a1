"""The stores the benchmark measures, and the context every measurement runs in.

A store size is `fresh` (an empty store the harness seeds with just what commands need) or an event count
(`200k`, `2m`, `10m`, or digits): the seeded year of `pawtrail-projections-bench generate`, reused when its
workload is on disk. Commands append, so every measurement runs on a working copy made with `cp -r`; the generated
store is never touched.
"""

import datetime as dt
import json
import os
import shutil
import subprocess
import sys

import proc

SEED_WORKLOAD = "seed42-days365"
# The projections benchmark keeps the same seeded year here; reusing it saves generating 2M events (two minutes).
SHARED_WORKLOADS = "./.scratch/projections-bench"


def log(message):
    print(f"[scale-bench {dt.datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


def parse_size(text):
    """`fresh` -> 0; `200k` -> 200000; `2m` -> 2000000; digits as they are."""
    t = text.strip().lower()
    if t == "fresh":
        return 0
    scale = {"k": 1_000, "m": 1_000_000}.get(t[-1:], 1)
    digits = t[:-1] if scale > 1 else t
    if not digits.replace(".", "", 1).isdigit():
        raise ValueError(f"a size is fresh or an event count such as 200k or 2m, not '{text}'")
    return int(float(digits) * scale)


def size_label(events):
    if events == 0:
        return "fresh"
    if events % 1_000_000 == 0:
        return f"{events // 1_000_000}M"
    if events % 1_000 == 0:
        return f"{events // 1_000}k"
    return str(events)


def workload_store(bins, events, bench_dir):
    """The generated store of `events` events: reused from this benchmark's directory, else from the projections
    benchmark's, else generated (into this benchmark's directory) by pawtrail-projections-bench."""
    name = f"workload-{events}-{SEED_WORKLOAD}"
    ours = os.path.join(bench_dir, "workloads")
    for parent in (ours, SHARED_WORKLOADS):
        if os.path.exists(os.path.join(parent, name, "manifest.json")):
            break
    else:
        parent = ours
        log(f"generating the seeded workload of {events} events (2M take about two minutes)")
    os.makedirs(parent, exist_ok=True)
    # generate reuses a matching workload (same generator version, seed, size) and regenerates a stale one.
    subprocess.run([bins["pawtrail-projections-bench"], "generate", "--events", str(events), "--dir", parent],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(parent, name, "manifest.json")) as f:
        manifest = json.load(f)
    return os.path.join(parent, name, "store"), manifest


def warm_template(bins, source, bench_dir, label):
    """A copy of a generated store as a store in use would be: the generator appends through the library, not
    through commands, so it leaves no snapshots of stream states, which every command keeps current. The copy gets
    them from `pawtrail snapshots build` (untimed here; its seconds are returned and reported)."""
    target = os.path.join(bench_dir, "workloads", f"{label}-warm", "store")
    copy_store(source, target)
    log(f"{label}: building the snapshots a store in use has (pawtrail snapshots build)")
    r = proc.run([bins["pawtrail"], "--store", target, "snapshots", "build", "--json"])
    if not r.ok:
        raise SetupError(f"snapshots build on {label} failed: {r.error()}")
    built = json.loads(r.stdout.decode().strip().splitlines()[-1])
    built["seconds"] = r.seconds
    built["rss_mb"] = r.maxrss_kb / 1024
    return target, built


def copy_store(source, target):
    """A working copy (`cp -r`), replacing whatever was there, written back to disk (`sync`) before it is used.

    A store in use does not sit on hundreds of megabytes of unwritten pages. Without the sync, the commands timed
    right after copying the 2M store paid for writing the copy back (15 ms a sign-up instead of 12)."""
    if os.path.exists(target):
        shutil.rmtree(target)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    subprocess.run(["cp", "-r", source, target], check=True)
    os.sync()
    return target


class SetupError(Exception):
    """A command the harness ran to prepare a measured one (untimed) failed."""


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Ctx:
    """One store under measurement: where it is, the business clock, fresh ids, and untimed helpers.

    Every command the harness runs passes `--now` from one clock that starts after the store's last business time
    (`occurredAt`) and moves a second per command, so rules about future slots hold and business time never goes
    back. Slots come from a grid (30 minutes, UTC) starting three days later, one slot never used twice.
    """

    def __init__(self, label, events, store, bins, scratch):
        self.label, self.events, self.store, self.bins, self.scratch = label, events, store, bins, scratch
        self.pawtrail = bins["pawtrail"]
        self.counter = 0
        self.ticks = 0
        self.slots = 0
        self.base = None
        self.subjects = {}
        self.pools = {}
        self.spec_state = {}

    def start_clock(self, last_business_time):
        start = max(last_business_time, dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc))
        self.base = (start + dt.timedelta(hours=1)).replace(minute=0, second=0, microsecond=0)

    def now(self):
        self.ticks += 1
        return iso(self.base + dt.timedelta(seconds=self.ticks))

    def clock(self, seconds=0):
        """The current business time (of the last command) shifted by `seconds`, without moving the clock."""
        return iso(self.base + dt.timedelta(seconds=self.ticks + seconds))

    def slot(self):
        self.slots += 1
        return iso(self.base + dt.timedelta(days=3, minutes=30 * self.slots))

    def serial(self):
        """A number never handed out before on this store (for values that must change every run)."""
        self.counter += 1
        return self.counter

    def new_id(self, prefix):
        return f"{prefix}-sb{self.serial()}"

    def new_email(self):
        return f"sb{self.serial()}.{self.label.lower()}@bench.example"

    # Untimed helpers.

    def iter_json_lines(self, *args, store=None):
        """The JSON lines a read verb prints (`--json` added), parsed one at a time."""
        r = proc.run([self.pawtrail, "--store", store or self.store, *args, "--json"])
        if not r.ok:
            raise SetupError(f"pawtrail {' '.join(args)}: {r.error()}")
        return (json.loads(line) for line in r.stdout.splitlines() if line.strip())

    def read_json_lines(self, *args, store=None):
        return list(self.iter_json_lines(*args, store=store))

    def exec(self, lines, tolerate=(), store=None):
        """Runs command lines in one `pawtrail exec -` and returns the answers. A failed answer raises SetupError
        unless its error kind is in `tolerate` (a toggle whose state the harness does not track)."""
        if not lines:
            return []
        text = "".join(json.dumps({**line, "now": line.get("now") or self.now()}) + "\n" for line in lines)
        r = proc.run([self.pawtrail, "--store", store or self.store, "exec", "-"], stdin_bytes=text.encode())
        answers = [json.loads(a) for a in r.stdout.splitlines() if a.strip()]
        if len(answers) != len(lines):
            raise SetupError(f"exec answered {len(answers)} of {len(lines)} setup lines: {r.error()}")
        for line, answer in zip(lines, answers):
            if not answer["ok"] and answer.get("error") not in tolerate:
                raise SetupError(f"setup {line['command']} failed: {answer.get('error')}: {answer.get('message')}")
        return answers

    def exec_one(self, command, actor, **fields):
        return self.exec([line(command, actor, **fields)])[0]


def line(command, actor, **fields):
    """An exec line; fields whose value is None are left out."""
    return {"command": command, "as": actor, **{k: v for k, v in fields.items() if v is not None}}


FRESH_ADMIN, FRESH_STAFF = "u-sb-admin", "u-sb-staff"
FRESH_CUSTOMERS = ["u-sb-ann", "u-sb-bob", "u-sb-cat"]


def seed_fresh(ctx):
    """Seeds an empty store with what commands need: an admin, the catalog, a staff member, a few customers, one
    pet, one order, a favourite and a conversation. Leaves templates: `seeded` (that store, for exec), and for the
    commands that succeed once per store, `bare` (one account, no admin: admin.bootstrap) and `admin-only` (an
    admin, no catalog: catalog.seed)."""
    ctx.start_clock(dt.datetime.now(dt.timezone.utc))
    templates = os.path.join(ctx.scratch, "templates")
    if os.path.exists(templates):
        shutil.rmtree(templates)
    signup = lambda u, name: line("account.signup", u, name=name, email=ctx.new_email(), language="en-US")
    ctx.exec([signup(FRESH_ADMIN, "Ada Admin")], store=os.path.join(templates, "bare"))
    copy_store(os.path.join(templates, "bare"), os.path.join(templates, "admin-only"))
    ctx.exec([line("admin.bootstrap", FRESH_ADMIN)], store=os.path.join(templates, "admin-only"))
    copy_store(os.path.join(templates, "admin-only"), ctx.store)
    ctx.exec([line("catalog.seed", FRESH_ADMIN), signup(FRESH_STAFF, "Sam Staff"),
              line("role.grant", FRESH_ADMIN, userId=FRESH_STAFF, role="staff")]
             + [signup(u, u[5:].title()) for u in FRESH_CUSTOMERS]
             + [line("pet.add", FRESH_CUSTOMERS[0], petId="p-sb-rex", name="Rex", species="dog", breed="Beagle",
                     ageMonths=30)])
    # One of each entity for the views (and their time travel to the middle of the log).
    ann = FRESH_CUSTOMERS[0]
    ctx.exec([line("cart.add", ann, productId="product_cat_001", quantity=2),
              line("cart.add", ann, productId="product_dog_001"),
              line("order.place", ann, orderId="o-sb-first", deliveryAddress="House 7, Road 3, Dhaka",
                   deliverySlot=ctx.slot(), recipientName="Ann", recipientPhone="+880 1711 100037", payment="cash"),
              line("cart.add", ann, productId="product_cat_002"),
              line("favourite.add", ann, productId="product_cat_003"),
              line("conversation.start", ann, subject="order", subjectId="o-sb-first", conversationId="c-sb-first"),
              line("conversation.send", ann, conversationId="c-sb-first", clientMessageId="m-sb-first",
                   text="When will it arrive?")])
    copy_store(ctx.store, os.path.join(templates, "seeded"))
    ctx.templates = {name: os.path.join(templates, name) for name in ("bare", "admin-only", "seeded")}
