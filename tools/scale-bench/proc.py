"""Running one CLI process and measuring it: wall time and the child's own peak resident memory.

Every figure of the benchmark is a whole process, as a user runs it: the clock starts before the spawn and stops
when wait4 returns, so it includes the binary's start-up, opening the store and writing the answer.

Peak memory is ru_maxrss from wait4. Linux keeps a process's peak across exec, and posix_spawn execs in a child that
shares its parent's memory, so a child spawned by this harness after it parsed a large read would report the
harness's peak, not its own (tried: 322 MB for `pawtrail --help` after the harness touched 300 MB). So every process
is spawned by a small helper forked when the harness starts (about 10 MB, less than any pawtrail process), which
never holds outputs: they go to files, and it sends back only the figures.
"""

import json
import math
import os
import shutil
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass


@dataclass
class Run:
    argv: list
    rc: int
    seconds: float
    maxrss_kb: int
    stdout: bytes
    stderr: bytes
    # exec only: (answer lines seen so far, seconds since the spawn), one pair per chunk read from the pipe.
    arrivals: list = None

    @property
    def ok(self):
        return self.rc == 0

    def error(self):
        """The first `Error: ...` line (or the first line) of stderr, for reports."""
        lines = self.stderr.decode("utf-8", "replace").strip().splitlines()
        for line in lines:
            if line.startswith("Error:"):
                return line[len("Error:"):].strip()[:300]
        return lines[0][:300] if lines else f"exit {self.rc}, nothing on stderr"


def _helper_loop(requests, answers):
    """The helper's whole life: read a request line, spawn, wait, answer with the figures."""
    with os.fdopen(requests, "r") as inp, os.fdopen(answers, "w") as out:
        for line in inp:
            req = json.loads(line)
            stdin_fd = os.open(req["stdin"] or os.devnull, os.O_RDONLY)
            out_fd = os.open(req["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            err_fd = os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            pipe_r = pipe_w = None
            if req["arrivals"]:
                pipe_r, pipe_w = os.pipe()
            actions = [(os.POSIX_SPAWN_DUP2, stdin_fd, 0),
                       (os.POSIX_SPAWN_DUP2, pipe_w if pipe_w is not None else out_fd, 1),
                       (os.POSIX_SPAWN_DUP2, err_fd, 2)]
            arrivals = []
            start = time.perf_counter()
            try:
                pid = os.posix_spawn(req["argv"][0], req["argv"], os.environ, file_actions=actions)
            except OSError as e:
                out.write(json.dumps({"rc": 127, "seconds": 0, "maxrss": 0, "spawn_error": str(e)}) + "\n")
                out.flush()
                continue
            if pipe_w is not None:
                os.close(pipe_w)
                lines = 0
                while True:
                    chunk = os.read(pipe_r, 1 << 16)
                    if not chunk:
                        break
                    lines += chunk.count(b"\n")
                    arrivals.append((lines, time.perf_counter() - start))
                    os.write(out_fd, chunk)
                os.close(pipe_r)
            _, status, usage = os.wait4(pid, 0)
            seconds = time.perf_counter() - start
            for fd in (stdin_fd, out_fd, err_fd):
                os.close(fd)
            out.write(json.dumps({"rc": os.waitstatus_to_exitcode(status), "seconds": seconds,
                                  "maxrss": usage.ru_maxrss, "arrivals": arrivals}) + "\n")
            out.flush()


def _watch(path, done, progress):
    lines, offset = 0, 0
    while not done.wait(10):
        try:
            with open(path, "rb") as f:
                f.seek(offset)
                chunk = f.read()
        except FileNotFoundError:
            continue
        offset += len(chunk)
        lines += chunk.count(b"\n")
        progress(lines)


class Spawner:
    """The parent's side of the helper. start() must run before the harness grows."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="scale-bench-")
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(req_w)
            os.close(ans_r)
            try:
                _helper_loop(req_r, ans_w)
            finally:
                os._exit(0)
        os.close(req_r)
        os.close(ans_w)
        self.requests = os.fdopen(req_w, "w")
        self.answers = os.fdopen(ans_r, "r")
        self.counter = 0

    def run(self, argv, stdin_bytes=None, stdin_path=None, arrivals=False, progress=None):
        """progress: called every 10 s with the number of lines the child has written to stdout so far."""
        self.counter += 1
        base = os.path.join(self.dir, str(self.counter))
        if stdin_bytes is not None:
            stdin_path = base + ".in"
            with open(stdin_path, "wb") as f:
                f.write(stdin_bytes)
        req = {"argv": [str(a) for a in argv], "stdin": stdin_path, "stdout": base + ".out",
               "stderr": base + ".err", "arrivals": arrivals}
        self.requests.write(json.dumps(req) + "\n")
        self.requests.flush()
        done = threading.Event()
        if progress:
            threading.Thread(target=_watch, args=(req["stdout"], done, progress), daemon=True).start()
        ans = json.loads(self.answers.readline())
        done.set()
        if "spawn_error" in ans:
            raise OSError(f"cannot run {argv[0]}: {ans['spawn_error']}")
        outputs = []
        for suffix in (".out", ".err"):
            with open(base + suffix, "rb") as f:
                outputs.append(f.read())
            os.unlink(base + suffix)
        if stdin_bytes is not None:
            os.unlink(stdin_path)
        return Run(req["argv"], ans["rc"], ans["seconds"], ans["maxrss"], outputs[0], outputs[1],
                   ans["arrivals"] if arrivals else None)

    def close(self):
        self.requests.close()
        os.waitpid(self.pid, 0)
        shutil.rmtree(self.dir, ignore_errors=True)


_spawner = None


def start():
    global _spawner
    if _spawner is None:
        _spawner = Spawner()
    return _spawner


def run(argv, stdin_bytes=None, stdin_path=None, arrivals=False, progress=None):
    return start().run(argv, stdin_bytes=stdin_bytes, stdin_path=stdin_path, arrivals=arrivals, progress=progress)


def p50(values):
    return statistics.median(values) if values else None


def p99(values):
    """Nearest-rank 99th percentile: with fewer than 100 runs it is the slowest run."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def summary(runs):
    """p50/p99 of wall time (ms) over the successful runs, the first run apart, peak RSS (MB), failures."""
    good = [r for r in runs if r.ok]
    ms = [r.seconds * 1000 for r in good]
    return {
        "runs": len(runs),
        "ok": len(good),
        "p50_ms": p50(ms),
        "p99_ms": p99(ms),
        "first_ms": runs[0].seconds * 1000 if runs and runs[0].ok else None,
        "all_ms": [round(r.seconds * 1000, 2) for r in runs],
        "rss_mb": max(r.maxrss_kb for r in good) / 1024 if good else None,
        "errors": sorted({r.error() for r in runs if not r.ok}),
    }
