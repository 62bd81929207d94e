#!/usr/bin/env python3
"""API under load: N concurrent clients play M games through the REST API.

    # start our own gunicorn (uvicorn workers on config.asgi, like `make run`; --server gthread: WSGI):
    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/api_load.py
    # or hit a server that is already running:
    python bench/api_load.py --url http://127.0.0.1:8000

Why, with the measurements and history: docs/modules.md, `bench/api_load.py`.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import cpu_seconds, percentile, process_tree, save, table  # noqa: E402

API = "/api/v1"


class Client:
    """One keep-alive HTTP connection; records latency per request kind."""

    def __init__(self, base: str, stats: dict[str, list[float]] | None = None):
        u = urlparse(base)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 80
        self.conn: http.client.HTTPConnection | None = None
        self.stats = stats

    def request(
        self, method: str, path: str, token: str | None = None, body: object = None, kind: str | None = None
    ) -> tuple[int, object]:
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            t0 = time.perf_counter()
            try:
                self.conn.request(method, API + path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
            except (TimeoutError, ConnectionError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            elapsed = time.perf_counter() - t0
            if self.stats is not None and kind:
                self.stats[kind].append(elapsed)
            try:
                payload = json.loads(raw) if raw else None
            except ValueError:
                payload = raw
            return resp.status, payload
        raise AssertionError("unreachable")


def register(c: Client, prefix: str, n: int) -> list[dict]:
    users = []
    for i in range(n):
        name = f"{prefix}{i}"
        st, body = c.request(
            "POST", "/accounts/register", body={"username": name, "password": f"Bench-{uuid.uuid4().hex}"}
        )
        if st != 201:
            raise SystemExit(f"register {name}: HTTP {st} {body}")
        users.append({"id": body["id"], "username": name, "token": body["token"]})
    return users


def new_game(c: Client, users: list[dict], ruleset: str) -> dict:
    st, g = c.request("POST", "/games", users[0]["token"], {"ruleset": ruleset, "players": len(users)})
    if st != 201:
        raise RuntimeError(f"create game: HTTP {st} {g}")
    gid = g["id"]
    for u in users[1:]:
        st, body = c.request("POST", f"/games/{gid}/seats", u["token"], {})
        if st != 201:
            raise RuntimeError(f"join: HTTP {st} {body}")
    st, g = c.request("POST", f"/games/{gid}/start", users[0]["token"])
    if st != 200:
        raise RuntimeError(f"start: HTTP {st} {g}")
    return {"id": gid, "tokens": seat_tokens(g, users)}


def seat_tokens(game: dict, users: list[dict]) -> dict[int, str]:
    by_key = {}
    for u in users:
        by_key[str(u["id"])] = u["token"]
        by_key[u["username"]] = u["token"]
    out = {}
    for s in game.get("seats", []):
        who = s.get("user")
        if isinstance(who, dict):
            who = who.get("id", who.get("username"))
        if str(who) in by_key:
            out[int(s["index"])] = by_key[str(who)]
    if len(out) != len(users):  # unknown shape: fall back to join order
        out = {i: u["token"] for i, u in enumerate(users)}
    return out


def pick_command(legal: dict, rnd: random.Random) -> dict | None:
    options = legal.get("commands") or legal.get("samples") or []
    return rnd.choice(options) if options else None


def play(
    base: str,
    users: list[dict],
    ruleset: str,
    games: list[dict],
    stop: threading.Event,
    stats: dict[str, list[float]],
    counters: dict[str, int],
    lock: threading.Lock,
    seed: int,
    period: float | None = None,
) -> None:
    """One client's cycles. With `period` (seconds per cycle) the client paces
    itself: cycle k starts at start + phase + k × period (a random phase, so the
    clients do not start in step), or at once when it is behind; how late each
    cycle started is recorded as "cycle start lateness", so a server that cannot
    keep up shows as lateness instead of hiding in unsent requests."""
    c = Client(base, stats)
    setup_client = Client(base)  # replacement games: not timed
    rnd = random.Random(seed)
    local: dict[str, int] = defaultdict(int)
    i = 0
    first = time.perf_counter() + (rnd.uniform(0, period) if period else 0.0)
    while not stop.is_set() and games:
        if period:
            due = first + i * period
            wait = due - time.perf_counter()
            if wait > 0 and stop.wait(wait):
                break
            lateness = max(0.0, -wait)
            stats["cycle start lateness"].append(lateness)
        g = games[i % len(games)]
        i += 1
        st, meta = c.request("GET", f"/games/{g['id']}", g["tokens"][0], kind="GET game")
        if st != 200:
            local[f"GET game {st}"] += 1
            continue
        if meta.get("status") == "finished":
            local["games finished"] += 1
            games[games.index(g)] = new_game(setup_client, users, ruleset)
            continue
        pending = meta.get("pending") or []
        if not pending:
            local["nobody pending"] += 1
            continue
        seat = int(rnd.choice(pending)["seat"])
        token = g["tokens"].get(seat, g["tokens"][0])
        st, legal = c.request("GET", f"/games/{g['id']}/legal-commands", token, kind="GET legal-commands")
        cmd = pick_command(legal, rnd) if st == 200 else None
        if cmd is None:
            local["no legal command"] += 1
            continue
        st, _ = c.request(
            "POST",
            f"/games/{g['id']}/commands",
            token,
            {"command": cmd, "expected_version": legal["version"]},
            kind="POST commands",
        )
        local["commands ok" if st == 201 else f"commands HTTP {st}"] += 1
        st, _ = c.request("GET", f"/games/{g['id']}/view", token, kind="GET view")
        if st != 200:
            local[f"GET view {st}"] += 1
    with lock:
        for k, v in local.items():
            counters[k] += v


def refill(c: Client, games: list[dict], rnd: random.Random, users: list[dict], ruleset: str) -> list[tuple]:
    """For each game: (game, token, command, version) for a pending seat, from
    its legal commands now; a finished game is replaced (not timed)."""
    out = []
    for i, g in enumerate(games):
        st, meta = c.request("GET", f"/games/{g['id']}", g["tokens"][0])
        if st == 200 and meta.get("status") == "finished":
            games[i] = g = new_game(c, users, ruleset)
            st, meta = c.request("GET", f"/games/{g['id']}", g["tokens"][0])
        pending = (meta or {}).get("pending") or [] if st == 200 else []
        if not pending:
            continue
        token = g["tokens"].get(int(rnd.choice(pending)["seat"]), g["tokens"][0])
        st, legal = c.request("GET", f"/games/{g['id']}/legal-commands", token)
        cmd = pick_command(legal, rnd) if st == 200 else None
        if cmd is not None:
            out.append((g, token, cmd, legal["version"]))
    return out


def run_post_only(
    base: str, args: argparse.Namespace, users: list[dict], ruleset: str, all_games: list[dict], cpu
):
    """Rounds of refill (untimed) and post (timed) phases; returns (stats, counters, timed seconds, cpu shares)."""
    stats: dict[str, list[float]] = defaultdict(list)
    counters: dict[str, int] = defaultdict(int)
    lock = threading.Lock()
    shares = [all_games[i :: args.clients] for i in range(args.clients)]
    go, done = threading.Barrier(args.clients + 1), threading.Barrier(args.clients + 1)
    stop = threading.Event()

    def client(i: int) -> None:
        setup, timed, rnd = Client(base), Client(base, stats), random.Random(i)
        local: dict[str, int] = defaultdict(int)
        while True:
            todo = refill(setup, shares[i], rnd, users, ruleset)
            go.wait()
            if stop.is_set():
                break
            for g, token, cmd, version in todo:
                st, _ = timed.request(
                    "POST",
                    f"/games/{g['id']}/commands",
                    token,
                    {"command": cmd, "expected_version": version},
                    kind="POST commands",
                )
                local["commands ok" if st == 201 else f"commands HTTP {st}"] += 1
            done.wait()
        with lock:
            for k, v in local.items():
                counters[k] += v

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(args.clients)]
    for t in threads:
        t.start()
    timed = 0.0
    server_cpu = 0.0
    while timed < args.seconds:
        go.wait()  # every client has refilled
        cpu.start()
        t0 = time.perf_counter()
        done.wait()  # every client has posted its round
        timed += time.perf_counter() - t0
        shares_now = cpu.stop()
        server_cpu += shares_now["server"] * (time.perf_counter() - t0) * (os.cpu_count() or 1)
    stop.set()
    go.wait()
    for t in threads:
        t.join(timeout=60)
    return stats, counters, timed, server_cpu


def choose_ruleset(c: Client, token: str, wanted: str) -> tuple[str, int]:
    st, body = c.request("GET", "/rulesets", token)
    items = body if isinstance(body, list) else (body or {}).get("results", [])
    served = {r["id"]: r for r in items}
    if wanted != "auto":
        if wanted not in served:
            raise SystemExit(f"ruleset {wanted!r} not served (served: {sorted(served)})")
        return wanted, int(served[wanted]["min_players"])
    for rid in ("rising-sun", "toy-auction", *sorted(served)):
        if rid in served:
            return rid, int(served[rid]["min_players"])
    raise SystemExit("the server serves no ruleset")


# ---- our own server ------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(workers: int, threads: int, server: str = "asgi") -> tuple[subprocess.Popen, str]:
    """gunicorn as `make run` and compose serve (asgi: uvicorn workers on config.asgi,
    `threads` is WEB_THREADS), or the threaded WSGI server (gthread on config.wsgi)."""
    port = free_port()
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # the load comes from a handful of users on one IP: lift the rate limits
            "THROTTLE_ANON": "1000000/min",
            "THROTTLE_USER": "1000000/min",
            "THROTTLE_REGISTER": "1000000/min",
            "THROTTLE_PRESS": "1000000/min",
            "LOG_LEVEL": "WARNING",
        }
    )
    py = sys.executable
    subprocess.run([py, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    if server == "asgi":
        if threads is not None:
            env["WEB_THREADS"] = str(threads)
        kind = ["config.asgi:application", "-k", "uvicorn_worker.UvicornWorker"]
    else:
        kind = ["config.wsgi:application", "-k", "gthread", "--threads", str(threads or 8)]
    proc = subprocess.Popen(
        [
            py,
            "-m",
            "gunicorn",
            *kind,
            "-c",
            str(ROOT / "bench" / "gunicorn_bench.py"),
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{port}",
            "--no-control-socket",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit("gunicorn exited during startup")
        try:
            st, _ = Client(base).request("GET", "/health?probe=ready")  # no Celery worker here
            if st == 200:
                return proc, base
        except OSError:
            pass
        time.sleep(0.3)
    stop_server(proc)
    raise SystemExit("gunicorn did not become healthy in 60 s")


def stop_server(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="existing server (default: start gunicorn on DATABASE_URL)")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument(
        "--ruleset", default="auto", help="ruleset id; auto = rising-sun if served, else toy-auction"
    )
    ap.add_argument("--save-as", default="api_load", help="results name under var/bench/ (default api_load)")
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers when serving (default 2)")
    ap.add_argument(
        "--threads",
        type=int,
        default=None,
        help="threads per gunicorn worker (default: the server's WEB_THREADS default, 3; gthread: 8)",
    )
    ap.add_argument(
        "--client-procs",
        type=int,
        default=4,
        help="mixed mode: processes the client threads are spread over (default 4)",
    )
    ap.add_argument(
        "--server",
        choices=["asgi", "gthread"],
        default="asgi",
        help="asgi: uvicorn workers, as make run and compose serve (default); gthread: threaded WSGI",
    )
    ap.add_argument(
        "--rate",
        type=float,
        default=None,
        help="mixed mode: cycles/s offered by all clients together, each pacing itself "
        "(default: none, every client starts its next cycle at once: the server's capacity)",
    )
    ap.add_argument(
        "--mode",
        choices=["mixed", "post-only"],
        default="mixed",
        help="mixed: the four-request cycle; post-only: timed phases of POSTs only (see above)",
    )
    args = ap.parse_args()
    if args.threads is None:  # what the server would run with (api/asgi_sync.py)
        args.threads = int(os.environ.get("WEB_THREADS", "3")) if args.server == "asgi" else 8

    proc = None
    base = args.url
    if base is None:
        proc, base = start_server(args.workers, args.threads, args.server)
        print(
            f"gunicorn ({args.server}) -w {args.workers}, {args.threads} threads each, on {base} "
            f"(DATABASE_URL={os.environ.get('DATABASE_URL', 'sqlite default')})",
            flush=True,
        )
    try:
        return run(base, args, proc.pid if proc is not None else None)
    finally:
        if proc is not None:
            stop_server(proc)


# ---- who used the CPU: clients (this process), server (gunicorn tree), PostgreSQL ----------------


def _pg_backends() -> list[int]:
    """PIDs of the PostgreSQL backends serving our database (same machine only)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return []
    try:
        import psycopg  # only for this measurement: the clients themselves use the stdlib

        with psycopg.connect(url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()"
            ).fetchall()
        return [r[0] for r in rows]
    except Exception:
        return []


def _machine_cpu() -> float:
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait


class CpuShares:
    """CPU seconds per party over the timed run, as shares of the machine's cores.
    PostgreSQL counts the backends connected at the end (persistent connections;
    a server that reconnects per request leaves its short-lived backends out)."""

    def __init__(self, server_pid: int | None):
        self.server_pid = server_pid
        self.pg0: dict[int, float] = {}
        self.clients: list[int] = []  # the bench's own child processes (stream readers, probes)

    def _snap(self) -> dict[str, float]:
        server = sum(cpu_seconds(p) for p in process_tree(self.server_pid)) if self.server_pid else 0.0
        t = os.times()
        children = sum(cpu_seconds(p) for p in self.clients)
        return {"server": server, "clients": t.user + t.system + children, "machine": _machine_cpu()}

    def start(self) -> None:
        self.t0, self.s0 = time.perf_counter(), self._snap()
        self.pg0 = {p: cpu_seconds(p) for p in _pg_backends()}

    def stop(self) -> dict[str, float]:
        s1, elapsed = self._snap(), time.perf_counter() - self.t0
        pg = sum(cpu_seconds(p) - self.pg0.get(p, 0.0) for p in _pg_backends())
        cores = os.cpu_count() or 1
        used = {k: s1[k] - self.s0[k] for k in s1}
        used["postgres"] = pg
        used["other"] = max(0.0, used["machine"] - used["server"] - used["clients"] - pg)
        return {k: round(v / elapsed / cores, 3) for k, v in used.items()}


GOALS = {  # issue 11.4: (request kind, percentile key, limit in ms)
    "single": [("POST commands", "p50_ms", 4.0), ("GET view", "p50_ms", 2.0)],
    "mixed": [(k, "p99_ms", 100.0) for k in ("POST commands", "GET view", "GET legal-commands", "GET game")],
}


def verdicts(summary: dict, ok_per_s: float, clients: int) -> list[str]:
    """Each goal of issue 11.4 that applies to this run, met or missed by how much."""
    out = []
    if clients == 1:
        goals = GOALS["single"]
    else:
        goals = GOALS["mixed"]
        cycles = ok_per_s
        out.append(
            f"cycles/s {cycles:.1f} (goal >= 150): "
            + ("met" if cycles >= 150 else f"NOT met, {150 / max(cycles, 1e-9):.1f}x short")
        )
    for kind, key, limit in goals:
        v = summary.get(kind, {}).get(key, float("nan"))
        out.append(
            f"{kind} {key[:-3]} {v:.1f} ms (goal <= {limit:g} ms): "
            + ("met" if v <= limit else f"NOT met, {v / limit:.1f}x over")
        )
    return out


def setup_games(base: str, users: list, ruleset: str, n: int) -> list[dict]:
    """n new games, created by 10 client threads (setup is not timed)."""
    all_games: list[dict] = []
    glock = threading.Lock()

    def setup_some(k: int) -> None:
        sc = Client(base)
        for _ in range(k):
            g = new_game(sc, users, ruleset)
            with glock:
                all_games.append(g)

    per = [n // 10 + (1 if i < n % 10 else 0) for i in range(10)]
    ts = [threading.Thread(target=setup_some, args=(k,)) for k in per]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return all_games


def _client_process(
    base: str, users: list, ruleset: str, shares: list, first: int, conn, period: float | None = None
) -> None:
    stats: dict[str, list[float]] = defaultdict(list)
    counters: dict[str, int] = defaultdict(int)
    lock = threading.Lock()
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=play,
            args=(base, users, ruleset, share, stop, stats, counters, lock, first + i, period),
            daemon=True,
        )
        for i, share in enumerate(shares)
    ]
    conn.recv()  # go
    for t in threads:
        t.start()
    conn.recv()  # stop
    stop.set()
    for t in threads:
        t.join(timeout=60)
    conn.send((dict(stats), dict(counters)))


def play_in_processes(base, users, ruleset, shares, args, cpu) -> tuple[dict, dict, float, dict]:
    """The clients' threads, spread over --client-procs processes: in one process
    fifty client threads queue for its GIL, and the bench measures its own
    client's contention as the server's latency (real clients are separate
    programs). Returns the merged latencies, counters, elapsed time and CPU shares."""
    ctx = multiprocessing.get_context("fork")  # no thread of ours runs at this point
    # --rate R: each of the N clients runs one cycle every N / R seconds
    period = len(shares) / args.rate if args.rate else None
    procs = max(1, min(args.client_procs, len(shares)))
    pipes, children = [], []
    for k in range(procs):
        mine = list(range(k, len(shares), procs))
        conn, child = ctx.Pipe()
        proc = ctx.Process(
            target=_client_process,
            args=(base, users, ruleset, [shares[i] for i in mine], k * 1000, child, period),
            daemon=True,
        )
        proc.start()
        pipes.append(conn)
        children.append(proc)
    cpu.clients = [p.pid for p in children]
    cpu.start()
    t0 = time.perf_counter()
    for conn in pipes:
        conn.send("go")
    time.sleep(args.seconds)
    for conn in pipes:
        conn.send("stop")
    stats: dict[str, list[float]] = defaultdict(list)
    counters: dict[str, int] = defaultdict(int)
    for conn in pipes:
        got_stats, got_counters = conn.recv()
        for k, v in got_stats.items():
            stats[k] += v
        for k, v in got_counters.items():
            counters[k] += v
    elapsed = time.perf_counter() - t0
    cpu_shares = cpu.stop()
    for proc in children:
        proc.join(10)
    return stats, counters, elapsed, cpu_shares


def run(base: str, args: argparse.Namespace, server_pid: int | None = None) -> int:
    c = Client(base)
    prefix = f"b{uuid.uuid4().hex[:8]}u"
    probe = register(c, prefix + "p", 1)[0]
    ruleset, players = choose_ruleset(c, probe["token"], args.ruleset)
    users = register(c, prefix, players)
    print(f"setting up {args.games} {ruleset} games with {players} players ...", flush=True)
    t0 = time.perf_counter()
    all_games = setup_games(base, users, ruleset, args.games)
    if len(all_games) != args.games:
        raise SystemExit("game setup failed")
    print(
        f"  setup took {time.perf_counter() - t0:.1f}s; {args.clients} clients play for {args.seconds:.0f}s ...",
        flush=True,
    )

    if args.mode == "post-only":
        return report_post_only(
            args,
            ruleset,
            players,
            *run_post_only(base, args, users, ruleset, all_games, CpuShares(server_pid)),
        )
    shares = [all_games[i :: args.clients] for i in range(args.clients)]
    cpu = CpuShares(server_pid)
    stats, counters, elapsed, cpu_shares = play_in_processes(base, users, ruleset, shares, args, cpu)

    ok = counters.get("commands ok", 0)
    rows = []
    summary: dict[str, dict[str, float]] = {}
    for kind in ("POST commands", "GET view", "GET legal-commands", "GET game"):
        lat = [x * 1000 for x in stats.get(kind, [])]
        summary[kind] = {
            "count": len(lat),
            "per_s": len(lat) / elapsed,
            "p50_ms": percentile(lat, 50),
            "p90_ms": percentile(lat, 90),
            "p99_ms": percentile(lat, 99),
        }
        rows.append(
            [
                kind,
                len(lat),
                len(lat) / elapsed,
                summary[kind]["p50_ms"],
                summary[kind]["p90_ms"],
                summary[kind]["p99_ms"],
            ]
        )
    print()
    print(table(["request", "count", "per second", "p50 (ms)", "p90 (ms)", "p99 (ms)"], rows))
    print(f"\ncommands accepted: {ok} in {elapsed:.1f}s = {ok / elapsed:,.1f} commands/s")
    late = sorted(x * 1000 for x in stats.get("cycle start lateness", []))
    pacing = None
    if args.rate:
        pacing = {
            "offered_per_s": args.rate,
            "cycles": len(late),
            "late_p50_ms": percentile(late, 50),
            "late_p99_ms": percentile(late, 99),
            "late_max_ms": late[-1] if late else float("nan"),
            "late_over_100ms": sum(1 for x in late if x > 100) / max(len(late), 1),
        }
        print(
            f"paced at {args.rate:g} cycles/s offered: cycle start lateness p50 {pacing['late_p50_ms']:.1f} ms, "
            f"p99 {pacing['late_p99_ms']:.1f} ms, max {pacing['late_max_ms']:.1f} ms; "
            f"{pacing['late_over_100ms']:.1%} of cycles started > 100 ms late"
        )
    print("counters: " + ", ".join(f"{k}={v}" for k, v in sorted(counters.items())))
    print(
        f"CPU during the run, share of {os.cpu_count()} cores: "
        + ", ".join(f"{k} {v:.0%}" for k, v in cpu_shares.items())
    )
    n_requests = sum(v["count"] for v in summary.values())
    per_request = {
        k: round(cpu_shares[k] * elapsed * (os.cpu_count() or 1) * 1000 / max(n_requests, 1), 2)
        for k in ("server", "postgres", "clients")
    }
    print(
        "CPU per request (ms): "
        + ", ".join(f"{k} {v}" for k, v in per_request.items())
        + "  — what a request costs, whatever else the machine runs"
    )
    goals = verdicts(summary, ok / elapsed, args.clients)
    for line in goals:
        print("goal: " + line)
    path = save(
        args.save_as,
        {
            "ruleset": ruleset,
            "players": players,
            "clients": args.clients,
            "games": args.games,
            "seconds": elapsed,
            "workers": args.workers,
            "threads": args.threads,
            "server": args.server if args.url is None else "external",
            "database": (os.environ.get("DATABASE_URL") or "sqlite").split(":", 1)[0]
            if args.url is None
            else "external",
            "commands_per_s": ok / elapsed,
            "pacing": pacing,
            "requests": summary,
            "counters": dict(counters),
            "cpu_shares": cpu_shares,
            "cpu_ms_per_request": per_request,
            "goals": goals,
        },
    )
    print(f"wrote {path}")
    return 0


def report_post_only(
    args, ruleset: str, players: int, stats, counters, timed: float, server_cpu: float
) -> int:
    ok = counters.get("commands ok", 0)
    lat = [x * 1000 for x in stats.get("POST commands", [])]
    per_s = ok / max(timed, 1e-9)
    summary = {
        "count": len(lat),
        "p50_ms": percentile(lat, 50),
        "p90_ms": percentile(lat, 90),
        "p99_ms": percentile(lat, 99),
    }
    cpu_ms = round(server_cpu * 1000 / max(len(lat), 1), 2)
    print(
        f"\nPOST-only: {ok} commands accepted in {timed:.1f}s of post phases = {per_s:,.1f} commands/s; "
        f"p50 {summary['p50_ms']:.1f} ms, p99 {summary['p99_ms']:.1f} ms; server CPU {cpu_ms} ms per POST"
    )
    print("counters: " + ", ".join(f"{k}={v}" for k, v in sorted(counters.items())))
    goal = f"POST-only {per_s:.1f} commands/s (goal >= 250): " + (
        "met" if per_s >= 250 else f"NOT met, {250 / max(per_s, 1e-9):.1f}x short"
    )
    print("goal: " + goal)
    path = save(
        args.save_as,
        {
            "mode": "post-only",
            "ruleset": ruleset,
            "players": players,
            "clients": args.clients,
            "games": args.games,
            "seconds": timed,
            "workers": args.workers,
            "threads": args.threads,
            "server": args.server if args.url is None else "external",
            "commands_per_s": per_s,
            "post": summary,
            "counters": dict(counters),
            "server_cpu_ms_per_post": cpu_ms,
            "goals": [goal],
        },
    )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
