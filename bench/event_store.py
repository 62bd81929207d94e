#!/usr/bin/env python3
"""Event-store append throughput on PostgreSQL: Sengoku's store vs the
`eventsourcing` library vs raw psycopg INSERT+COMMIT.

Every backend appends one event per transaction, with optimistic concurrency
where the backend has it, for --seconds seconds, in two shapes:
  * 1 writer on 1 stream (game);
  * N writers (threads, default 16) on N streams, each with its own connection.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sengoku_bench python bench/event_store.py

Why, with the measurements and history: docs/modules.md, `bench/event_store.py`.
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from pathlib import Path
from urllib.parse import urlparse

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import median, run_threads, save, table  # noqa: E402

PAYLOAD = {
    "seat": 2,
    "province": "Kyoto",
    "units": [{"kind": "bushi", "n": 2}, {"kind": "shinto", "n": 1}],
    "coins": 3,
    "note": "x" * 64,
}


def database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("DATABASE_URL must point at PostgreSQL (make bench starts one)")
    return url


# ---- Sengoku's store -------------------------------------------------------------


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Django loads only for the Sengoku bench, after the settings module is chosen
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def bench_sengoku(
    writers: int, seconds: float, in_transaction: bool = True, commit: bool = True
) -> tuple[int, float]:
    # the event store imports only once setup_django() has run
    from django.db import connection, transaction

    from events.codec import GENESIS_HASH
    from events.store import NewEvent, append

    def setup(_i: int) -> dict:
        return {"stream": uuid.uuid4(), "version": 0, "head": GENESIS_HASH}

    def step(ctx: dict) -> int:
        # As the game service does: the caller knows the chain head (the game row
        # keeps it), the unique (stream, seq) key is the optimistic lock.
        new = [NewEvent("bench.Moved", PAYLOAD, actor={"seat": 2})]
        if in_transaction:
            with transaction.atomic():
                rows = append(ctx["stream"], ctx["version"], new, prev_hash=ctx["head"], commit=commit)
        else:  # a standalone append: its one INSERT commits by itself (one round trip)
            rows = append(ctx["stream"], ctx["version"], new, prev_hash=ctx["head"])
        ctx["version"] += 1
        ctx["head"] = rows[-1].hash
        return 1

    def teardown(_ctx: dict) -> None:
        connection.close()  # each thread has its own Django connection

    return run_threads(writers, seconds, setup, step, teardown)


# ---- eventsourcing -------------------------------------------------------------

_PAWN = None


def pawn_class() -> type:
    """The aggregate, defined once (eventsourcing registers classes by topic)."""
    global _PAWN
    if _PAWN is None:
        from eventsourcing.domain import Aggregate, event  # a dev-only dependency: this bench alone

        class Pawn(Aggregate):
            @event("Moved")
            def move(self, seat: int, province: str, units: list, coins: int, note: str) -> None:
                pass

        _PAWN = Pawn
    return _PAWN


def bench_eventsourcing(writers: int, seconds: float, db_functions: bool) -> tuple[int, float]:
    from eventsourcing.application import Application  # a dev-only dependency: this bench alone

    Pawn = pawn_class()  # noqa: N806
    u = urlparse(database_url())
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": u.path.lstrip("/"),
        "POSTGRES_HOST": u.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(u.port or 5432),
        "POSTGRES_USER": u.username or "postgres",
        "POSTGRES_PASSWORD": u.password or "",
        "POSTGRES_POOL_SIZE": str(max(5, writers)),
        "POSTGRES_MAX_OVERFLOW": "4",
        "POSTGRES_ENABLE_DB_FUNCTIONS": "y" if db_functions else "n",
    }

    class BenchApp(Application):
        name = "BenchFn" if db_functions else "BenchDefault"

    app = BenchApp(env=env)

    def setup(_i: int):
        pawn = Pawn()
        app.save(pawn)  # the Created event (not counted)
        return pawn

    def step(pawn) -> int:
        pawn.move(**PAYLOAD)
        app.save(pawn)  # unique (originator_id, originator_version) = optimistic lock
        return 1

    try:
        return run_threads(writers, seconds, setup, step)
    finally:
        app.close()


# ---- raw psycopg -----------------------------------------------------------------

RAW_DDL = """
CREATE TABLE IF NOT EXISTS bench_raw_events (
    stream uuid NOT NULL,
    seq integer NOT NULL,
    type text NOT NULL,
    payload jsonb NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream, seq)
)"""


def bench_raw(writers: int, seconds: float) -> tuple[int, float]:
    # only the raw bench talks to PostgreSQL without Django
    import psycopg
    from psycopg.types.json import Jsonb

    url = database_url()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(RAW_DDL)

    def setup(_i: int) -> dict:
        return {"conn": psycopg.connect(url), "stream": uuid.uuid4(), "seq": 0}

    def step(ctx: dict) -> int:
        ctx["seq"] += 1
        ctx["conn"].execute(
            "INSERT INTO bench_raw_events (stream, seq, type, payload) VALUES (%s, %s, %s, %s)",
            (ctx["stream"], ctx["seq"], "bench.Moved", Jsonb(PAYLOAD)),
            prepare=True,
        )
        ctx["conn"].commit()
        return 1

    def teardown(ctx: dict) -> None:
        ctx["conn"].close()

    return run_threads(writers, seconds, setup, step, teardown)


BACKENDS = {
    "sengoku": lambda w, s: bench_sengoku(w, s),
    "sengoku-commit-apart": lambda w, s: bench_sengoku(w, s, commit=False),
    "sengoku-standalone": lambda w, s: bench_sengoku(w, s, in_transaction=False),
    "eventsourcing": lambda w, s: bench_eventsourcing(w, s, db_functions=False),
    "eventsourcing-fn": lambda w, s: bench_eventsourcing(w, s, db_functions=True),
    "raw": lambda w, s: bench_raw(w, s),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="per measurement (default 5)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; cells report the median")
    ap.add_argument("--threads", type=int, default=16, help="concurrent writers (default 16)")
    ap.add_argument("--backends", default=",".join(BACKENDS), help="comma-separated subset")
    args = ap.parse_args()
    database_url()

    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if any(b.startswith("sengoku") for b in backends):
        try:
            setup_django()
        except Exception as exc:  # the store is not there yet, or settings fail
            print(f"sengoku store unavailable ({type(exc).__name__}: {exc}); skipping it", file=sys.stderr)
            backends = [b for b in backends if not b.startswith("sengoku")]

    # Rounds interleave the backends (A B C D, A B C D, ...) and each cell reports
    # the median over rounds, so load drifting on a shared machine hits every
    # backend alike instead of whichever happened to run last.
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in backends}
    for rnd in range(1, args.rounds + 1):
        print(f"round {rnd}/{args.rounds} (load average {os.getloadavg()[0]:.1f})", flush=True)
        for writers in (1, args.threads):
            for name in backends:
                count, elapsed = BACKENDS[name](writers, args.seconds)
                rate = count / elapsed
                samples[name].setdefault(str(writers), []).append(rate)
                print(
                    f"  {name:17} {writers:2} writer(s): {count:7,} events in {elapsed:5.1f}s = {rate:8,.0f} ev/s",
                    flush=True,
                )
    results = {name: {w: median(v) for w, v in cells.items()} for name, cells in samples.items()}

    rows = [
        [name, r.get("1", float("nan")), r.get(str(args.threads), float("nan"))]
        for name, r in results.items()
    ]
    print()
    print(table(["backend", "1 writer (ev/s)", f"{args.threads} writers (ev/s)"], rows))
    path = save(
        "event_store",
        {
            "threads": args.threads,
            "seconds": args.seconds,
            "rounds": args.rounds,
            "results": results,
            "samples": samples,
        },
    )
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
