#!/usr/bin/env python3
"""Fair background work: do deadlines fire on time while bot games play?

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/fairness.py --bot-games 20

Why, with the measurements and history: docs/modules.md, `bench/fairness.py`.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import percentile, save, table  # noqa: E402

# Django and the project are imported inside functions here: only after settings are
# chosen and django.setup() has run (models cannot be imported before that).


def _setup_django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # Django loads here, after main() set the environment for this run
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def _games(n_bots: int, n_timed: int, ruleset: str) -> tuple[list, list]:
    # the models and services import only once django.setup() has run
    from django.contrib.auth import get_user_model

    from games.models import Seat
    from games.services import lobby

    User = get_user_model()  # noqa: N806
    tag = uuid.uuid4().hex[:6]
    host = User.objects.create_user(f"fair-host-{tag}", password=None)
    bots, timed = [], []
    for _ in range(n_bots):
        g = lobby.create_game(host, ruleset, 3)
        lobby.join(g.id, host, bot="random")
        lobby.join(g.id, host, bot="random")
        Seat.objects.filter(game=g, index=0).update(zombie=True)
        lobby.start(g.id, host)
        bots.append(g.id)
    for i in range(n_timed):
        other = User.objects.create_user(f"fair-p{i}-{tag}", password=None)
        g = lobby.create_game(
            host, ruleset, 3, time_control={"seconds_per_decision": 5, "excused_misses": 10**3}
        )
        lobby.join(g.id, other)
        lobby.join(g.id, User.objects.create_user(f"fair-q{i}-{tag}", password=None))
        lobby.start(g.id, host)
        timed.append(g.id)
    return bots, timed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot-games", type=int, default=20)
    ap.add_argument("--timed-games", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("--concurrency", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--ruleset", default="rising-sun")
    ap.add_argument("--save-as", default="fairness")
    args = ap.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get("REDIS_URL"):
        sys.exit("needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    os.environ.pop("CELERY_TASK_ALWAYS_EAGER", None)
    os.environ["HOOKS_INLINE"] = "false"
    # The sweeper's outage guard would see the gap since the previous run of a benchmark
    # on this database as downtime and push every open deadline back by it.
    os.environ["DEADLINE_OUTAGE_SECONDS"] = str(10**6)
    _setup_django()
    # the models and services import only once django.setup() has run
    from config.celery import app
    from games.models import Deadline, Game

    app.control.purge()  # earlier runs' leftovers (e.g. the API benchmark's, which runs no worker)
    tmp = Path(tempfile.mkdtemp(prefix="fairness-"))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOOKS_INLINE": "false"}
    py = sys.executable
    log = open(tmp / "celery.log", "wb")
    procs = [
        subprocess.Popen(
            [
                py,
                "-m",
                "celery",
                "-A",
                "config.celery:app",
                "worker",
                "--loglevel",
                "WARNING",
                "--concurrency",
                str(args.concurrency),
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        ),
        subprocess.Popen(
            [
                py,
                "-m",
                "celery",
                "-A",
                "config.celery:app",
                "beat",
                "--loglevel",
                "WARNING",
                "--schedule",
                str(tmp / "beat-schedule"),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        ),
    ]
    try:
        time.sleep(3)
        bots, timed = _games(args.bot_games, args.timed_games, args.ruleset)
        began = time.time()
        v0 = dict(Game.objects.filter(id__in=bots).values_list("id", "version"))
        print(
            f"{len(bots)} bot games and {len(timed)} timed games running; measuring {args.seconds:.0f}s",
            flush=True,
        )
        queue = []
        with app.connection_for_write() as conn:
            client = conn.default_channel.client
            while time.time() - began < args.seconds:
                # the Redis transport keeps one list per priority step (clocks use priority 0)
                lists = ("celery", *(f"celery\x06\x16{p}" for p in (3, 6, 9)))
                queue.append(sum(client.llen(k) for k in lists))
                time.sleep(1)
                if any(p.poll() is not None for p in procs):
                    raise SystemExit("worker or beat exited:\n" + (tmp / "celery.log").read_text()[-3000:])
        fired = list(
            Deadline.objects.filter(game_id__in=timed, status=Deadline.Status.FIRED).values_list(
                "due_at", "closed_at"
            )
        )
        still = Deadline.objects.filter(game_id__in=timed, status=Deadline.Status.OPEN, due_at__isnull=False)
        now = __import__("django.utils.timezone", fromlist=["now"]).now()
        overdue = [(now - d).total_seconds() for d in still.values_list("due_at", flat=True) if d < now]
        v1 = dict(Game.objects.filter(id__in=bots).values_list("id", "version"))
    finally:
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
    late = sorted((c - d).total_seconds() for d, c in fired)
    moves = sum(v1[g] - v0[g] for g in bots)
    result = {
        "bot_games": len(bots),
        "timed_games": len(timed),
        "seconds": args.seconds,
        "concurrency": args.concurrency,
        "fired": len(late),
        "late_p50": percentile(late, 50) if late else None,
        "late_p95": percentile(late, 95) if late else None,
        "late_max": max(late) if late else None,
        "overdue_unfired_max": max(overdue) if overdue else 0.0,
        "bot_events": moves,
        "bot_events_per_second": moves / args.seconds,
        "queue_max": max(queue) if queue else 0,
        "queue_median": sorted(queue)[len(queue) // 2] if queue else 0,
    }
    print(table(["measure", "value"], [[k, v] for k, v in result.items()]))
    worst = max(result["late_max"] or 0.0, result["overdue_unfired_max"])
    print(
        f"\nverdict: worst deadline lateness {worst:.2f} s (goal <= 2 s): {'met' if worst <= 2 else 'NOT met'}"
    )
    print(f"wrote {save(args.save_as, result)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
