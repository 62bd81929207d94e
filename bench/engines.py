#!/usr/bin/env python3
"""Engine speed: full random games and their replay, pure Python (no Django).

For each ruleset (default: rising-sun with 5 players), plays --games seeded
random games with `games.rules.testing.play_random_game` (which plays through
the engine contract exactly as the platform does: legal_commands -> decide ->
evolve, JSON round trip of every event) and times

Why, with the measurements and history: docs/modules.md, `bench/engines.py`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import median, save, table  # noqa: E402
from games.rules import registry  # noqa: E402
from games.rules.base import fold  # noqa: E402
from games.rules.testing import play_random_game  # noqa: E402


def bench_ruleset(ruleset_id: str, players: int, games: int, first_seed: int) -> dict:
    rules = registry.get(ruleset_id)
    if rules is None:
        return {"skipped": "not registered / not importable yet"}
    sims, replays, events, commands, failures = [], [], [], [], []
    for seed in range(first_seed, first_seed + games):
        factions: list[str | None] = [None] * players
        t0 = time.perf_counter()
        try:
            out = play_random_game(rules, factions, {}, seed, check_every=10**9, check_views=False)
        except Exception as exc:  # an engine bug: report it, keep measuring the others
            failures.append(f"seed {seed}: {type(exc).__name__}: {str(exc)[:120]}")
            continue
        sims.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        state = fold(rules, out.events)
        replays.append(time.perf_counter() - t0)
        assert state == out.state, "replay differs"
        events.append(len(out.events))
        commands.append(out.commands)
        print(
            f"  {ruleset_id} seed {seed}: {len(out.events)} events, {out.commands} commands, "
            f"sim {sims[-1]:.2f}s, replay {replays[-1] * 1000:.0f} ms",
            flush=True,
        )
    if not sims:
        return {"skipped": "every game failed", "failures": failures}
    return {
        "players": players,
        "games": len(sims),
        "sim_median_ms": median(sims) * 1000,
        "replay_median_ms": median(replays) * 1000,
        "events_median": median(events),
        "commands_median": median(commands),
        "failures": failures,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--rulesets", default="rising-sun:5", help="comma-separated id:players (default rising-sun:5)"
    )
    args = ap.parse_args()
    results = {}
    for spec in args.rulesets.split(","):
        rid, _, players = spec.partition(":")
        results[rid] = bench_ruleset(rid, int(players or 5), args.games, args.seed)
        if "skipped" in results[rid]:
            print(f"  {rid}: skipped ({results[rid]['skipped']})")
    rows = []
    for rid, r in results.items():
        if "skipped" in r:
            rows.append([rid, "-", "-", "-", "-", "-", f"skipped: {r['skipped']}"])
        else:
            rows.append(
                [
                    rid,
                    r["players"],
                    r["games"],
                    r["sim_median_ms"],
                    r["replay_median_ms"],
                    int(r["events_median"]),
                    f"{len(r['failures'])} failed" if r["failures"] else "ok",
                ]
            )
    print()
    print(
        table(
            ["ruleset", "players", "games", "sim median (ms)", "replay median (ms)", "events/game", "notes"],
            rows,
        )
    )
    path = save("engines", {"results": results})
    print(f"\nwrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
