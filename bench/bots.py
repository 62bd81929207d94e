#!/usr/bin/env python3
"""Bot strength and speed (issue 17), with the engines only (no server):
seeded, seat-rotated games per ruleset and player count.

    python bench/bots.py                         # heuristic vs random, 200 games per table
    python bench/bots.py --mode mcts --games 20 --seconds 1.0   # mcts (1 s) vs heuristic
    python bench/bots.py --tables imjin:2 --games 50 --jobs 2

A game counts as won when the tested bot's seat is among the winners (shared wins
count). One seat plays the tested bot, the others the opponent bot; the tested
seat rotates with the seed. Win rates come with Wilson 95% intervals. Decision
times are wall-clock per `games.bots.play` call (view, legal set, world, choice).
Results: var/bench/bots_<mode>.json, rendered by bench/report.py.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import save  # noqa: E402
from games.bots import arena  # noqa: E402
from games.rules.registry import get  # noqa: E402

TABLES = "rising-sun:3,rising-sun:4,rising-sun:5,shogun:3,shogun:4,shogun:5,imjin:2,imjin:4"
MODES = {"heuristic": ("heuristic", "random"), "mcts": ("mcts", "heuristic")}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def one(args: tuple[str, int, str, str, int, float]) -> tuple[bool, list[float], str | None]:
    ruleset, players, tested, opponent, seed, seconds = args
    seat = seed % players
    bots = [opponent] * players
    bots[seat] = tested
    try:
        m = arena.run(get(ruleset), bots, seed, seconds=seconds)
    except Exception as exc:  # a refused command or a stuck game is reported, not hidden
        return False, [], f"seed {seed}: {exc}"
    return seat in m.outcome.winners, m.seconds.get(tested, []), None


def pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=sorted(MODES), default="heuristic")
    ap.add_argument("--games", type=int, default=200, help="games per ruleset and player count")
    ap.add_argument("--tables", default=TABLES, help="ruleset:players,...")
    ap.add_argument("--seconds", type=float, default=1.0, help="mcts thinking time per decision")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--save-as", default=None, help="results file name (default bots_<mode>)")
    a = ap.parse_args()
    tested, opponent = MODES[a.mode]
    results = {}
    for spec in a.tables.split(","):
        ruleset, players = spec.split(":")
        n = int(players)
        jobs = [(ruleset, n, tested, opponent, a.first_seed + s, a.seconds) for s in range(a.games)]
        t0 = time.perf_counter()
        with ProcessPoolExecutor(a.jobs) as pool:
            done = list(pool.map(one, jobs))
        wins = sum(1 for w, _, err in done if w and err is None)
        played = sum(1 for _, _, err in done if err is None)
        times = sorted(t for _, ts, _ in done for t in ts)
        lo, hi = wilson(wins, played)
        results[spec] = {
            "ruleset": ruleset,
            "players": n,
            "games": played,
            "wins": wins,
            "win_rate": wins / played if played else float("nan"),
            "ci95": [lo, hi],
            "fair_share": 1 / n if ruleset != "imjin" else 0.5,
            "decisions": len(times),
            "decision_p50_ms": pct(times, 0.5) * 1000,
            "decision_p99_ms": pct(times, 0.99) * 1000,
            "failures": [err for _, _, err in done if err][:5],
            "wall_s": round(time.perf_counter() - t0, 1),
        }
        r = results[spec]
        print(
            f"{spec:14} {tested} vs {opponent}: {wins}/{played} = {r['win_rate']:.0%} "
            f"(95% CI {lo:.0%}-{hi:.0%}); {tested} decision p50 {r['decision_p50_ms']:.1f} ms "
            f"p99 {r['decision_p99_ms']:.1f} ms; {r['wall_s']} s",
            flush=True,
        )
    save(
        a.save_as or f"bots_{a.mode}",
        {"mode": a.mode, "tested": tested, "opponent": opponent, "seconds": a.seconds, "results": results},
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
