#!/usr/bin/env python3
"""Bot strength and speed (issue 17), with the engines only (no server):
seeded, seat-rotated games per ruleset and player count.

    python bench/bots.py                         # heuristic vs random, 200 games per table
    python bench/bots.py --mode mcts --games 20 --seconds 1.0   # mcts (1 s) vs heuristic
    python bench/bots.py --tables imjin:2 --games 50 --jobs 2
    python bench/bots.py --mode mcts --iterations 200 --games 40   # CPU-independent A/B

A game counts as won when the tested bot's seat is among the winners (shared wins
count). One seat plays the tested bot, the others the opponent bot; the tested
seat rotates with the seed. Win rates come with Wilson 95% intervals. The
pairwise rate is the share of (tested seat, other seat) pairs in which the tested
seat finishes ahead by the final ranking (winners first, then the outcome's
scores; a tie counts half; an even seat 50%), with a normal 95% interval over
games (a game's pairs are not independent). `--iterations` replaces the mcts
clock by a fixed number of search iterations per decision (reproducible on a
shared machine). Decision
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
from games.rules.base import Outcome  # noqa: E402
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


def pairwise(outcome: Outcome, seat: int, players: int) -> float:
    """The share of the other seats the seat finishes ahead of (ties: half)."""

    def rank(q: int) -> tuple[bool, float]:
        return (q in outcome.winners, float(outcome.scores.get(q, 0.0)))

    others = [q for q in range(players) if q != seat]
    return sum(1.0 if rank(seat) > rank(q) else 0.5 if rank(seat) == rank(q) else 0.0 for q in others) / len(
        others
    )


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    if not values:
        return (float("nan"), 0.0, 1.0)
    m = sum(values) / len(values)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / max(1, len(values) - 1))
    h = z * sd / math.sqrt(len(values))
    return (m, max(0.0, m - h), min(1.0, m + h))


Game = tuple[bool, float, list[float], str | None]


def one(args: tuple[str, int, str, str, int, float, int | None]) -> Game:
    ruleset, players, tested, opponent, seed, seconds, iterations = args
    seat = seed % players
    bots = [opponent] * players
    bots[seat] = tested
    try:
        m = arena.run(get(ruleset), bots, seed, seconds=seconds, iterations=iterations)
    except Exception as exc:  # a refused command or a stuck game is reported, not hidden
        return False, 0.0, [], f"seed {seed}: {exc}"
    return seat in m.outcome.winners, pairwise(m.outcome, seat, players), m.seconds.get(tested, []), None


def pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def table(spec: str, a: argparse.Namespace, tested: str, opponent: str) -> dict:
    ruleset, players = spec.split(":")
    n = int(players)
    jobs = [(ruleset, n, tested, opponent, a.first_seed + s, a.seconds, a.iterations) for s in range(a.games)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(a.jobs) as pool:
        done = list(pool.map(one, jobs))
    ok = [g for g in done if g[3] is None]
    wins = sum(1 for g in ok if g[0])
    played = len(ok)
    times = sorted(t for g in ok for t in g[2])
    lo, hi = wilson(wins, played)
    pair, pair_lo, pair_hi = mean_ci([g[1] for g in ok])
    return {
        "ruleset": ruleset,
        "players": n,
        "games": played,
        "wins": wins,
        "win_rate": wins / played if played else float("nan"),
        "ci95": [lo, hi],
        "fair_share": 1 / n if ruleset != "imjin" else 0.5,
        "pairwise": pair,
        "pairwise_ci95": [pair_lo, pair_hi],
        "decisions": len(times),
        "decision_p50_ms": pct(times, 0.5) * 1000,
        "decision_p99_ms": pct(times, 0.99) * 1000,
        "failures": [g[3] for g in done if g[3]][:5],
        "wall_s": round(time.perf_counter() - t0, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=sorted(MODES), default="heuristic")
    ap.add_argument("--games", type=int, default=200, help="games per ruleset and player count")
    ap.add_argument("--tables", default=TABLES, help="ruleset:players,...")
    ap.add_argument("--seconds", type=float, default=1.0, help="mcts thinking time per decision")
    ap.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="mcts search iterations per decision (replaces --seconds)",
    )
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel (processes)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--save-as", default=None, help="results file name (default bots_<mode>)")
    a = ap.parse_args()
    tested, opponent = MODES[a.mode]
    results = {}
    for spec in a.tables.split(","):
        r = results[spec] = table(spec, a, tested, opponent)
        lo, hi = r["ci95"]
        plo, phi = r["pairwise_ci95"]
        print(
            f"{spec:14} {tested} vs {opponent}: {r['wins']}/{r['games']} = {r['win_rate']:.0%} "
            f"(95% CI {lo:.0%}-{hi:.0%}); pairwise {r['pairwise']:.0%} ({plo:.0%}-{phi:.0%}); "
            f"{tested} decision p50 {r['decision_p50_ms']:.1f} ms p99 {r['decision_p99_ms']:.1f} ms; "
            f"{r['wall_s']} s",
            flush=True,
        )
    save(
        a.save_as or f"bots_{a.mode}",
        {
            "mode": a.mode,
            "tested": tested,
            "opponent": opponent,
            "seconds": a.seconds,
            "iterations": a.iterations,
            "results": results,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
