#!/usr/bin/env python3
"""Range replay on the embedded default (issue 16 item 4): a whole 5-player
Shogun game, replayed through the HTTP API with /replay?from=1 and its `next`
links, must take at most 5 requests and 1 s.

The game is played to its end through the services on a fresh SQLite database
(var/bench/replay.sqlite3); then scripts/run_embedded.py (gunicorn + uvicorn
workers, NO_CELERY=1) serves that database and a seated player and a spectator
each replay the game over HTTP, --rounds times (the first round is cold: no
state in the server's cache).

Why, with the measurements and history: docs/modules.md, `bench/replay_range.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import RESULTS, cpu_seconds, process_tree, save, table  # noqa: E402

DB = RESULTS / "replay.sqlite3"
GOAL_REQUESTS, GOAL_SECONDS = 5, 1.0


def play_game(seed: int) -> tuple[str, dict[str, str]]:
    """A finished 5-player Shogun game; returns its id and two tokens."""
    # Django loads here, after main() set DATABASE_URL and the settings module for this run
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    # the models and services import only once django.setup() has run
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    from games.bots import choose
    from games.models import Game
    from games.rules import registry
    from games.services import lobby, play
    from games.services.state import load_state

    user_model = get_user_model()
    users = [user_model.objects.create_user(f"bench{i}", password="x") for i in range(6)]
    game = lobby.create_game(users[0], "shogun", 5)
    for u in users[1:5]:
        lobby.join(game.id, u)
    lobby.start(game.id, users[0])
    rules = registry.load_strict("shogun")
    rnd = random.Random(seed)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        state = load_state(game)
        p = rnd.choice(rules.pending(state))
        play.submit(game.id, users[p.seat], json.loads(json.dumps(choose(rules, state, p.seat, rnd))))
    tokens = {
        "seat 0": AuthToken.objects.create(users[0])[1],
        "spectator": AuthToken.objects.create(users[5])[1],
    }
    return str(game.id), {**tokens, "_version": str(game.version)}


def server_cpu(pid: int) -> float:
    return sum(cpu_seconds(p) for p in process_tree(pid))


def replay(base: str, gid: str, token: str) -> tuple[int, float, int]:
    url, requests, versions = f"{base}/api/v1/games/{gid}/replay?from=1", 0, 0
    t0 = time.perf_counter()
    while url:
        req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(req, timeout=60) as r:
            body = json.loads(r.read())
        requests += 1
        versions += len(body["patches"])
        url = body["next"]
    return requests, time.perf_counter() - t0, versions + 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--port", type=int, default=8765)
    a = ap.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    DB.unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that `finally` stops the server
    for k in ("REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(k, None)
    t0 = time.perf_counter()
    gid, tokens = play_game(a.seed)
    version = int(tokens.pop("_version"))
    print(f"played a 5-player Shogun game: {version} versions in {time.perf_counter() - t0:.0f}s", flush=True)
    env = {
        **os.environ,
        "PORT": str(a.port),
        "NO_CELERY": "1",
        "ACCESS_LOG": "",
        "SENGOKU_VAR_DIR": str(RESULTS / "replay-var"),
    }
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "run_embedded.py")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{a.port}"
    try:
        for _ in range(120):  # up once it answers at all (/health is 503 without Celery)
            try:
                urllib.request.urlopen(f"{base}/api/v1/rulesets", timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(1)
        rows, runs = [], []
        for rnd in range(a.rounds):
            for who, token in tokens.items():
                cpu0 = server_cpu(server.pid)
                n, secs, versions = replay(base, gid, token)
                cpu = server_cpu(server.pid) - cpu0  # load-independent: what the server spent on it
                assert versions == version, (versions, version)
                ok = n <= GOAL_REQUESTS and secs <= GOAL_SECONDS
                runs.append(
                    {
                        "round": rnd + 1,
                        "viewer": who,
                        "requests": n,
                        "seconds": round(secs, 3),
                        "server_cpu_seconds": round(cpu, 3),
                        "versions": versions,
                        "met": ok,
                    }
                )
                rows.append([rnd + 1, who, versions, n, f"{secs:.3f}", f"{cpu:.2f}", "yes" if ok else "NO"])
        print(
            table(
                [
                    "round",
                    "viewer",
                    "versions",
                    "requests",
                    "seconds",
                    "server CPU (s)",
                    f"≤{GOAL_REQUESTS} req, ≤{GOAL_SECONDS:g}s",
                ],
                rows,
            )
        )
        warm = [r for r in runs if r["round"] > 1] or runs
        save(
            "replay_range",
            {
                "game_versions": version,
                "runs": runs,
                "goal_requests": GOAL_REQUESTS,
                "goal_seconds": GOAL_SECONDS,
                "met_warm": all(r["met"] for r in warm),
                "met_cold": all(r["met"] for r in runs if r["round"] == 1),
            },
        )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
