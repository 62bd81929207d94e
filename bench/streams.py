#!/usr/bin/env python3
"""Live streams under load (issue 11 item 1): 1,000 open SSE streams over 100
users and 100 games while commands are posted.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/streams.py
    python bench/streams.py --streams 200 --games 20 --users 20 --seconds 10   # smaller

Starts its own server (gunicorn + uvicorn workers on config.asgi, like `make
run` and compose) and runs the same command load twice for --seconds:

Why, with the measurements and history: docs/modules.md, `bench/streams.py`.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_load import (  # noqa: E402
    Client,
    CpuShares,  # noqa: E402
    choose_ruleset,
    free_port,
    new_game,
    pick_command,
    register,
)
from bench.common import percentile, save, table  # noqa: E402

# ---- the server -------------------------------------------------------------------


def start_server(workers: int, cap: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_LEVEL": "WARNING",
            "THROTTLE_ANON": "1000000/min",
            "THROTTLE_USER": "1000000/min",
            "THROTTLE_REGISTER": "1000000/min",
            "THROTTLE_PRESS": "1000000/min",
            # 1,000 streams over 100 users is 10 each: above the default cap of 8
            "STREAMS_PER_ACCOUNT": str(cap),
        }
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.asgi:application",
            "-k",
            "uvicorn_worker.UvicornWorker",
            "-c",
            str(ROOT / "bench" / "gunicorn_bench.py"),
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{port}",
            "--no-control-socket",
            "--log-level",
            "warning",
            "--backlog",
            "4096",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    end = time.time() + 60
    while time.time() < end:
        if proc.poll() is not None:
            raise SystemExit("the server exited during startup")
        try:
            if Client(base).request("GET", "/health?probe=live")[0] == 200:
                return proc, base
        except OSError:
            pass
        time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit("the server did not start in 60 s")


def stop_server(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def resources(proc: subprocess.Popen) -> dict[str, int]:
    """Threads and sockets of the server's worker processes; PostgreSQL
    connections to our database; Redis clients."""
    threads, sockets = _threads_and_sockets(_children(proc.pid))
    out = {"server threads": threads, "server sockets": sockets}
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        out.update(_postgres_connections(url))
    if os.environ.get("REDIS_URL"):
        out.update(_redis_clients(os.environ["REDIS_URL"]))
    return out


def _children(parent: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                pids.append(int(entry))
    return pids


def _threads_and_sockets(pids: list[int]) -> tuple[int, int]:
    threads = sockets = 0
    for pid in pids:
        try:
            threads += len(os.listdir(f"/proc/{pid}/task"))
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # the process ended meanwhile
        for fd in fds:
            try:
                sockets += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
            except OSError:
                pass
    return threads, sockets


def _postgres_connections(url: str) -> dict[str, int]:
    try:
        import psycopg  # only when the bench runs against PostgreSQL

        with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
            count = conn.execute(
                "SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = current_database()"
            ).fetchone()[0]
    except Exception:
        return {}  # a count we cannot take is left out of the report, not a failed bench
    return {"postgres connections": count}


def _redis_clients(url: str) -> dict[str, int]:
    try:
        import redis  # only when the bench runs against Redis

        return {"redis clients": len(redis.Redis.from_url(url).client_list()) - 1}
    except Exception:
        return {}  # as above


# ---- the command load ---------------------------------------------------------------


def post_commands(
    base: str, games: list[dict], stop: threading.Event, sent: list, lat: list, lock, seed: int
):
    """Loop over our games: a pending seat's legal command, posted with its
    expected version. Records (game, version, t_sent) of every accepted one."""
    c = Client(base)
    rnd = random.Random(seed)
    i = 0
    while not stop.is_set() and games:
        g = games[i % len(games)]
        i += 1
        st, meta = c.request("GET", f"/games/{g['id']}", g["tokens"][0])
        if st != 200 or meta.get("status") != "running" or not meta.get("pending"):
            continue
        seat = int(rnd.choice(meta["pending"])["seat"])
        token = g["tokens"].get(seat, g["tokens"][0])
        st, legal = c.request("GET", f"/games/{g['id']}/legal-commands", token)
        cmd = pick_command(legal, rnd) if st == 200 else None
        if cmd is None:
            continue
        t0 = time.perf_counter()
        st, res = c.request(
            "POST",
            f"/games/{g['id']}/commands",
            token,
            {"command": cmd, "expected_version": legal["version"]},
        )
        t1 = time.perf_counter()
        if st == 201:
            with lock:
                sent.append((g["id"], res["version"], t0, t1))
                lat.append(t1 - t0)


def command_run(base: str, games: list[dict], clients: int, seconds: float) -> tuple[list, list, float]:
    sent: list = []
    lat: list = []
    lock = threading.Lock()
    stop = threading.Event()
    shares = [games[i::clients] for i in range(clients)]
    ts = [
        threading.Thread(target=post_commands, args=(base, shares[i], stop, sent, lat, lock, i), daemon=True)
        for i in range(clients)
    ]
    t0 = time.perf_counter()
    for t in ts:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in ts:
        t.join(timeout=60)
    return sent, lat, time.perf_counter() - t0


# ---- the streams ------------------------------------------------------------------


_ID = re.compile(rb"(?m)^id: (\d+)$")


class _Reader(asyncio.Protocol):
    """One SSE stream read as a protocol: the bytes are parsed where they arrive
    (HTTP head, chunked framing, `id:` lines), with no coroutine per chunk. The
    readers share the machine with the server; a StreamReader's two awaits per
    chunk (size line, then payload) cost more than the server's write of it."""

    def __init__(self, owner: Streams, request: bytes, seen: dict[int, float]):
        self.owner, self.request, self.seen = owner, request, seen
        self.buf = b""
        self.head = True
        self.counted = False
        self.closing = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        self.buf += data
        if self.head:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = int(self.buf.split(b" ", 2)[1])
            self.buf, self.head = self.buf[end + 4 :], False
            if status != 200:
                self.owner.failed[f"HTTP {status}"] += 1
                self._quit()
                return
            self.owner.opened += 1
        while True:  # chunked framing: "<hex size>\r\n<payload>\r\n"
            eol = self.buf.find(b"\r\n")
            if eol < 0:
                return
            size = int(self.buf[:eol] or b"0", 16)
            if size == 0:
                self._quit()  # the server ended the stream
                return
            if len(self.buf) < eol + 2 + size + 2:
                return
            payload = self.buf[eol + 2 : eol + 2 + size]
            self.buf = self.buf[eol + 4 + size :]
            if not self.counted and payload.startswith(b"retry:"):
                self.counted = True
                self.owner.ready += 1
            for ident in _ID.findall(payload):
                self.seen[int(ident)] = now

    def _quit(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc) -> None:
        if not self.closing:
            self.owner.failed["dropped"] += 1


class Streams:
    """All streams in one asyncio loop in a thread; records when each stream
    saw each event id: seen[(stream index, game id, seq)] = perf_counter()."""

    def __init__(self, port: int):
        self.port = port
        # uvloop, as the server uses: the 1,000 readers share the machine with the
        # server, and the bench measures the server, not its readers' event loop
        self.loop = uvloop.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.seen: dict[tuple[int, str], dict[int, float]] = defaultdict(dict)
        self.readers: list[_Reader] = []
        self.opened = 0
        self.failed: dict[str, int] = defaultdict(int)
        self.ready = 0

    async def _one(self, idx: int, path: str, token: str, game: str | None) -> None:
        request = (
            f"GET /api/v1{path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        seen = self.seen[(idx, game or "")]
        try:
            _, reader = await self.loop.create_connection(
                lambda: _Reader(self, request, seen), "127.0.0.1", self.port
            )
        except OSError as exc:
            self.failed[type(exc).__name__] += 1
            return
        self.readers.append(reader)

    def open(self, specs: list[tuple[str, str, str | None]]) -> None:
        async def start():
            for idx, (path, token, game) in enumerate(specs):
                await self._one(idx, path, token, game)
                if idx % 50 == 49:
                    await asyncio.sleep(0.05)  # do not flood the accept queue

        asyncio.run_coroutine_threadsafe(start(), self.loop).result()

    def close(self) -> None:
        async def stop():
            for reader in self.readers:
                reader._quit()
            await asyncio.sleep(0.2)  # let the transports close

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(60)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def _streams_child(port: int, conn) -> None:
    streams = Streams(port)
    while True:
        cmd, arg = conn.recv()
        if cmd == "open":
            streams.open(arg)
            conn.send(None)
        elif cmd == "status":
            conn.send((streams.ready, dict(streams.failed)))
        else:  # close
            streams.close()
            conn.send(({k: dict(v) for k, v in streams.seen.items()}, dict(streams.failed), streams.ready))
            return


class RemoteStreams:
    """The streams in a child process of their own. In the bench's process their
    reading loop took the GIL from the threads that post commands and probe
    /health, so the bench measured its own client's contention as the server's
    slowdown; a real stream reader is another program (a browser, a bot)."""

    def __init__(self, port: int):
        ctx = multiprocessing.get_context("fork")  # before any other thread of ours runs
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_streams_child, args=(port, child), daemon=True)
        self.proc.start()
        self.seen: dict = {}
        self.closed_failed: dict | None = None
        self.closed_ready = 0

    def open(self, specs) -> None:
        self.conn.send(("open", specs))
        self.conn.recv()

    def _status(self) -> tuple[int, dict]:
        if self.closed_failed is not None:
            return self.closed_ready, self.closed_failed
        self.conn.send(("status", None))
        return self.conn.recv()

    @property
    def ready(self) -> int:
        return self._status()[0]

    @property
    def failed(self) -> dict:
        return self._status()[1]

    def close(self) -> None:
        self.conn.send(("close", None))
        self.seen, self.closed_failed, self.closed_ready = self.conn.recv()
        self.proc.join(30)


def _health_child(base: str, conn) -> None:
    out: list[float] = []
    stop = threading.Event()
    t = threading.Thread(target=poll_health, args=(base, stop, out), daemon=True)
    t.start()
    conn.recv()
    stop.set()
    t.join(5)
    conn.send(out)


def poll_health(base: str, stop: threading.Event, out: list) -> None:
    c = Client(base)
    while not stop.is_set():
        t0 = time.perf_counter()
        try:
            # readiness (database + broker): this bench runs no Celery worker, so the
            # full check would answer 503 (no heartbeat) and log an error per probe
            c.request("GET", "/health?probe=ready")
            out.append(time.perf_counter() - t0)
        except OSError:
            out.append(float("inf"))
        time.sleep(0.1)


# ---- main --------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--streams", type=int, default=1000)
    ap.add_argument("--users", type=int, default=100)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--clients", type=int, default=10, help="command-posting client threads (default 10)")
    ap.add_argument("--seconds", type=float, default=20.0, help="per run (default 20)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--ruleset", default="auto")
    ap.add_argument(
        "--save-as", default="streams", help="results name (an ad-hoc run should not replace make bench's)"
    )
    args = ap.parse_args()
    per_user = -(-args.streams // args.users)
    proc, base = start_server(args.workers, max(8, per_user))
    port = int(base.rsplit(":", 1)[1])
    print(
        f"gunicorn + uvicorn -w {args.workers} on {base} (DATABASE_URL="
        f"{os.environ.get('DATABASE_URL', 'sqlite default')}, REDIS_URL={os.environ.get('REDIS_URL') or 'none'})",
        flush=True,
    )
    try:
        return run(proc, base, port, args, per_user)
    finally:
        stop_server(proc)


def fresh_games(c: Client, users: list[dict], players: int, ruleset: str, n: int) -> list[dict]:
    """n new games, game g seating users g, g+1, ... (the same seats every time)."""
    return [new_game(c, [users[(g + k) % len(users)] for k in range(players)], ruleset) for g in range(n)]


def run(proc, base: str, port: int, args, per_user: int) -> int:
    c = Client(base)
    prefix = f"s{uuid.uuid4().hex[:6]}u"
    probe = register(c, prefix + "p", 1)[0]
    ruleset, players = choose_ruleset(c, probe["token"], args.ruleset)
    users = register(c, prefix, args.users)
    t0 = time.perf_counter()
    games = fresh_games(c, users, players, ruleset, args.games)
    print(
        f"{args.games} {ruleset} games, {args.users} users: setup {time.perf_counter() - t0:.1f}s", flush=True
    )

    # 1. without streams
    cpu = CpuShares(proc.pid)
    cpu.start()
    sent0, lat0, el0 = command_run(base, games, args.clients, args.seconds)
    shares0 = cpu.stop()
    base_rate = len(sent0) / el0
    print(f"without streams: {base_rate:,.1f} commands/s", flush=True)

    # 2. with streams, on games as fresh as run 1's: the same games would be further on
    # (a later turn costs more or less than an early one, and a game that ends leaves
    # its clients asking for nothing to do), and that would count as the streams' cost
    games = fresh_games(c, users, players, ruleset, args.games)
    before = resources(proc)
    versions = {g["id"]: c.request("GET", f"/games/{g['id']}", g["tokens"][0])[1]["version"] for g in games}
    specs = []
    for u, user in enumerate(users):
        specs.append(("/accounts/me/stream", user["token"], None))
        for k in range(per_user - 1):
            g = games[(u * (per_user - 1) + k) % len(games)]
            # after=<version now>: a stream sends only what is new; ids are the game's seqs
            specs.append(
                (f"/games/{g['id']}/events?stream=1&after={versions[g['id']]}", user["token"], g["id"])
            )
    specs = specs[: args.streams]
    watchers: dict[str, list[int]] = defaultdict(list)
    for idx, (_, _, game) in enumerate(specs):
        if game:
            watchers[game].append(idx)
    streams = RemoteStreams(port)
    t0 = time.perf_counter()
    streams.open(specs)
    while streams.ready + sum(streams.failed.values()) < len(specs) and time.perf_counter() - t0 < 120:
        time.sleep(0.2)
    print(
        f"{streams.ready}/{len(specs)} streams open in {time.perf_counter() - t0:.1f}s "
        f"(failed: {dict(streams.failed) or 'none'})",
        flush=True,
    )
    during = resources(proc)
    # /health is probed from a process of its own, for the reason RemoteStreams gives
    ctx = multiprocessing.get_context("fork")
    hconn, hchild = ctx.Pipe()
    prober = ctx.Process(target=_health_child, args=(base, hchild), daemon=True)
    prober.start()
    cpu.clients = [streams.proc.pid, prober.pid]
    cpu.start()
    sent1, lat1, el1 = command_run(base, games, args.clients, args.seconds)
    shares1 = cpu.stop()
    time.sleep(2.0)  # let the last events arrive
    hconn.send("stop")
    health: list[float] = hconn.recv()
    prober.join(10)
    rate = len(sent1) / el1
    streams.close()

    delays, after_answer, missing = [], [], 0
    for game, version, t_sent, t_answer in sent1:
        for idx in watchers.get(game, []):
            t = streams.seen.get((idx, game), {}).get(version)
            if t is None:
                missing += 1
            else:
                delays.append(max(0.0, t - t_sent))
                after_answer.append(max(0.0, t - t_answer) * 1000)
    time.sleep(3.0)  # the server notices the disconnects
    after = resources(proc)
    # A leak grows with every round; pools do not (they were filled by round one):
    # open and close the same streams once more and count again.
    again = RemoteStreams(port)
    t1 = time.perf_counter()
    again.open(specs)
    while again.ready + sum(again.failed.values()) < len(specs) and time.perf_counter() - t1 < 120:
        time.sleep(0.2)
    again.close()
    time.sleep(3.0)
    after2 = resources(proc)

    ms = [d * 1000 for d in delays]
    hms = [h * 1000 for h in health]
    drop = (1 - rate / base_rate) * 100 if base_rate else float("nan")
    print()
    print(
        table(
            ["run", "commands/s", "POST p50 (ms)", "POST p99 (ms)"],
            [
                [
                    "without streams",
                    base_rate,
                    percentile([x * 1000 for x in lat0], 50),
                    percentile([x * 1000 for x in lat0], 99),
                ],
                [
                    f"with {streams.ready} streams",
                    rate,
                    percentile([x * 1000 for x in lat1], 50),
                    percentile([x * 1000 for x in lat1], 99),
                ],
            ],
        )
    )
    print(f"\nthroughput drop with streams: {drop:.1f}% (goal < 20%)")
    cpu_ms = {
        "without": {k: round(v * (os.cpu_count() or 1) * 1000 / base_rate, 2) for k, v in shares0.items()},
        "with": {k: round(v * (os.cpu_count() or 1) * 1000 / rate, 2) for k, v in shares1.items()},
    }
    print(
        "CPU per command (ms: CPU seconds per second / commands per second) without -> with streams: "
        + ", ".join(f"{k} {cpu_ms['without'][k]} -> {cpu_ms['with'][k]}" for k in shares0)
        + " (clients include the bench's 1,000 stream readers)"
    )
    print(
        f"event delivery, {len(delays):,} deliveries, never arrived: {missing}:\n"
        f"  command answered (committed) -> stream received: p50 {percentile(after_answer, 50):.0f} ms, "
        f"p99 {percentile(after_answer, 99):.0f} ms, max {max(after_answer, default=0):.0f} ms "
        f"(goal p99 < 1000 ms, none missing)\n"
        f"  command sent -> stream received (includes the command's own time): p50 {percentile(ms, 50):.0f} ms, "
        f"p99 {percentile(ms, 99):.0f} ms"
    )
    print(
        f"/health during the run ({len(hms)} probes): p50 {percentile(hms, 50):.1f} ms, "
        f"p99 {percentile(hms, 99):.1f} ms (goal p99 < 50 ms)"
    )
    print()
    keys = sorted(set(before) | set(during) | set(after) | set(after2))
    print(
        table(
            ["resource", "before streams", "streams open", "after closing", "after a 2nd round"],
            [
                [k, before.get(k, "-"), during.get(k, "-"), after.get(k, "-"), after2.get(k, "-")]
                for k in keys
            ],
        )
    )
    path = save(
        args.save_as,
        {
            "streams": len(specs),
            "streams_open": streams.ready,
            "stream_failures": dict(streams.failed),
            "users": args.users,
            "games": args.games,
            "ruleset": ruleset,
            "clients": args.clients,
            "seconds": args.seconds,
            "workers": args.workers,
            "database": (os.environ.get("DATABASE_URL") or "sqlite").split(":", 1)[0],
            "redis": bool(os.environ.get("REDIS_URL")),
            "commands_per_s_without": base_rate,
            "commands_per_s_with": rate,
            "fresh_games": True,  # each run on new games (the results before 2026-11-27: run 2 on run 1's)
            "drop_percent": drop,
            "cpu_shares": {"without": shares0, "with": shares1},
            "cpu_ms_per_command": cpu_ms,
            "delivery_ms": {
                "count": len(ms),
                "p50": percentile(after_answer, 50),
                "p99": percentile(after_answer, 99),
                "max": max(after_answer, default=0.0),
                "missing": missing,
                "from_send_p50": percentile(ms, 50),
                "from_send_p99": percentile(ms, 99),
            },
            "health_ms": {"count": len(hms), "p50": percentile(hms, 50), "p99": percentile(hms, 99)},
            "resources": {"before": before, "during": during, "after": after, "after_round_2": after2},
        },
    )
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
